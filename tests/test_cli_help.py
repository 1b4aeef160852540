"""Every command's --help renders and reads as a person expects (issue 18): flags show no
value placeholder ("--lite <bool>" came with typer 0.28, so typer is pinned below it)."""

from __future__ import annotations

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
