"""``bemula validate DIR``: check a dataset folder, print every violation, exit 1 if any."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from bemula.cli.app import app


@app.command()
def validate(
    directory: Path = typer.Argument(..., help="dataset folder (holds manifest.json), or a bundled dataset's name (handwritten)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object instead of lines"),
    max_errors: int | None = typer.Option(
        None, "--max-errors", min=1, help="stop after this many violations (default: report all)"
    ),
    strict: bool = typer.Option(False, "--strict", help="fail on warnings (wording heuristics) too"),
) -> None:
    """Check every invariant of a dataset folder; exit status 1 on any error (with --strict: on
    any warning too). Errors make scoring wrong or a run unsafe; warnings are wording heuristics."""
    from bemula.dataset import resolve_data
    from bemula.validate import validate_dataset

    directory = resolve_data(directory)
    started = time.perf_counter()
    report = validate_dataset(directory, max_errors=max_errors, strict=strict)
    ok = print_report(directory, report, time.perf_counter() - started, as_json=as_json, max_errors=max_errors)
    raise typer.Exit(code=0 if ok else 1)


def print_report(directory: Path, report, elapsed: float, *, as_json: bool = False,
                 max_errors: int | None = None) -> bool:
    """Print a validation report (lines or JSON); True when it passes."""
    if as_json:
        out = report.to_json()
        out["seconds"] = round(elapsed, 3)
        typer.echo(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        for v in report.violations:
            typer.echo(str(v))
        stopped = f" (stopped after {max_errors})" if report.truncated else ""
        counts = f"{len(report.errors)} error(s), {len(report.warnings)} warning(s){stopped}"
        verdict = ("OK" if not report.violations else f"OK with {counts}") if report.ok else counts
        typer.echo(
            f"{directory}: {verdict} — {report.instances} instances, {report.turns_per_version} turns "
            f"per version, {report.questions} questions checked in {elapsed:.1f} s"
        )
    return report.ok
