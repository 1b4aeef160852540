"""The API key never reaches describe(), stats(), repr, cache rows, or error messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bemula.llm.backends import open_llm
from bemula.llm.cache import RequestCache
from bemula.llm.client import LLMClient, LLMConfig, LLMError
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder

SECRET = "sk-bemula-test-SECRET-0123456789abcdef"
USER = [{"role": "user", "content": "hello"}]


def test_key_is_sent_but_never_shown(tmp_path: Path) -> None:
    script = ScriptedResponder(["fine"])
    with FakeOpenAIServer(script) as server:
        cache = RequestCache(tmp_path / "c.sqlite")
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url, api_key=SECRET), cache)
        client.chat(USER)
        client.chat(USER)
    everything = json.dumps([client.describe(), client.stats(), client.config.describe(), cache.rows(),
                             cache.summary()])
    assert SECRET not in everything and SECRET not in repr(client.config)
    assert client.describe()["api_key_set"] is True
    assert SECRET.encode() not in (tmp_path / "c.sqlite").read_bytes()


def test_key_echoed_by_the_server_is_scrubbed_from_errors() -> None:
    echo = Fault("http", status=401, message=f"Incorrect API key provided: {SECRET}. Also {SECRET[:12]}…{SECRET[-4:]}")
    with FakeOpenAIServer(lambda path, body: echo) as server:
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url, api_key=SECRET))
        with pytest.raises(LLMError) as info:
            client.chat(USER)
    message = str(info.value)
    assert "HTTP 401" in message
    assert SECRET not in message and SECRET[:8] not in message
    # a printed traceback shows no chained SDK error (whose text holds the raw server message)
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_key_in_url_is_not_shown(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        url = server.base_url.replace("http://", f"http://user:{SECRET}@")
        client = LLMClient(LLMConfig(model="m", base_url=url))
        assert SECRET not in json.dumps(client.describe())


def test_key_from_env_not_in_open_llm_metadata(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BEMULA_API_KEY", SECRET)
    with FakeOpenAIServer(lambda path, body: Fault("http500")) as server:
        monkeypatch.setenv("BEMULA_BASE_URL", server.base_url)
        with open_llm("openai", model="m", cache_path=tmp_path / "c.sqlite", max_retries=0) as client:
            assert client.config.api_key == SECRET
            with pytest.raises(LLMError) as info:
                client.chat(USER)
            assert SECRET not in str(info.value)
            assert SECRET not in json.dumps(client.describe())
