"""An instance the run never answered (a crash before its first answer) is reported by
``score`` and the report, not silently left out of the metrics."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.metrics.run import score_run
from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import RunFolder

_load_commands()


def _run_missing_tiny_b(tiny: Path, out: Path) -> None:
    run_benchmark(RunConfig(data=tiny, out=out, system="naive-rag"), progress=False)
    answers = out / "answers.jsonl"
    kept = [line for line in answers.read_text().splitlines() if json.loads(line)["instance_id"] != "tiny-b"]
    answers.write_text("\n".join(kept) + "\n")


def test_score_reports_the_instance_with_no_answer(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run_missing_tiny_b(tiny, out)
    runner = CliRunner()
    assert runner.invoke(app, ["judge", str(out), "--judge", "rules", "-q"]).exit_code == 0
    scores = score_run(RunFolder.open(out), "rules", n_resamples=50)
    assert scores.instance_ids == ["tiny-a"]
    assert scores.unanswered == {"instances": ["tiny-b"], "questions": 21}
    result = runner.invoke(app, ["score", str(out), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["unanswered"] == {"instances": ["tiny-b"], "questions": 21}
    text = runner.invoke(app, ["score", str(out)]).output
    assert "unanswered: 1 instance(s)" in text and "tiny-b" in text
    report = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert report.exit_code == 0, report.output
    assert "Unanswered: 1 planned instance(s)" in (tmp_path / "rep" / "report.md").read_text()


def test_a_complete_run_reports_nothing_unanswered(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(RunConfig(data=tiny, out=out, system="naive-rag", instances=["tiny-a"]), progress=False)
    CliRunner().invoke(app, ["judge", str(out), "--judge", "rules", "-q"])
    assert score_run(RunFolder.open(out), "rules", n_resamples=50).unanswered == {"instances": [], "questions": 0}
