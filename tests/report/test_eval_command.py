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
    # the residue audit beside the metrics: tiny-a and tiny-b protect 8 values (penicillin;
    # coffee, flat white; the F4 conclusion's 2 forms; type 2 diabetes, diabetes, metformin).
    # naive-rag keeps the 6 ever stated (the conclusion never was); erasemem keeps the 2 of
    # tiny-a's F6 whose unnamed form "flat white" survives its restatement (a known limit)
    assert "Residues" in result.output
    assert "2/8" in result.output and "6/8" in result.output
    report_md = (out / "report" / "report.md").read_text(encoding="utf-8")
    assert "Residue audit" in report_md and "erasemem (probe): 2 of 8 values" in report_md
    page = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert "erasemem (probe): 4 receipt(s)" in page  # one per request of tiny-a, tiny-b
    # a second eval resumes: nothing is answered or judged again
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "0 answered now" in again.output and "(0 judged now" in again.output


def test_default_systems_use_the_registry_names() -> None:
    """Every registered system is either run or named in a note, by its registry name
    ("a-mem", whose module is adapters/amem.py, was once reported as "amem")."""
    from bemula.pipeline import default_systems
    from bemula.systems.base import registry

    runnable, notes = default_systems()
    assert runnable[:3] == ["full-context", "naive-rag", "erasemem"]
    named = runnable + [note.split(":", 1)[0] for note in notes]
    assert sorted(named) == sorted(registry())


def test_eval_names_the_systems_it_does_not_run_in_one_line(tmp_path: Path) -> None:
    from bemula.pipeline import default_systems

    data = tmp_path / "data"
    write_tiny_dataset(data)
    _, notes = default_systems()
    result = CliRunner().invoke(app, ["eval", "--data", str(data), "--out", str(tmp_path / "runs"),
                                      "--systems", "naive-rag", "--resamples", "50", "-q"])
    assert result.exit_code == 0, result.output
    assert "skipped" not in result.output  # --systems given: nothing to say about the others
    if notes:
        result = CliRunner().invoke(app, ["eval", "--data", str(data), "--out", str(tmp_path / "runs2"),
                                          "--resamples", "50", "-q"])
        lines = [line for line in result.output.splitlines() if line.startswith("not run here")]
        assert len(lines) == 1 and all(note.split(":", 1)[0] in lines[0] for note in notes)


@pytest.mark.parametrize("columns, intervals", [(100, False), (240, True)])
def test_the_results_table_fits_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             columns: int, intervals: bool) -> None:
    """A terminal narrower than the table gets point estimates and where the intervals are;
    a wide one (or a log, see test_eval_runs_the_chain_and_resumes) gets the intervals."""
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich: treat the captured output as a terminal
    monkeypatch.setenv("COLUMNS", str(columns))
    data = tmp_path / "data"
    write_tiny_dataset(data)
    result = CliRunner().invoke(app, ["eval", "--data", str(data), "--out", str(tmp_path / "runs"),
                                      "--systems", "naive-rag", "--resamples", "50", "-q"])
    assert result.exit_code == 0, result.output
    import re

    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.output)  # colour codes out
    table_lines = [line for line in plain.splitlines() if "naive-rag (probe)" in line and "│" in line]
    assert table_lines and all(len(line) <= columns for line in table_lines)
    assert ("[" in table_lines[0]) == intervals
    assert ("intervals need a wider terminal" in plain) != intervals
