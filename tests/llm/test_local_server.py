"""The embedded local model, for real (slow: loads a 0.5B model on CPU; runs in CI).

Skipped with a reason when the ``local`` extra is not installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bemula.llm.cache import default_cache_dir

pytestmark = pytest.mark.slow

REAL_MODELS_DIR = Path(os.environ.get("BEMULA_MODELS_DIR") or default_cache_dir() / "models")


@pytest.fixture(autouse=True)
def _real_models_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    """Assemble the weights once per machine, not once per test's temporary cache dir.

    Not named ``_shared_models_dir``: that would shadow the project conftest's fixture, which
    then read ``None`` and put a 470 MB ``None/`` model folder into the checkout."""
    pytest.importorskip("xllamacpp", reason="the 'local' extra is not installed")
    monkeypatch.setenv("BEMULA_MODELS_DIR", str(REAL_MODELS_DIR))


@pytest.fixture(scope="module")
def local_client(tmp_path_factory: pytest.TempPathFactory):
    from bemula.llm.backends import open_llm

    os.environ["BEMULA_MODELS_DIR"] = str(REAL_MODELS_DIR)
    cache = tmp_path_factory.mktemp("local-cache") / "c.sqlite"
    with open_llm("local", cache_path=cache, concurrency=2) as client:
        yield client


def test_answers_and_counts_tokens(local_client) -> None:
    result = local_client.chat(
        [{"role": "user", "content": "What is the capital of France? Answer with one word."}], max_tokens=8
    )
    assert "paris" in result.text.lower()
    assert result.prompt_tokens > 5 and 0 < result.completion_tokens <= 8
    assert not result.cached and result.latency_s > 0


def test_json_schema_output_is_valid(local_client) -> None:
    schema = {
        "type": "object",
        "properties": {"verdict": {"type": "string", "enum": ["yes", "no"]}, "reason": {"type": "string", "maxLength": 80}},
        "required": ["verdict", "reason"],
    }
    value, result = local_client.chat_json(
        [{"role": "user", "content": "Is the sun hot? Give a verdict and a reason of at most ten words."}],
        schema=schema,
        max_tokens=120,
    )
    assert value["verdict"] in ("yes", "no") and isinstance(value["reason"], str)


def test_second_identical_call_is_cached(local_client) -> None:
    question = [{"role": "user", "content": "Name one primary colour."}]
    first = local_client.chat(question, max_tokens=6)
    before = local_client.stats()["requests"]
    second = local_client.chat(question, max_tokens=6)
    assert second.cached and second.text == first.text
    assert local_client.stats()["requests"] == before


def test_parallel_calls(local_client) -> None:
    results: dict[int, str] = {}

    def ask(i: int) -> None:
        results[i] = local_client.chat(
            [{"role": "user", "content": f"Write the number {i} in digits only."}], max_tokens=4
        ).text

    threads = [threading.Thread(target=ask, args=(i,)) for i in (3, 7)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert "3" in results[3] and "7" in results[7]


def test_server_is_stopped_after_exit(tmp_path: Path) -> None:
    import urllib.request

    from bemula.llm.backends import open_llm

    with open_llm("local", use_cache=False, concurrency=1) as client:
        base_url = client.config.base_url
        assert base_url.startswith("http://127.0.0.1:")
    with pytest.raises(OSError):
        urllib.request.urlopen(base_url.removesuffix("/v1") + "/health", timeout=2)


def test_cli_check_local() -> None:
    """The README's command, as a user runs it."""
    env = {**os.environ, "BEMULA_MODELS_DIR": str(REAL_MODELS_DIR)}
    done = subprocess.run(
        [str(Path(sys.executable).with_name("bemula")), "llm", "check", "--backbone", "local", "--json"],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "paris" in report["answer"].lower()
