"""``bemula sweep``: a grid of runs from one file, resumable, with one report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from bemula.cli.app import app
from bemula.cli.report import print_table

EXIT_INTERRUPTED = 130


def _fail(message: str, code: int = 2) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


@app.command("sweep")
def sweep_command(
    config_file: Annotated[Path, typer.Argument(metavar="CONFIG", help="sweep file (.toml, .yaml): systems, backbones, datasets, …")],
    no_report: Annotated[bool, typer.Option("--no-report", help="run, judge and audit the cells; write no report")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print what each cell did as one JSON object")] = False,
) -> None:
    """Run systems × backbones × datasets (one run folder per cell, a shared LLM cache),
    then one report with every cell and the paired differences between systems. Re-running
    the same command resumes the sweep. (docs/sweeps.md)"""
    from bemula.sweep import SweepError, load_sweep, run_sweep

    try:
        config = load_sweep(config_file)
    except SweepError as exc:
        _fail(str(exc))
        return
    echo = (lambda line: typer.secho(line, err=True)) if as_json else typer.echo
    try:
        result = run_sweep(config, echo=echo, report=not no_report)
    except KeyboardInterrupt:
        _fail(f"interrupted; finished answers are kept in each cell's folder — re-run `bemula sweep {config_file}` "
              "to resume", EXIT_INTERRUPTED)
        return
    except (SweepError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps(json.loads((config.out / "sweep.json").read_text()), indent=1, ensure_ascii=False))
    else:
        if result.scores:
            print_table(result.scores, title=f"BEMULA sweep — judge: {config.judge}",
                        full_table=str((result.report_dir or config.out) / "report.md"))
        from bemula.metrics.definitions import SCORE

        for best, other, diff in result.differences:
            if diff.metric == SCORE and diff.value is not None and diff.ci_low is not None and diff.ci_high is not None:
                typer.echo(f"  {best} − {other}: Score {diff.value:+.1f} [{diff.ci_low:+.1f}, {diff.ci_high:+.1f}] (paired)")
        if result.report_dir:
            typer.echo(f"report: {result.report_dir / 'index.html'} — {result.wall_s:.1f} s in all")
    if result.failed:
        typer.secho(f"not finished: {', '.join(o.cell.name for o in result.failed)}; re-run the same command to retry",
                    fg=typer.colors.YELLOW, err=True)
        raise typer.Exit(3)
