"""Every command's --help renders and reads as a person expects (issue 18): flags show no
value placeholder ("--lite <bool>" came with typer 0.28, so typer is pinned below it)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app

_load_commands()


def _commands() -> list[str]:
    import typer.main

    group = typer.main.get_command(app)
    return sorted(group.commands)  # type: ignore[attr-defined]


def test_there_are_commands() -> None:
    assert {"eval", "run", "judge", "score", "near-miss", "systems"} <= set(_commands())


@pytest.mark.parametrize("command", _commands())
def test_help_renders_without_placeholders_on_flags(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output
    assert "<bool>" not in result.output
    assert "SPEC" not in result.output  # the SPEC does not ship with the package: cite docs/ instead


def _options(command: str) -> dict[str, Any]:
    """Option name -> the click parameter, for one command."""
    import typer.main

    group = typer.main.get_command(app)
    params = group.commands[command].params  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for p in params:
        for name in [*p.opts, *getattr(p, "secondary_opts", [])]:
            out[name] = p
    return out


def test_one_option_vocabulary() -> None:
    """The same word means the same thing in every command (issue 18 item 4)."""
    commands = _commands()
    for command in commands:
        opts = _options(command)
        if "--limit" in opts:  # a count of instances, in run and generate alike
            assert opts["--limit"].type.name in ("integer", "int", "int range"), command
        if "--instances" in opts:  # ids, never a count
            assert opts["--instances"].type.name in ("text", "str"), command
        if "--lite" in opts:  # a flag that can be turned off too
            assert "--no-lite" in opts, command
        if "--quiet" in opts:
            assert "-q" in opts, command
    # commands that print progress take -q; commands that print a result take --json
    for command in ("run", "judge", "eval"):
        assert "-q" in _options(command), command
    for command in ("run", "judge", "audit", "eval", "score", "stats", "validate", "systems", "near-miss"):
        assert "--json" in _options(command), command


def test_json_output_is_one_json_object(tmp_path) -> None:
    import json

    runner = CliRunner()
    out = tmp_path / "run"
    args = ["run", "-s", "naive-rag", "--data", "handwritten", "--out", str(out), "--instances", "hw-01", "--json"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["questions_answered"] > 0
    judged = runner.invoke(app, ["judge", str(out), "--json"])
    assert json.loads(judged.stdout)["judged_now"] == json.loads(done.stdout)["questions_answered"]
    audited = runner.invoke(app, ["audit", str(out), "--json"])
    assert json.loads(audited.stdout)["system"] == "naive-rag"
