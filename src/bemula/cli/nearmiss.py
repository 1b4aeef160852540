"""``bemula near-miss``: a thin wrapper over ``bemula.nearmiss`` (precision of forgetting)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from bemula.cli.app import app


@app.command("near-miss")
def near_miss_command(
    systems: Annotated[str, typer.Option(help="comma-separated systems to run")] = "erasemem,naive-rag,forget-all",
    split: Annotated[str, typer.Option(help="shipped cases: dev (develop a system here) | held-out (measure it)")] = "dev",
    cases_path: Annotated[Path | None, typer.Option("--cases", help="a case file of your own (TOML, docs/near-miss.md)")] = None,
    show: Annotated[int, typer.Option(help="failing cases to print per system")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per system")] = False,
) -> None:
    """Does a memory remove exactly what was asked? Hand-written near-miss cases (a target
    beside a similar fact that must stay), each replayed with and without its request,
    answered by the retrieval probe and judged by the rule judge."""
    from bemula.nearmiss import NearMissError, load_cases, run_suite, shipped_cases
    from bemula.systems.base import SystemUnavailable

    try:
        cases = load_cases(cases_path) if cases_path is not None else shipped_cases(split)
    except NearMissError as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from None
    for name in [s.strip() for s in systems.split(",") if s.strip()]:
        try:
            outcome = run_suite(name, cases)
        except (KeyError, SystemUnavailable) as exc:
            typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
        figures = outcome.figures()
        if as_json:
            typer.echo(json.dumps(figures))
            continue
        rate = "n/a" if figures["pass_rate"] is None else f"{figures['pass_rate']:.1f}%"
        typer.echo(f"{name}: {figures['passed']}/{figures['measured']} measured cases pass ({rate}); "
                   f"{figures['over_deleted']} lost a kept fact, {figures['leaked']} kept a removed value; "
                   f"{figures['cases'] - figures['measured']} of {figures['cases']} unmeasured")
        for kind, row in figures["by_kind"].items():
            kind_rate = "n/a" if row["pass_rate"] is None else f"{row['pass_rate']:.1f}%"
            typer.echo(f"  {kind:17s} {row['passed']:3d}/{row['measured']:<3d} {kind_rate}")
        for case in [c for c in outcome.cases if c.measured and not c.passed][:show]:
            typer.echo(f"  FAIL {case.case_id}")
            for q in case.questions:
                mark = "ok " if q.correct else "BAD"
                typer.echo(f"    {mark} {q.gold:8s} {q.ask} -> {q.answer[:100]!r}")
