"""The commands as a user types them: run, resume, audit, systems."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bemula.cli import _load_commands, app

_load_commands()
runner = CliRunner()


def test_run_resume_audit(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--system", "naive-rag", "--backbone", "probe", "--data", str(tiny_data), "--out", str(out), "-q"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "45 answered, 0 already done" in first.output
    assert "38 saved by the shared prefix (30%)" in first.output
    second = runner.invoke(app, args)
    assert "0 answered, 45 already done" in second.output
    audit = runner.invoke(app, ["audit", str(out)])
    assert audit.exit_code == 0, audit.output
    assert "6 of 8 protected values (75.0%) still sit in a store" in audit.output


def test_mismatched_resume_is_one_clear_line(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    base = ["run", "--data", str(tiny_data), "--out", str(out), "-q", "--limit", "1"]
    assert runner.invoke(app, [*base, "--system", "naive-rag"]).exit_code == 0
    result = runner.invoke(app, [*base, "--system", "full-context"])
    assert result.exit_code == 2
    assert "cannot resume" in result.output and "full-context" in result.output
    assert "Traceback" not in result.output


def test_bad_inputs_fail_with_one_line(tmp_path: Path) -> None:
    missing = ["run", "--system", "naive-rag", "--data", str(tmp_path / "none"), "--out", str(tmp_path / "o")]
    result = runner.invoke(app, missing)
    assert result.exit_code == 2 and "dataset folder not found" in result.output
    result = runner.invoke(app, ["run", "--system", "naive-rag", "-o", "top_k", "--data", str(tmp_path)])
    assert result.exit_code == 2 and "expected KEY=VALUE" in result.output
    result = runner.invoke(app, ["audit", str(tmp_path)])
    assert result.exit_code == 2 and "no meta.json" in result.output


def test_systems_lists_builtins_with_what_they_need() -> None:
    result = runner.invoke(app, ["systems", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in map(json.loads, result.output.splitlines())}
    assert rows["naive-rag"]["available"] is True and rows["naive-rag"]["needs"] == "nothing"
    assert rows["full-context"]["supports_fork"] is True
    table = runner.invoke(app, ["systems"])
    assert "naive-rag" in table.output and "full-context" in table.output
    # install hints keep their extra ("[amem]" is not eaten as console markup)
    for row in rows.values():
        if not row["available"] and "bemula[" in row["install"]:
            extra = row["install"].split("bemula[", 1)[1].split("]", 1)[0]
            assert f"bemula[{extra}]" in table.output


def test_version_flag() -> None:
    from bemula import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == __version__
