"""`bemula eval` end to end on the tiny dataset: run, judge, score, table, report."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.testing.tiny import write_tiny_dataset

_load_commands()


@pytest.mark.slow
def test_eval_runs_the_chain_and_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_tiny_dataset(data)
    out = tmp_path / "runs"
    args = ["eval", "--data", str(data), "--out", str(out), "--systems", "naive-rag,erasemem",
            "--resamples", "200", "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    for system in ("naive-rag", "erasemem"):
        assert (out / system / "answers.jsonl").is_file()
        assert (out / system / "verdicts-rules.jsonl").is_file()
        assert f"{system} (probe)" in result.output
    assert (out / "report" / "index.html").is_file()
    assert "report:" in result.output and "Score" in result.output
    # a second eval resumes: nothing is answered or judged again
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "0 answered now" in again.output and "(0 judged now" in again.output
