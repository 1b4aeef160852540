"""``bemula judge``, ``bemula judge-agreement`` and ``bemula judge-set``: thin wrappers over ``bemula.judge``."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bemula.cli.app import app

if TYPE_CHECKING:  # pragma: no cover
    from bemula.judge.judgeset import JudgeSetReport


def _fail(message: str) -> None:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


@contextmanager
def _progress_bar(enabled: bool, label: str) -> Iterator[Callable[[int, int], Callable[[int], None] | None] | None]:
    """A rich progress bar factory for ``judge_run`` (None when disabled)."""
    if not enabled:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
    ) as bar:

        def start(pending: int, done: int) -> Callable[[int], None]:
            task = bar.add_task(label, total=pending)
            return lambda n: bar.advance(task, n)

        yield start


def run_judge(
    run: Path,
    judge: str,
    *,
    data: Path | None = None,
    backbone: str = "local",
    model: str | None = None,
    base_url: str | None = None,
    llm_cache: Path | None = None,
    concurrency: int | None = None,
    llm_options: dict[str, object] | None = None,
    redo: bool = False,
    progress: bool = True,
    echo: Callable[[str], None] = typer.echo,
    as_json: bool = False,
) -> None:
    """Judge one run folder with a progress bar, and print the one-line summary (or JSON)."""
    from bemula.judge.pipeline import describe_summary, judge_folder

    options: dict[str, object] = {"concurrency": concurrency} if concurrency else {}
    options.update(llm_options or {})
    with _progress_bar(progress, f"judging {run} ({judge})") as bar:
        summary, counts = judge_folder(run, judge, data=data, backbone=backbone, model=model, base_url=base_url,
                                       llm_cache=llm_cache, llm_options=options, redo=redo, progress=bar)
    if as_json:
        from dataclasses import asdict

        echo(json.dumps({**asdict(summary), "path": str(summary.path), "judge_counts": counts}, indent=1))
        return
    echo(describe_summary(summary, counts))


@app.command("judge")
def judge_command(
    run: Annotated[Path, typer.Argument(help="run folder written by `bemula run`")],
    judge: Annotated[str, typer.Option(help="rules | llm | cascade (rules decide clear cases, the LLM the rest) | local (= llm on the embedded model) | a judge a package registers")] = "rules",
    backbone: Annotated[str, typer.Option(help="LLM judge backbone: local (embedded model) | openai (any OpenAI-compatible endpoint)")] = "local",
    model: Annotated[str | None, typer.Option(help="LLM judge model name")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL for the LLM judge")] = None,
    data: Annotated[Path | None, typer.Option(help="dataset folder (default: the one in RUN/meta.json)")] = None,
    llm_cache: Annotated[Path | None, typer.Option(help="LLM request cache file (default: the LLM layer's)")] = None,
    concurrency: Annotated[int | None, typer.Option(help="parallel LLM judge calls")] = None,
    redo: Annotated[bool, typer.Option("--redo", help="judge everything again (default: resume)")] = False,
    timeout: Annotated[float | None, typer.Option(help="seconds per LLM judge call before it is retried")] = None,
    retries: Annotated[int | None, typer.Option(help="retries per LLM judge call after the first attempt")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the judging summary as one JSON object")] = False,
) -> None:
    """Judge a run's answers; writes RUN/verdicts-<judge>.jsonl. Re-running resumes."""
    from bemula.cli.run import llm_options
    from bemula.judge.registry import JUDGES
    from bemula.llm.client import LLMError
    from bemula.runfolder.folder import RunFolderError

    if judge == "local":  # shorthand: the LLM judge on the embedded local model
        judge, backbone = "llm", "local"
    if judge not in JUDGES:
        _fail(f"--judge {judge!r}: use one of {', '.join(sorted(JUDGES.entries()))}")
    try:
        run_judge(
            run, judge, data=data, backbone=backbone, model=model, base_url=base_url,
            llm_cache=llm_cache, concurrency=concurrency, llm_options=llm_options(timeout, retries),
            redo=redo, progress=not quiet and not as_json, as_json=as_json,
        )
    except (RunFolderError, LLMError) as exc:
        _fail(str(exc))


@app.command("judge-agreement")
def judge_agreement_command(
    run: Annotated[Path, typer.Argument(help="run folder judged by both judges")],
    a: Annotated[str, typer.Argument(help="first judge, e.g. rules")],
    b: Annotated[str, typer.Argument(help="second judge, e.g. llm")],
    show: Annotated[int, typer.Option(help="how many disagreeing items to print")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object with every disagreement")] = False,
) -> None:
    """How far two judges agree on RUN: agreement, Cohen's kappa, the disagreeing items."""
    from bemula.judge.agreement import compare
    from bemula.runfolder.folder import RunFolder, RunFolderError

    try:
        folder = RunFolder.open(run)
        result = compare(folder.verdicts(a), folder.verdicts(b), judge_a=a, judge_b=b)
    except RunFolderError as exc:
        _fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps(result.as_dict(), indent=1))
        return
    rate = "n/a" if result.rate is None else f"{100 * result.rate:.1f}%"
    kappa = "undefined" if result.kappa is None else f"{result.kappa:.3f}"
    typer.echo(
        f"{a} vs {b} on {folder.label}: {result.n} items scored by both; agreement {rate} "
        f"({result.agree}/{result.n}); Cohen's kappa {kappa}; unscored {a} {result.unscored_a}, "
        f"{b} {result.unscored_b}; only in {a} {result.only_in_a}, only in {b} {result.only_in_b}"
    )
    if result.disagreements:
        answers = folder.answers
        typer.echo(f"{len(result.disagreements)} disagreements" + (f" (first {show})" if len(result.disagreements) > show else "") + ":")
        for d in result.disagreements[:show]:
            answer = answers.get((d.instance_id, d.question_id))
            text = " ".join((answer.answer if answer else "").split())[:100]
            typer.echo(
                f"  {d.instance_id}/{d.question_id}: {a}={_mark(d.a.correct)} ({d.a.reason}) | "
                f"{b}={_mark(d.b.correct)} ({d.b.reason}) | answer: {text!r}"
            )


