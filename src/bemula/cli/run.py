"""``bemula run`` and ``bemula audit``: thin wrappers over ``bemula.run`` and ``bemula.audit``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bemula.cli.app import app

#: exit codes of ``bemula run`` (docs/robustness.md): 0 every question answered; 2 refused
#: (bad input, busy folder, unreachable or refused endpoint); 3 finished, but some questions
#: or instances failed and were recorded -- re-run the same command to retry them; 130
#: interrupted (Ctrl-C), finished answers kept -- re-run the same command to resume.
EXIT_REFUSED = 2
EXIT_INCOMPLETE = 3
EXIT_INTERRUPTED = 130  # the shell's code for Ctrl-C


def _fail(message: str, code: int = EXIT_REFUSED) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


def llm_options(timeout: float | None, retries: int | None) -> dict[str, object]:
    """``--timeout``/``--retries`` as LLM client settings (only those given)."""
    options: dict[str, object] = {}
    if timeout is not None:
        if timeout <= 0:
            _fail(f"--timeout must be > 0 seconds, got {timeout}")
        options["timeout_s"] = float(timeout)
    if retries is not None:
        if retries < 0:
            _fail(f"--retries must be >= 0, got {retries}")
        options["max_retries"] = int(retries)
    return options


def _parse_options(values: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            _fail(f"--option {item!r}: expected KEY=VALUE")
        value: object = raw
        for cast in (int, float):
            try:
                value = cast(raw)
                break
            except ValueError:
                continue
        options[key.strip()] = value
    return options


@app.command("run")
def run_command(
    system: Annotated[str, typer.Option("--system", "-s", help="memory system (see `bemula systems`)")],
    backbone: Annotated[
        str, typer.Option(help="probe (no LLM) | local (embedded model) | openai (any OpenAI-compatible endpoint)")
    ] = "probe",
    data: Annotated[Path, typer.Option(help="dataset folder, or a bundled dataset's name (handwritten)")] = Path("data/bemula"),
    out: Annotated[Path | None, typer.Option(help="run folder [default: runs/<system>-<backbone>]")] = None,
    lite: Annotated[bool, typer.Option("--lite/--no-lite", help="only the BEMULA-Lite instances")] = False,
    instances: Annotated[str | None, typer.Option(help="comma-separated instance ids")] = None,
    limit: Annotated[int | None, typer.Option(help="only the first N selected instances")] = None,
    workers: Annotated[int, typer.Option(help="parallel worker processes (over instances); with --executor ray, the local Ray's CPUs")] = 1,
    executor: Annotated[str, typer.Option(help="local (processes on this machine) | ray (one Ray task per instance; pip install 'bemula[ray]')")] = "local",
    ray_address: Annotated[str | None, typer.Option(help="Ray cluster to join (with --executor ray) [default: start a local Ray]")] = None,
    ray_retries: Annotated[int, typer.Option(help="times a task is sent again after its Ray worker died (for its unanswered questions)")] = 3,
    concurrency: Annotated[int, typer.Option(help="LLM backbone calls in flight at once per worker (an endpoint's parallel slots)")] = 1,
    seed: Annotated[int, typer.Option(help="seed given to the system")] = 0,
    model: Annotated[str | None, typer.Option(help="LLM model name (LLM backbones)")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL (LLM backbones)")] = None,
    context_window: Annotated[
        int | None, typer.Option(help="backbone context window in tokens (full-context truncation)")
    ] = None,
    index: Annotated[str, typer.Option(help="text index every system uses: bm25 | dense")] = "bm25",
    llm_cache: Annotated[Path | None, typer.Option(help="LLM request cache file (default: the LLM layer's)")] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="system option KEY=VALUE (repeatable), e.g. top_k=5")
    ] = None,
    timeout: Annotated[float | None, typer.Option(help="seconds per LLM call before it is retried [default: 120, local 600]")] = None,
    retries: Annotated[int | None, typer.Option(help="retries per LLM call after the first attempt [default: 5]")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    no_validate: Annotated[bool, typer.Option("--no-validate", help="run data with validation errors (integrity is still checked)")] = False,
    redo: Annotated[bool, typer.Option("--redo", help="answer every selected question again (after changing the system's code)")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print what the run did as one JSON object")] = False,
) -> None:
    """Run a memory system on the benchmark: ingest each version turn by turn, answer its
    questions, append to RUN/answers.jsonl. Re-running the same command resumes."""
    from bemula.dataset import DatasetError, resolve_data
    from bemula.run.runner import RunConfig, RunError, RunIncomplete, RunInterrupted, run_benchmark
    from bemula.runfolder.folder import RunFolderError
    from bemula.runfolder.meta import MetaError, RunFolderMismatch

    config = RunConfig(
        data=resolve_data(data),
        out=out or Path("runs") / f"{system}-{backbone}",
        system=system,
        backbone=backbone,
        lite=lite,
        instances=[i.strip() for i in instances.split(",") if i.strip()] if instances else None,
        limit=limit,
        workers=workers,
        executor=executor,
        ray_address=ray_address,
        ray_retries=ray_retries,
        concurrency=concurrency,
        seed=seed,
        model=model,
        base_url=base_url,
        index=index,
        context_window=context_window,
        llm_cache=llm_cache,
        system_options=_parse_options(option or []),
        llm_options=llm_options(timeout, retries),
        validate=not no_validate,
        redo=redo,
    )
    try:
        summary = run_benchmark(config, progress=not quiet and not as_json, note=lambda line: typer.secho(
            f"note: {line}", fg=typer.colors.YELLOW, err=True))
    except RunIncomplete as exc:
        _fail(str(exc), EXIT_INCOMPLETE)
        return
    except RunInterrupted as exc:
        _fail(str(exc), EXIT_INTERRUPTED)
        return
    except (RunError, RunFolderMismatch, MetaError, DatasetError, RunFolderError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        import json

        typer.echo(json.dumps(summary.to_json(), indent=1))
    else:
        typer.echo(
            f"{config.out}: {summary.questions_answered} answered, {summary.questions_skipped} already done, "
            f"{summary.errors} backbone errors; {summary.instances} instances "
            f"({summary.instances_skipped} already complete); {summary.turns_ingested} turns ingested, "
            f"{summary.turns_saved_by_fork} saved by the shared prefix ({summary.share_saved:.0%}); "
            f"{summary.wall_s:.1f} s"
        )
    if summary.errors:
        typer.secho(
            f"{summary.errors} question(s) failed (recorded with their error, not judged); "
            "re-run the same command to re-attempt them",
            fg=typer.colors.YELLOW, err=True,
        )
        raise typer.Exit(EXIT_INCOMPLETE)


@app.command("audit")
def audit_command(
    run: Annotated[Path, typer.Argument(help="run folder written by `bemula run`")],
    data: Annotated[Path | None, typer.Option(help="dataset folder [default: the run's]")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the audit's summary as one JSON object")] = False,
) -> None:
    """Residue audit: which forgotten values still sit in which store (no backbone needed).
    Writes RUN/residues.jsonl and RUN/residues-summary.json."""
    from rich.console import Console
    from rich.table import Table

    from bemula.audit import AuditError, audit_run

    try:
        summary = audit_run(run, data=data)
    except (AuditError, ValueError) as exc:
        _fail(str(exc))
        return
    if as_json:
        import json

        typer.echo(json.dumps(summary.to_json(), indent=1))
        return
    console = Console()
    table = Table(title=f"residues of {summary.system} in {run} (forget version)")
    for column in ("store", "records", "residues", "values found"):
        table.add_column(column, justify="left" if column == "store" else "right")
    for s in summary.stores:
        table.add_row(s.store, str(s.records), str(s.residues), f"{s.values_found}/{summary.values_protected}")
    console.print(table)
    pct = 100.0 * summary.values_with_residue / summary.values_protected if summary.values_protected else 0.0
    console.print(
        f"{summary.values_with_residue} of {summary.values_protected} protected values ({pct:.1f}%) still sit "
        f"in a store; {summary.residues} residues over {summary.instances} instances"
    )
    if summary.values_stored_in_control is not None:
        console.print(
            f"stored at all (found in the control version's stores): {summary.values_stored_in_control}; "
            f"of those, still stored after the request: {summary.values_with_residue_among_stored}"
        )
    console.print(f"wrote {Path(run) / 'residues.jsonl'}")
