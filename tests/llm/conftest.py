"""Every LLM test gets its own cache folder and no endpoint settings from the environment."""

from __future__ import annotations

import pytest

ENDPOINT_VARS = (
    "BEMULA_BASE_URL",
    "BEMULA_API_KEY",
    "BEMULA_MODEL",
    "BEMULA_GGUF",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
)


@pytest.fixture(autouse=True)
def _isolated_llm_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEMULA_CACHE_DIR", str(tmp_path_factory.mktemp("bemula-cache")))
    for name in ENDPOINT_VARS:
        monkeypatch.delenv(name, raising=False)


