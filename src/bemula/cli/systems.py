"""``bemula systems``: every registered memory system, available or not, and how to get it."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from bemula.cli.app import app


@app.command("systems")
def systems_command(
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per system")] = False,
) -> None:
    """List memory systems: name, available, version, what it needs, install hint, options."""
    from rich.console import Console
    from rich.padding import Padding
    from rich.text import Text

    from bemula.systems.base import registry

    infos = sorted(registry().values(), key=lambda i: i.name)
    rows: list[dict[str, Any]] = [
        {
            "name": i.name,
            "available": i.available,
            "version": i.version or ("built-in" if i.available and not i.install_hint else ""),
            "needs": i.needs,
            "supports_fork": bool(i.factory and i.factory.supports_fork),
            "install": i.install_hint,
            "description": i.description,
            "options": {
                key: {"default": field.default, "description": field.description or ""}
                for key, field in i.options.model_fields.items()
            },
            "source": i.source,
        }
        for i in infos
    ]
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row))
        return
    # one block per system, not a table: descriptions and install hints are long, and a
    # six-column table breaks words at 80 columns. Text (not markup) keeps "bemula[amem]".
    console = Console()
    for row in rows:
        head = Text()
        head.append(row["name"], style="bold")
        head.append("  " + ("available" if row["available"] else "not installed"),
                    style="green" if row["available"] else "yellow")
        if row["version"]:
            head.append(f"  {row['version']}")
        head.append(f"  needs: {row['needs'] or 'nothing'}")
        console.print(head)
        if row["install"] and not row["available"]:
            console.print(Padding(Text(f"install: {row['install']}"), (0, 0, 0, 2)))
        if row["source"] != "bemula":
            console.print(Padding(Text(f"from: {row['source']} (entry point)"), (0, 0, 0, 2)))
        if row["options"]:
            options = ", ".join(f"{k}={v['default']}" for k, v in row["options"].items())
            console.print(Padding(Text(f"options (-o KEY=VALUE): {options}"), (0, 0, 0, 2)))
        console.print(Padding(Text(row["description"], style="dim"), (0, 0, 0, 2)))
