from __future__ import annotations

from pathlib import Path

import pytest

from bemula.llm.backends import OPENAI_DEFAULT_BASE_URL, endpoint_settings, open_llm
from bemula.llm.client import LLMError, LLMUnavailable
from bemula.testing.fake_server import FakeOpenAIServer


def test_flags_beat_bemula_env_beat_openai_env(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://openai-env/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "k-openai")
    monkeypatch.setenv("BEMULA_MODEL", "env-model")
    assert endpoint_settings(model=None, base_url=None, api_key=None) == (
        "env-model", "http://openai-env/v1", "k-openai")
    monkeypatch.setenv("BEMULA_BASE_URL", "http://bemula-env/v1")
    monkeypatch.setenv("BEMULA_API_KEY", "k-bemula")
    assert endpoint_settings(model=None, base_url=None, api_key=None) == (
        "env-model", "http://bemula-env/v1", "k-bemula")
    assert endpoint_settings(model="flag", base_url="http://flag/v1", api_key="k-flag") == (
        "flag", "http://flag/v1", "k-flag")


def test_key_alone_means_openai(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert endpoint_settings(model="gpt", base_url=None, api_key=None)[1] == OPENAI_DEFAULT_BASE_URL


def test_missing_settings_are_one_clear_line() -> None:
    with pytest.raises(LLMUnavailable, match="no LLM endpoint configured"):
        endpoint_settings(model="m", base_url=None, api_key=None)
    with pytest.raises(LLMUnavailable, match="no model name"):
        endpoint_settings(model=None, base_url="http://x/v1", api_key=None)


def test_unknown_backbone() -> None:
    with pytest.raises(LLMError, match="unknown backbone"):
        with open_llm("claude"):
            pass


def test_open_llm_endpoint_uses_default_cache(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BEMULA_CACHE_DIR", str(tmp_path))
    with FakeOpenAIServer() as server:
        for _ in range(2):
            with open_llm("endpoint", model="m", base_url=server.base_url) as client:
                client.chat([{"role": "user", "content": "hi"}])
                assert client.describe()["cache"] == str(tmp_path / "llm-cache.sqlite")
        assert len(server.requests) == 1
        with open_llm("openai", model="m", base_url=server.base_url, use_cache=False) as client:
            client.chat([{"role": "user", "content": "hi"}])
            assert client.describe()["cache"] is None
        assert len(server.requests) == 2


def test_local_with_missing_gguf_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(LLMUnavailable, match="does not exist"):
        with open_llm("local", gguf=tmp_path / "nope.gguf"):
            pass
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"NOPE")
    with pytest.raises(LLMUnavailable, match="not a GGUF"):
        with open_llm("local", gguf=bad):
            pass


def test_unknown_local_model() -> None:
    with pytest.raises(LLMUnavailable, match="unknown local model 'local-70b'"):
        with open_llm("local", model="local-70b"):
            pass
