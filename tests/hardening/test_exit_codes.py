"""What a script sees: exit 0 only when every question was answered; 2 when refused
(fatal 401/403 included); 3 when the run finished with failures that a re-run retries."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.runfolder.folder import read_answers
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder

_load_commands()
KEY = "sk-live-abcdefghijklmnopqrstuvwxyz012345"


def _args(data: Path, out: Path, server: FakeOpenAIServer, *extra: str) -> list[str]:
    return [
        "run", "--system", "naive-rag", "--backbone", "openai", "--model", "fake-model",
        "--base-url", server.base_url, "--data", str(data), "--out", str(out), "--instances", "tiny-a",
        "--llm-cache", str(out.parent / "cache.sqlite"), "-q", *extra,
    ]


def test_failed_questions_exit_3_and_a_clean_rerun_exits_0(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    with FakeOpenAIServer(ScriptedResponder([Fault("http500")] * 3, then="Biscuit.")) as server:
        first = CliRunner().invoke(app, _args(tiny, out, server, "--retries", "0", "--timeout", "5"))
    assert first.exit_code == 3, first.output
    assert "3 question(s) failed" in first.output
    with FakeOpenAIServer(ScriptedResponder([], then="Biscuit.")) as server:
        second = CliRunner().invoke(app, _args(tiny, out, server, "--retries", "0"))
    assert second.exit_code == 0, second.output
    assert not any(r.error for r in read_answers(out / "answers.jsonl").values())


def test_retries_option_reaches_the_client(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    # two 500s then answers: with --retries 2 no question fails
    with FakeOpenAIServer(ScriptedResponder([Fault("http500")] * 2, then="Biscuit.")) as server:
        result = CliRunner().invoke(app, _args(tiny, out, server, "--retries", "2"))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("status", [401, 403])
def test_auth_failure_stops_the_run_at_once(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, status: int) -> None:
    monkeypatch.setenv("BEMULA_API_KEY", KEY)
    out = tmp_path / "run"
    with FakeOpenAIServer(lambda path, body: Fault("http", status=status, message=f"bad key {KEY[4:30]}")) as server:
        with pytest.raises(RunError) as info:
            run_benchmark(
                RunConfig(data=tiny, out=out, system="naive-rag", backbone="openai", model="fake-model",
                          base_url=server.base_url, llm_cache=tmp_path / "c.sqlite", instances=["tiny-a"]),
                progress=False,
            )
        assert len(server.chat_requests()) == 1  # not retried, not asked once per question
    message = str(info.value)
    assert f"HTTP {status}" in message and "BEMULA_API_KEY" in message
    assert all(KEY[i:i + 8] not in message for i in range(len(KEY) - 7))
    assert not read_answers(out / "answers.jsonl")


def test_eval_with_an_unknown_system_is_refused(tmp_path: Path, tiny: Path) -> None:
    result = CliRunner().invoke(app, ["eval", "--systems", "naive-rag,bogus", "--data", str(tiny), "--out", str(tmp_path / "e"), "-q"])
    assert result.exit_code == 2 and "bogus" in result.output
    assert not (tmp_path / "e").exists()
