"""LLM faults and secrets: empty replies, keys echoed in part, credentials in the base URL,
a world-readable cache. Over real HTTP against the fake endpoint."""

from __future__ import annotations

import base64
import stat
from pathlib import Path

import pytest

from bemula.llm.cache import RequestCache
from bemula.llm.client import LLMClient, LLMConfig, LLMError, scrub_secrets, split_credentials
from bemula.run.runner import RunConfig
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder

USER = [{"role": "user", "content": "what is my dentist's name?"}]
KEY = "sk-test-0123456789abcdefghijKLMNOP"


def _client(base_url: str, cache: RequestCache | None = None, **kw) -> LLMClient:
    kw.setdefault("max_retries", 2)
    return LLMClient(LLMConfig(model="m", base_url=base_url, timeout_s=5.0, **kw), cache, sleep=lambda s: None)


@pytest.mark.parametrize("empty", ["", "   ", "\n\t"])
def test_empty_completion_is_retried_then_answered(empty: str) -> None:
    with FakeOpenAIServer(ScriptedResponder([empty, "Dr. Okafor"])) as server:
        client = _client(server.base_url)
        assert client.chat(USER).text == "Dr. Okafor"
    assert len(server.chat_requests()) == 2 and client.stats()["retries"] == 1


def test_empty_every_time_is_an_error_and_never_cached(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "cache.sqlite")
    with FakeOpenAIServer(lambda path, body: "") as server:
        with pytest.raises(LLMError, match="empty completion"):
            _client(server.base_url, cache).chat(USER)
    assert len(server.chat_requests()) == 3  # 1 + 2 retries
    assert cache.rows() == []
    cache.close()


def test_empty_reply_not_cached_so_the_next_run_asks_again(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "cache.sqlite")
    replies = ["", "", "", "Dr. Okafor"]
    with FakeOpenAIServer(ScriptedResponder(replies)) as server:
        first = _client(server.base_url, cache, cache_namespace="fake")
        with pytest.raises(LLMError):
            first.chat(USER)
        second = _client(server.base_url, cache, cache_namespace="fake")
        assert second.chat(USER).text == "Dr. Okafor"
        assert second.stats()["cache_hits"] == 0
    assert len(cache.rows()) == 1
    cache.close()


def test_every_fragment_of_8_or_more_characters_is_scrubbed() -> None:
    text = f"auth failed for {KEY[3:14]}…{KEY[-9:]} (full: {KEY}); prefix {KEY[:8]}; short {KEY[:5]}"
    out = scrub_secrets(text, [KEY])
    for i in range(len(KEY) - 7):
        assert KEY[i:i + 8] not in out
    assert out.count("***") == 4 and "short sk-te" in out


def test_echoed_key_fragment_never_reaches_the_error(tmp_path: Path) -> None:
    echo = f"invalid api key {KEY[5:20]} for this org"
    with FakeOpenAIServer(lambda path, body: Fault("http", status=401, message=echo)) as server:
        with pytest.raises(LLMError) as info:
            _client(server.base_url, api_key=KEY).chat(USER)
    message = str(info.value)
    assert "HTTP 401" in message and "***" in message
    assert all(KEY[i:i + 8] not in message for i in range(len(KEY) - 7))


def test_url_credentials_travel_as_headers_and_query_and_never_in_metadata() -> None:
    with FakeOpenAIServer(lambda path, body: "ok") as server:
        host = server.base_url.split("://", 1)[1]
        url = f"http://alice:s3cr3t-pass@{host}?api-version=2025-01&api-key=QUERYSECRET99"
        client = _client(url)
        assert client.chat(USER).text == "ok"
        target, headers = server.raw_requests[-1]
    assert target.endswith("/chat/completions?api-version=2025-01&api-key=QUERYSECRET99")
    assert headers["authorization"] == "Basic " + base64.b64encode(b"alice:s3cr3t-pass").decode()
    described = str(client.describe())
    assert "s3cr3t" not in described and "QUERYSECRET" not in described and "alice" not in described
    config = RunConfig(data=Path("d"), out=Path("o"), system="naive-rag", base_url=url).to_json()
    assert "s3cr3t" not in str(config) and "QUERYSECRET" not in str(config)
    parts = split_credentials(url)
    assert "s3cr3t-pass" in parts.secrets and "QUERYSECRET99" in parts.secrets


def test_request_cache_is_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cache.sqlite"
    cache = RequestCache(path)
    cache.put("k", model="m", endpoint="e", request={"messages": []}, response={"text": "x"}, latency_s=0.1)
    for file in path.parent.iterdir():
        assert stat.S_IMODE(file.stat().st_mode) & 0o077 == 0, file
    cache.close()


def test_a_key_echoed_in_the_completion_never_reaches_the_answer(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "cache.sqlite")
    with FakeOpenAIServer(lambda path, body: f"Your header was Authorization: Bearer {KEY} ok") as server:
        result = _client(server.base_url, cache, api_key=KEY).chat(USER)
    assert "Bearer ***" in result.text and KEY[:8] not in result.text
    assert KEY[10:18] not in str(cache.rows())
    cache.close()
