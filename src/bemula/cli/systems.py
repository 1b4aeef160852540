"""``bemula systems``: every registered memory system, available or not, and how to get it."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from bemula.cli.app import app


@app.command("systems")
def systems_command(
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per system")] = False,
) -> None:
    """List memory systems: name, available, version, what it needs, install hint."""
    from rich.console import Console
    from rich.table import Table

    from bemula.systems.base import registry

    infos = sorted(registry().values(), key=lambda i: i.name)
    rows = [
        {
            "name": i.name,
            "available": i.available,
            "version": i.version or ("built-in" if i.available and not i.install_hint else ""),
            "needs": i.needs,
            "supports_fork": bool(i.factory and i.factory.supports_fork),
            "install": i.install_hint,
            "description": i.description,
        }
        for i in infos
    ]
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row))
        return
    table = Table(title="memory systems")
    for column in ("name", "available", "version"):
        table.add_column(column, no_wrap=True)
    for column in ("needs", "install", "description"):
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(
            row["name"], "yes" if row["available"] else "no", row["version"], row["needs"],
            row["install"], row["description"],
        )
    Console().print(table)
