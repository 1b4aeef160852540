"""``bemula estimate``: what a planned run or sweep will cost, before anything is spent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from bemula.cli.app import app


def _fail(message: str) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


def _millions(value: float) -> str:
    return f"{value / 1e6:,.2f} M" if value >= 10_000 else f"{value:,.0f}"


@app.command("estimate")
def estimate_command(
    system: Annotated[list[str] | None, typer.Option("--system", "-s", help="system to estimate (repeatable) [default: every system with a cost profile]")] = None,
    backbone: Annotated[str, typer.Option(help="the backbone that will answer: openai | local | probe")] = "openai",
    model: Annotated[str | None, typer.Option(help="model name (looked up in the price table)")] = None,
    context_window: Annotated[int | None, typer.Option(help="backbone context window in tokens (caps full-context's prompts)")] = None,
    data: Annotated[Path, typer.Option(help="dataset folder (generated there if missing), or a bundled dataset's name")] = Path("data/bemula"),
    lite: Annotated[bool, typer.Option("--lite/--no-lite", help="only the BEMULA-Lite instances")] = False,
    limit: Annotated[int | None, typer.Option(help="only the first N selected instances")] = None,
    sweep: Annotated[Path | None, typer.Option(help="estimate a sweep file instead (its systems, backbones, datasets)")] = None,
    prices: Annotated[Path | None, typer.Option(help='price table (TOML): [prices."<model>"] input = $/M tokens, output = $/M tokens')] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the estimates as one JSON object")] = False,
) -> None:
    """LLM calls, prompt and completion tokens (and money, with --prices) per system and
    backbone, from each system's measured cost profile and the dataset's own turns and
    questions. The method is printed with the table (docs/scale.md)."""
    from rich.console import Console
    from rich.table import Table

    from bemula.dataset import DatasetError
    from bemula.pipeline import EvaluateError, prepare_data
    from bemula.run.estimate import METHOD, EstimateError, cost_profiles, estimate_grid, load_prices
    from bemula.sweep import SweepError, load_sweep

    try:
        price_table = load_prices(prices) if prices is not None else None
        estimates = []
        if sweep is not None:
            config = load_sweep(sweep)
            backbones = [(b, s.model, s.context_window) for b in config.backbones
                         for s in [config.backbone.get(b) or _no_settings()]]
            for dataset in config.datasets:
                folder, _, _ = prepare_data(dataset, lite=config.lite, seed=config.seed,
                                            echo=lambda line: typer.secho(line, err=True))
                estimates += estimate_grid(config.systems, backbones, folder, lite=config.lite,
                                           limit=config.limit, prices=price_table)
        else:
            systems = system or sorted(cost_profiles())
            folder, _, _ = prepare_data(data, lite=lite, echo=lambda line: typer.secho(line, err=True))
            estimates = estimate_grid(systems, [(backbone, model, context_window)], folder,
                                      lite=lite, limit=limit, prices=price_table)
    except (EstimateError, SweepError, DatasetError, EvaluateError, KeyError, ValueError) as exc:
        _fail(str(exc).strip("'\""))
        return
    if as_json:
        typer.echo(json.dumps({"method": METHOD, "estimates": [e.as_json() for e in estimates]}, indent=1))
        return
    table = Table(title="bemula estimate — before anything is spent")
    for column in ("system", "backbone", "inst.", "turns", "questions", "LLM calls",
                   "prompt tok.", "compl. tok.", *(["$"] if price_table is not None else [])):
        table.add_column(column, justify="left" if column in ("system", "backbone") else "right", no_wrap=True)
    for e in estimates:
        total = e.total
        money = [("–" if e.dollars is None else f"{e.dollars:,.2f}")] if price_table is not None else []
        unknown = " + ?" if e.profile is None else ""  # the system's own calls are not known
        table.add_row(e.system, e.backbone + (f":{e.model}" if e.model else ""), str(e.instances),
                      f"{e.turns_ingested:,}", f"{e.questions:,}", f"{total.calls:,.0f}{unknown}",
                      "?" if e.profile is None else _millions(total.prompt_tokens),
                      _millions(total.completion_tokens) + unknown, *money)
    console = Console()
    natural = console.measure(table, options=console.options.update(max_width=100_000)).maximum
    (console if console.is_terminal else Console(width=max(natural, console.width))).print(table)
    notes = sorted({note for e in estimates for note in e.notes})
    for note in notes:
        typer.echo(f"  note: {note}")
    typer.echo(METHOD)
    if price_table is None:
        typer.echo("No money column: pass --prices FILE (docs/scale.md shows the format).")


def _no_settings():  # noqa: ANN202 - the sweep's empty backbone settings
    from bemula.sweep import BackboneSettings

    return BackboneSettings()
