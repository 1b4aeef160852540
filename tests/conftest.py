"""Project-wide test isolation.

Every test gets its own LLM request cache (``BEMULA_CACHE_DIR``), so concurrent test runs
and earlier runs can never turn a test's network calls into cache hits. Assembled local-model
weights stay in one shared folder (``BEMULA_MODELS_DIR``), so the slow tests assemble the
GGUF once instead of once per test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bemula.llm.cache import default_cache_dir


@pytest.fixture(scope="session")
def _shared_models_dir() -> Path:
    explicit = os.environ.get("BEMULA_MODELS_DIR")
    return Path(explicit) if explicit else default_cache_dir() / "models"


@pytest.fixture(autouse=True)
def _isolated_request_cache(
    _shared_models_dir: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BEMULA_MODELS_DIR", str(_shared_models_dir))
    monkeypatch.setenv("BEMULA_CACHE_DIR", str(tmp_path_factory.mktemp("bemula-cache")))
