"""The ``bemula`` command line. Thin: each area registers its commands on ``app`` from its
own module (``data``, ``llm``, ``run``, ``judge``); each command parses, calls the library,
prints."""

from __future__ import annotations

import importlib

from bemula.cli.app import app

COMMAND_MODULES = ("data", "validate", "llm", "run", "judge", "report", "systems", "nearmiss", "sweep", "estimate")


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(f"bemula.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bemula.cli.{name}":
                raise


def main() -> None:
    _load_commands()
    app()


__all__ = ["app", "main"]
