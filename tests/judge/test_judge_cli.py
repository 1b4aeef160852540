"""`bemula judge` (rules, llm, cascade against a scripted endpoint) and `bemula judge-agreement`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.runfolder.folder import RunFolder
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder
from bemula.testing.samples import write_sample_runs

_load_commands()


def always_correct(path: str, body: dict) -> str:
    return '{"correct": true, "leaked": false, "reason": "looks fine"}'


def test_llm_judge_cli_retries_failed_calls_and_reports_agreement(tmp_path: Path) -> None:
    _, hand, _ = write_sample_runs(tmp_path)
    cache = tmp_path / "cache.sqlite"
    base = ["judge", str(hand), "--judge", "llm", "--backbone", "openai", "--model", "fake-judge",
            "--llm-cache", str(cache), "-q"]
    # every call fails: everything is unscored, nothing is right or wrong
    with FakeOpenAIServer(ScriptedResponder([], then=Fault("http", status=400, message="bad"))) as server:
        result = CliRunner().invoke(app, [*base, "--base-url", server.base_url])
    assert result.exit_code == 0, result.output
    assert "0 correct, 0 wrong, 45 unscored" in result.output
    # on resume the failed calls are retried; the backbone-error answer stays unscored
    with FakeOpenAIServer(always_correct) as server:
        result = CliRunner().invoke(app, [*base, "--base-url", server.base_url])
        assert len(server.chat_requests()) == 44
    assert result.exit_code == 0, result.output
    assert "(44 judged now, 1 kept): 44 correct, 0 wrong, 1 unscored" in result.output
    verdict = RunFolder.open(hand).verdicts("llm")[("tiny-a", "Q05")]
    assert verdict.judge_model == "fake-judge" and len(verdict.prompt_hash) == 16

    CliRunner().invoke(app, ["judge", str(hand), "-q"])
    agreement = CliRunner().invoke(app, ["judge-agreement", str(hand), "rules", "llm"])
    assert agreement.exit_code == 0, agreement.output
    # rules: 32 correct + 12 wrong; the always-correct judge agrees on the 32 → 32/44, kappa 0
    assert "agreement 72.7% (32/44)" in agreement.output and "Cohen's kappa 0.000" in agreement.output
    assert "12 disagreements" in agreement.output and "tiny-a/Q05" in agreement.output
    as_json = json.loads(CliRunner().invoke(app, ["judge-agreement", str(hand), "rules", "llm", "--json"]).stdout)
    assert as_json["n"] == 44 and len(as_json["disagreements"]) == 12


def test_cascade_cli_and_unknown_judge(tmp_path: Path) -> None:
    _, hand, _ = write_sample_runs(tmp_path)
    with FakeOpenAIServer(always_correct) as server:
        result = CliRunner().invoke(app, ["judge", str(hand), "--judge", "cascade", "--backbone", "openai",
                                          "--model", "m", "--base-url", server.base_url,
                                          "--llm-cache", str(tmp_path / "c.sqlite"), "-q"])
        llm_calls = len(server.chat_requests())
    assert result.exit_code == 0, result.output
    assert f"by the LLM {llm_calls}" in result.output and 0 < llm_calls < 44
    bad = CliRunner().invoke(app, ["judge", str(hand), "--judge", "oracle"])
    assert bad.exit_code == 2 and "--judge 'oracle'" in bad.output