def _mark(correct: bool | None) -> str:
    return "unscored" if correct is None else ("correct" if correct else "wrong")


@app.command("judge-set")
def judge_set_command(
    judge: Annotated[str, typer.Option(help="rule | llm | cascade (rules decide clear cases, the LLM the rest)")] = "rule",
    backbone: Annotated[str, typer.Option(help="LLM judge backbone: local (embedded model) | openai (any OpenAI-compatible endpoint)")] = "local",
    model: Annotated[str | None, typer.Option(help="LLM judge model name")] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL for the LLM judge")] = None,
    set_path: Annotated[Path | None, typer.Option("--set", help="judge-set TOML file (default: the shipped bemula/datasets/judge-set.toml)")] = None,
    llm_cache: Annotated[Path | None, typer.Option(help="LLM request cache file (default: the LLM layer's)")] = None,
    concurrency: Annotated[int | None, typer.Option(help="parallel LLM judge calls")] = None,
    timeout: Annotated[float | None, typer.Option(help="seconds per LLM judge call before it is retried")] = None,
    retries: Annotated[int | None, typer.Option(help="retries per LLM judge call after the first attempt")] = None,
    show: Annotated[int, typer.Option(help="how many disagreeing items to print")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object: figures, confusion matrices, every disagreement")] = False,
) -> None:
    """How far a judge agrees with the hand-labelled judge set: agreement, Cohen's kappa,
    confusion matrix (overall, hard/clear, llm/memory answers) and the disagreeing items."""
    from bemula.judge.judgeset import JudgeSetError, evaluate, load_judge_set
    from bemula.judge.registry import JUDGES, describe_judge, open_judge
    from bemula.llm.client import LLMError

    if judge in ("rule", "rules"):
        judge = "rules"
    elif judge == "local":
        judge, backbone = "llm", "local"
    if judge not in JUDGES:
        _fail(f"--judge {judge!r}: use one of {', '.join(sorted(JUDGES.entries()))}")
    try:
        judge_set = load_judge_set(set_path)
    except JudgeSetError as exc:
        _fail(str(exc))
        return
    from bemula.cli.run import llm_options

    kw: dict[str, object] = {"concurrency": concurrency} if concurrency else {}
    kw.update(llm_options(timeout, retries))
    try:
        with open_judge(judge, backbone=backbone, model=model, base_url=base_url, llm_cache=llm_cache,
                        llm_options=kw) as the_judge:
            report = evaluate(judge_set, the_judge)
            extra = describe_judge(the_judge)
    except LLMError as exc:
        _fail(str(exc))
        return
    if as_json:
        typer.echo(json.dumps(report.as_dict(), indent=1))
        return
    _print_judge_set_report(report, show=show, extra=extra)


def _print_judge_set_report(report: JudgeSetReport, *, show: int, extra: str = "") -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(soft_wrap=True)

    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{100 * x:.1f}%"

    def kap(x: float | None) -> str:
        return "undefined" if x is None else f"{x:.3f}"

    console.print(f"judge {report.judge} on {report.path} ({report.overall.items} items, "
                  f"{1000 * report.seconds_per_item:.2f} ms per item)" + (f"; {extra}" if extra else ""))
    table = Table(title="agreement with the human labels")
    for col in ("items", "scored", "agree", "agreement", "kappa", "unscored"):
        table.add_column(col, justify="right" if col != "items" else "left")
    rows = [("all", report.overall), *(
        (name, stats) for name, stats in (*report.by_difficulty.items(), *report.by_source.items())
    )]
    for name, stats in rows:
        table.add_row(f"{name} ({stats.items})", str(stats.n), str(stats.agree), pct(stats.rate), kap(stats.kappa),
                      str(stats.unscored))
    console.print(table)
    matrix = Table(title="confusion matrix (rows: human label, columns: judge verdict)")
    matrix.add_column("human \\ judge")
    for col in ("correct", "incorrect", "unscored"):
        matrix.add_column(col, justify="right")
    for human in ("correct", "incorrect"):
        row = report.overall.matrix[human]
        matrix.add_row(human, str(row["correct"]), str(row["incorrect"]), str(row["unscored"]))
    console.print(matrix)
    if report.disagreements:
        shown = report.disagreements[:show]
        n = len(report.disagreements)
        dis = Table(title=f"{n} disagreement{'s' if n != 1 else ''}" + (f" (first {show})" if n > show else ""))
        for col in ("id", "human", "judge", "answer", "judge reason", "human reason"):
            dis.add_column(col, overflow="fold")
        for d in shown:
            answer = " ".join(d.answer.split())
            dis.add_row(f"{d.id} ({'hard' if d.hard else 'clear'}, {d.source})", _mark(d.label), _mark(d.verdict),
                        answer if len(answer) <= 100 else answer[:99] + "…", d.judge_reason, d.human_reason)
        console.print(dis)
