from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.testing.fake_server import FakeOpenAIServer

_load_commands()
runner = CliRunner()


def test_check_against_an_endpoint_prints_answer() -> None:
    with FakeOpenAIServer() as server:
        result = runner.invoke(app, ["llm", "check", "--backbone", "openai", "--model", "m",
                                     "--base-url", server.base_url, "--prompt", "ping pong", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["answer"] == "echo: ping pong"
    assert report["prompt_tokens"] == 2 and report["completion_tokens"] == 3


def test_check_unreachable_is_one_line_and_exit_1() -> None:
    with FakeOpenAIServer() as server:
        url = server.base_url
    result = runner.invoke(app, ["llm", "check", "--backbone", "openai", "--model", "m",
                                 "--base-url", url, "--retries", "0"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach LLM endpoint")
    assert "Traceback" not in result.output


def test_check_without_endpoint_says_what_to_set() -> None:
    result = runner.invoke(app, ["llm", "check", "--backbone", "openai"])
    assert result.exit_code == 1
    assert "BEMULA_BASE_URL" in result.output


def test_cache_stats_and_clear(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    empty = runner.invoke(app, ["llm", "cache-stats", "--path", str(path)])
    assert empty.exit_code == 0 and "nothing cached yet" in empty.output
    from bemula.llm.cache import RequestCache

    cache = RequestCache(path)
    cache.put("k1", model="m", endpoint="e", request={}, response={"text": "a"}, latency_s=0.1)
    cache.put("k2", model="m", endpoint="e", request={}, response={"text": "b"}, latency_s=0.1)
    cache.get("k1")
    cache.close()
    stats = runner.invoke(app, ["llm", "cache-stats", "--path", str(path), "--json"])
    assert stats.exit_code == 0
    summary = json.loads(stats.stdout)
    assert summary["rows"] == 2 and summary["hits"] == 1
    assert summary["by_model"] == [{"model": "m", "endpoint": "e", "rows": 2, "hits": 1}]
    cleared = runner.invoke(app, ["llm", "cache-clear", "--path", str(path)])
    assert cleared.exit_code == 0 and "removed 2" in cleared.output
