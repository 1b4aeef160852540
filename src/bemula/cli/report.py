"""``bemula score``, ``bemula report`` and ``bemula eval`` (the README's run command)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bemula.cli.app import app
from bemula.generate.editions import DEFAULT_EDITION
from bemula.metrics.bootstrap import DEFAULT_SEED, N_RESAMPLES

if TYPE_CHECKING:  # pragma: no cover
    from bemula.metrics.compute import RunScores
    from bemula.pipeline import EvalResult


def _fail(message: str) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


def _note(message: str) -> None:
    typer.secho(message, fg=typer.colors.YELLOW, err=True)


def _ensure_verdicts(run: Path, judge: str, data: Path | None) -> None:
    """The rule judge is deterministic and fast: score judges with it when its verdicts are missing."""
    from bemula.runfolder.folder import RunFolder
    from bemula.runfolder.names import verdicts_name

    if judge == "rules" and not (run / verdicts_name("rules")).exists():
        from bemula.judge.pipeline import describe_summary, judge_folder

        RunFolder.open(run, data=data)  # clear error if RUN is not a run folder
        _note(f"{run}: no rule verdicts yet; judging with the rule judge first")
        _note(describe_summary(*judge_folder(run, "rules", data=data)))


def print_table(scores: Sequence, *, title: str = "BEMULA", residues: dict[str, str] | None = None,
                full_table: str = "the report's report.md") -> None:
    """Systems × metrics with 95% intervals, to the terminal; ``residues`` (label -> text)
    adds the residue audit's column. A terminal too narrow for the intervals (about 180
    columns) gets the point estimates and a line saying where the full table is
    (``full_table``), instead of a table that wraps into unreadable rows; a log or a pipe
    gets the whole table."""
    from rich.console import Console
    from rich.table import Table

    from bemula.report.tables import cell_text, fmt, main_metrics, metric_labels

    def build(with_intervals: bool) -> Table:
        table = Table(title=title, show_lines=False)
        table.add_column("System", no_wrap=True)
        for m in main_metrics():
            table.add_column(metric_labels()[m], justify="right", no_wrap=True)
        if residues is not None:
            table.add_column("Residues", justify="right", no_wrap=True)
        for s in scores:
            extra = [residues.get(s.label, "–")] if residues is not None else []
            values = [s.get(m) for m in main_metrics()]
            cells = [cell_text(v) if with_intervals or v is None or v.value is None else fmt(v.value) for v in values]
            table.add_row(s.label, *cells, *extra)
        return table

    console = Console()
    table = build(with_intervals=True)
    natural = console.measure(table, options=console.options.update(max_width=100_000)).maximum
    if not console.is_terminal:  # a log or a pipe: the whole table, on its own width
        Console(width=max(natural, console.width)).print(table)
        return
    if natural <= console.width:
        console.print(table)
        return
    console.print(build(with_intervals=False))
    typer.echo(f"(point estimates: the 95% intervals need a wider terminal; they are in {full_table})")


def _print_run(scores, breakdowns: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    from bemula.metrics.definitions import PASS, SCORE, all_metrics
    from bemula.report.tables import cell_text

    console = Console(width=140)
    metrics = all_metrics()
    names = {m.name: m.name if m.kind == "item" else m.title for m in metrics}
    items = [m.name for m in metrics if m.kind == "item"]
    table = Table(title=f"{scores.label} — judge: {scores.judge}, {len(scores.instance_ids)} instances")
    for col, justify in (("Metric", "left"), ("Value [95% CI]", "right"), ("n", "right"), ("excluded", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for m in names:
        mv = scores.get(m)
        excluded = ", ".join(f"{k} {v}" for k, v in sorted(mv.excluded.items())) if mv else ""
        table.add_row(names[m], cell_text(mv), str(mv.n if mv else 0), excluded)
    for framed in (m.name for m in metrics if m.by_frame):
        for frame in scores.groups("frame"):
            mv = scores.get(framed, "frame", frame)
            excluded = ", ".join(f"{k} {v}" for k, v in sorted(mv.excluded.items())) if mv else ""
            table.add_row(f"  {framed} {frame}", cell_text(mv), str(mv.n if mv else 0), excluded)
    console.print(table)
    u = scores.unscored
    console.print(
        f"unscored verdicts: {u['total']}"
        + (f" ({', '.join(f'{k} {v}' for k, v in u['by_reason'].items())})" if u["by_reason"] else "")
        + f"; questions without a verdict: {u['missing']}"
    )
    gone = scores.unanswered
    if gone["instances"]:
        console.print(
            f"[yellow]unanswered: {len(gone['instances'])} instance(s) of this run have no answer at all "
            f"({gone['questions']} questions, not in any metric): {', '.join(gone['instances'][:8])}"
            f"{' …' if len(gone['instances']) > 8 else ''} — re-run the run command to finish them[/yellow]"
        )
    if breakdowns:
        by_type = [m for m in items if m not in ("RA", "PR")]  # both are asked with no request type
        for dim, columns in (("type", (*by_type, PASS)), ("tier", (*items, PASS, SCORE)), ("length", (*items, SCORE))):
            t = Table(title=f"by {dim}")
            t.add_column(dim)
            for m in columns:
                t.add_column(names[m], justify="right")
            for g in scores.groups(dim):
                label = g if dim != "length" else f"bin {g} ({scores.bins[int(g) - 1].label} turns)"
                t.add_row(label, *[cell_text(scores.get(m, dim, g)) for m in columns])
            console.print(t)


@app.command("score")
def score_command(
    run: Annotated[Path, typer.Argument(help="run folder (judged, or it is judged with the rules first)")],
    judge: Annotated[str, typer.Option(help="whose verdicts: rules | llm | cascade | any verdicts-<name>.jsonl")] = "rules",
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object (values 0–100)")] = False,
    items: Annotated[bool, typer.Option("--items", help="with --json: include every metric's per-item values")] = False,
    breakdowns: Annotated[bool, typer.Option("--breakdowns", help="also print per type, tier and length bin")] = False,
    data: Annotated[Path | None, typer.Option(help="dataset folder (default: the one in RUN/meta.json)")] = None,
    resamples: Annotated[int, typer.Option(help="bootstrap resamples")] = N_RESAMPLES,
    seed: Annotated[int, typer.Option(help="bootstrap seed")] = DEFAULT_SEED,
    versus: Annotated[Path | None, typer.Option("--versus", help="another run on the same data: paired differences RUN − VERSUS")] = None,
) -> None:
    """Metrics of one run with 95% cluster-bootstrap intervals (docs/metrics.md)."""
    from bemula.metrics.compute import paired_difference
    from bemula.metrics.definitions import metric_names
    from bemula.metrics.run import score_run
    from bemula.runfolder.folder import RunFolder, RunFolderError

    if resamples < 1:
        _fail(f"--resamples must be >= 1, got {resamples}")
    try:
        _ensure_verdicts(run, judge, data)
        scores = score_run(RunFolder.open(run, data=data), judge, n_resamples=resamples, seed=seed)
        other = None
        if versus is not None:
            _ensure_verdicts(versus, judge, data)
            other = score_run(RunFolder.open(versus, data=data), judge, n_resamples=resamples, seed=seed)
        diffs = {m: paired_difference(scores, other, m) for m in metric_names()} if other else {}
    except (RunFolderError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        out = scores.to_json(with_items=items)
        if other is not None:
            out["paired_difference"] = {"versus": other.label, **{m: d.as_json() for m, d in diffs.items()}}
        typer.echo(json.dumps(out, indent=1, ensure_ascii=False))
        return
    _print_run(scores, breakdowns)
    if other is not None:
        from bemula.report.tables import fmt

        typer.echo(f"paired differences {scores.label} − {other.label} (same resampled instances):")
        for m, d in diffs.items():
            typer.echo(f"  {m:>5}: {fmt(d.value)} [{fmt(d.ci_low)}, {fmt(d.ci_high)}]")


@app.command("report")
def report_command(
    runs: Annotated[list[Path], typer.Argument(help="run folders (one row each)")],
    out: Annotated[Path, typer.Option(help="report folder")] = Path("runs/report"),
    judge: Annotated[str, typer.Option(help="whose verdicts")] = "rules",
    data: Annotated[Path | None, typer.Option(help="dataset folder (default: each run's meta.json)")] = None,
    resamples: Annotated[int, typer.Option(help="bootstrap resamples")] = N_RESAMPLES,
    seed: Annotated[int, typer.Option(help="bootstrap seed")] = DEFAULT_SEED,
) -> None:
    """Tables (Markdown, CSV, LaTeX), plots and one self-contained HTML page for RUNS."""
    from bemula.report.build import write_report
    from bemula.runfolder.folder import RunFolderError

    try:
        for run in runs:
            _ensure_verdicts(run, judge, data)
        result = write_report(runs, out, judge=judge, data=data, n_resamples=resamples, seed=seed)
    except (RunFolderError, ValueError) as exc:
        _fail(str(exc))
        return
    print_table([r.scores for r in result.runs], title=f"BEMULA — judge: {judge}", full_table=str(out / "report.md"))
    typer.echo(f"report written to {out}/ (index.html, report.md, tables/, plots/, scores.json, items.csv)")


def _echo_probe_accuracy(scores: Sequence[RunScores]) -> None:
    """One line per run: control probes answered right, overall and per attack frame. FE, PR
    and AR count only questions whose probe was right, so a low frame here means that frame
    is mostly conditioned out of the metrics."""
    from bemula.metrics.probes import probe_accuracy

    typer.echo("Control probes answered right (only these questions count in FE/PR/AR):")
    for run in scores:
        table = probe_accuracy(run.rows)
        parts = [f"{a.group.removeprefix('frame ')} {a.rate:.0f}%" for a in table
                 if a.group == "all" or a.group.startswith("frame ")]
        typer.echo(f"  {run.label}: " + ", ".join(parts))


def _eval_json(result: EvalResult) -> dict[str, object]:
    """``bemula eval --json``: where things are, and per system its scores (as ``score --json``)."""
    return {
        "data": str(result.data), "out": str(result.out),
        "report": str(result.report_dir) if result.report_dir else None,
        "judge": result.judge, "backbone": result.backbone, "wall_s": round(result.wall_s, 2),
        "incomplete": result.incomplete, "notes": result.notes,
        "runs": [
            {"system": r.system, "run": str(r.run_dir), "error": r.error or None,
             "audit": r.audit.to_json() if r.audit else None,
             "scores": r.scores.to_json() if r.scores else None}
            for r in result.runs
        ],
    }


def _echo_baseline_check(by_system: dict[str, RunScores]) -> None:
    """One line: which systems score above both degenerate baselines (point estimates).
    Matching ``null`` on forgetting is free and matching ``forget-all`` means deleting far
    more than was asked, so a system at or below either is not forgetting selectively."""
    from bemula.metrics.definitions import SCORE
    from bemula.report.summary import BASELINES

    scores = {name: s.values.get(("", "", SCORE)) for name, s in by_system.items()}
    points = {n: v.value for n, v in scores.items() if v is not None and v.value is not None}
    bars = {n: points[n] for n in BASELINES if n in points}
    others = [n for n in points if n not in BASELINES]
    if not bars or not others:
        return
    floor = max(bars.values())
    verdicts = [f"{n} {'yes' if points[n] > floor else 'no'}" for n in others]
    typer.echo(f"Forgetting selectively (Score above {' and '.join(f'{n} {v:.1f}' for n, v in bars.items())}): "
               + "; ".join(verdicts))


@app.command("eval")
def eval_command(
    lite: Annotated[bool, typer.Option("--lite/--no-lite", help="BEMULA-Lite (the 31 short + medium instances)")] = False,
    systems: Annotated[str | None, typer.Option(help="comma-separated systems [default: every available built-in]")] = None,
    data: Annotated[Path | None, typer.Option(help="dataset folder (generated there if missing), or a bundled dataset's name (handwritten) [default: data/bemula; edition 1: data/bemula-e1]")] = None,
    edition: Annotated[int, typer.Option(help="when generating: 2 (phrase banks, personas) or 1 (edition 1 templates)")] = DEFAULT_EDITION,
    out: Annotated[Path | None, typer.Option(help="where run folders and the report go [default: runs/eval, runs/eval-lite, runs/eval-<bundled name>]")] = None,
    workers: Annotated[int, typer.Option(help="parallel worker processes per run")] = 1,
    seed: Annotated[int, typer.Option(help="generator seed (when generating) and system seed")] = 0,
    resamples: Annotated[int, typer.Option(help="bootstrap resamples")] = N_RESAMPLES,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bars")] = False,
    no_validate: Annotated[bool, typer.Option("--no-validate", help="run data with validation errors (integrity is still checked)")] = False,
    judge: Annotated[str, typer.Option(help="rules, or a judge a package registers (LLM judges run on the embedded model)")] = "rules",
    as_json: Annotated[bool, typer.Option("--json", help="print the results as one JSON object (no table)")] = False,
) -> None:
    """The whole chain, offline: generate the benchmark if missing, run the built-in systems
    with the retrieval-probe backbone, judge with the rules, score, print the table, write
    the report. (The library call is ``bemula.evaluate()``; docs/protocol.md.)"""
    from bemula.dataset import DatasetError, bundled_dataset
    from bemula.pipeline import EvaluateError, evaluate
    from bemula.runfolder.folder import RunFolderError

    bundled = None if data is None or data.exists() else bundled_dataset(str(data))
    if out is None:
        name = f"eval-{data}" if bundled else ("eval" if edition == DEFAULT_EDITION else f"eval-e{edition}")
        out = Path("runs") / (f"{name}-lite" if lite else name)
    chosen = [s.strip() for s in systems.split(",") if s.strip()] if systems else None
    try:
        result = evaluate(
            chosen, data=data, out=out, edition=edition, lite=lite, workers=workers, seed=seed,
            resamples=resamples, validate=not no_validate, progress=not quiet and not as_json, judge=judge,
            echo=_note if as_json else typer.echo, note=_note,
        )
    except (EvaluateError, DatasetError, RunFolderError, ValueError) as exc:
        _fail(str(exc))
        return
    report_dir = result.report_dir or out / "report"
    if as_json:
        typer.echo(json.dumps(_eval_json(result), indent=1, ensure_ascii=False))
        if result.incomplete:
            raise typer.Exit(3)
        return
    print_table(
        result.all_scores,
        title=f"{'bemula-' + str(bundled.name) if bundled else 'BEMULA'}{'-Lite' if lite else ''} — probe backbone, "
              + ("rule judge" if judge == "rules" else f"judge: {judge}"),
        residues={s.label: (f"{r.audit.values_with_residue}/{r.audit.values_protected}" if r.audit else "–")
                  for r in result.runs if (s := r.scores) is not None},
        full_table=str(report_dir / "report.md"),
    )
    typer.echo(
        "Retrieval-probe figures measure what each system's storage still gives away (an LLM-free "
        "upper bound on leakage); figures comparable with the paper need an LLM backbone. "
        "Residues: protected values still found in a store after the forget request (`bemula audit`)."
    )
    _echo_probe_accuracy(result.all_scores)
    _echo_baseline_check({r.system: s for r in result.runs if (s := r.scores) is not None})
    typer.echo(f"report: {report_dir / 'index.html'} (and report.md, tables/, plots/) — {result.wall_s:.1f} s in all")
    if result.incomplete:
        typer.secho(
            f"incomplete: {', '.join(result.incomplete)} (failed runs or questions); re-run the same command to retry",
            fg=typer.colors.YELLOW, err=True,
        )
        raise typer.Exit(3)
