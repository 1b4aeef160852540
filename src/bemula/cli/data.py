"""``bemula generate`` and ``bemula stats``: build a dataset offline, and measure one."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import typer

from bemula.cli.app import app
from bemula.dataset import INSTANCES_DIR, MANIFEST_NAME, DatasetError
from bemula.generate.editions import DEFAULT_EDITION


def _clear_previous(out: Path) -> None:
    """Remove the instance files of a previous dataset in ``out`` (only when ``out`` holds a
    bemula manifest), so a Lite run over a full one leaves no stale instances behind."""
    if (out / MANIFEST_NAME).is_file() and (out / INSTANCES_DIR).is_dir():
        for path in sorted((out / INSTANCES_DIR).glob("*.json")):
            path.unlink()


@app.command()
def generate(
    seed: int = typer.Option(0, "--seed", help="random seed; the same seed gives byte-identical files"),
    out: Path = typer.Option(Path("data/bemula"), "--out", help="dataset folder to write"),
    lite: bool = typer.Option(False, "--lite/--no-lite", help="only BEMULA-Lite (the short and medium instances)"),
    edition: int = typer.Option(DEFAULT_EDITION, "--edition", help="offline: 2 (phrase banks, personas) or 1 (templates)"),
    split: str = typer.Option("test", "--split", help="offline edition 2: phrase bank, test (measure) or dev (develop)"),
    # --- LLM pipeline (bemula.generate.llm; docs/llm-pipeline.md) ---------------------------
    pipeline: str = typer.Option("offline", "--pipeline", help="offline (templates) or llm (LLM agents)"),
    backbone: str = typer.Option("local", "--backbone", help="llm: local (embedded model) or openai (any endpoint)"),
    model: str | None = typer.Option(None, "--model", help="llm: model name (openai) or local-0.5b/local-1.5b"),
    base_url: str | None = typer.Option(None, "--base-url", help="llm: OpenAI-compatible base URL (…/v1)"),
    tiers: str | None = typer.Option(None, "--tiers", help="llm: comma-separated tiers (default: all)"),
    limit: int | None = typer.Option(None, "--limit", min=1, help="llm: generate only the first N selected instances (as in run)"),
    preset: str = typer.Option("paper", "--preset", help="llm: paper (the paper's shape) or tiny (CI-sized)"),
    dry_run: bool = typer.Option(False, "--dry-run", help="llm: print planned calls and tokens per stage, call nothing"),
) -> None:
    """Generate the benchmark offline (seeded templates, no network) into OUT, or with
    ``--pipeline llm`` through the paper's LLM-agent pipeline."""
    if pipeline != "offline":
        if pipeline != "llm":
            raise typer.BadParameter(f"unknown pipeline {pipeline!r}; use offline or llm", param_hint="--pipeline")
        from bemula.generate.llm.cli import run_llm_generate

        run_llm_generate(seed=seed, out=out, lite=lite, backbone=backbone, model=model, base_url=base_url,
                         tiers=tiers, instances=limit, preset_name=preset, dry_run=dry_run)
        return
    # --- offline pipeline ------------------------------------------------------------------
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from bemula.generate.editions import EDITIONS, generate
    from bemula.generate.natural.bank import SPLITS, BankError
    from bemula.generate.offline import allocate
    from bemula.model import Tier

    if edition not in EDITIONS:
        raise typer.BadParameter(f"unknown edition {edition}; use 1 or 2", param_hint="--edition")
    if split not in SPLITS:
        raise typer.BadParameter(f"unknown split {split!r}; use dev or test", param_hint="--split")
    if edition == 1 and split != "test":
        raise typer.BadParameter("edition 1 has a single phrase set; --split is for edition 2", param_hint="--split")

    if out.exists() and not out.is_dir():
        raise typer.BadParameter(f"{out} exists and is not a folder", param_hint="--out")
    _clear_previous(out)
    shapes = allocate(seed)
    total = sum(1 for s in shapes if not lite or s.tier in (Tier.SHORT, Tier.MEDIUM))
    started = time.perf_counter()
    with Progress(TextColumn("generating"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                  TimeElapsedColumn(), transient=True) as bar:
        task = bar.add_task("", total=total)
        try:
            manifest = generate(seed, out, edition=edition, split=split, lite=lite,
                                progress=lambda iid: bar.update(task, advance=1, description=iid))
        except BankError as exc:
            typer.echo(f"error: a phrase bank is malformed: {exc}", err=True)
            raise typer.Exit(2) from None
    elapsed = time.perf_counter() - started
    counts = manifest.counts
    typer.echo(
        f"wrote {len(manifest.instances)} instances (edition {edition}"
        f"{', ' + split + ' bank' if edition == 2 else ''}) to {out} in {elapsed:.1f}s: "
        f"{counts.get('turns_per_version')} turns per version, {counts.get('requests')} requests, "
        f"{counts.get('questions')} questions; checksum {manifest.checksum[:16]}"
    )


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "" if value is None else str(value)


#: SPEC §1: "about 84.8K tokens per instance on average, the longest ≈379K tokens"
PAPER_TOKENS_PER_INSTANCE = 84_800
PAPER_LONGEST_INSTANCE_TOKENS = 379_000


def _rows(stats: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    from bemula.stats import paper_figure

    rows: list[tuple[str, Any, Any]] = [("instances", stats["instances"], paper_figure("instances"))]
    for tier, n in stats["tiers"].items():
        rows.append((f"  {tier} instances", n, paper_figure("tiers", tier)))
    for key in ("sessions", "turns_per_version", "atomic_facts", "atomic_facts_per_profile", "sensitive_facts",
                "derived_facts", "requests"):
        rows.append((key.replace("_", " "), stats[key], paper_figure(key)))
    for rtype, n in stats["requests_by_type"].items():
        rows.append((f"  {rtype} requests", n, paper_figure("requests_by_type", rtype)))
    rows.append(("targeted facts", stats["targeted_facts"], paper_figure("targeted_facts")))
    rows.append(("questions", stats["questions"], paper_figure("questions")))
    for suite, n in stats["questions_by_suite"].items():
        rows.append((f"  {suite}", n, paper_figure("questions_by_suite", suite)))
    for frame, n in stats["questions_by_frame"].items():
        rows.append((f"  attack: {frame}", n, None))
    rows.append(("control probes (not in questions)", stats["control_probes"], None))
    for part in ("min", "max", "mean"):
        rows.append((f"span days {part}", stats["span_days"][part], paper_figure("span_days", part)))
    tokens = (stats.get("fidelity") or {}).get("tokens_per_instance")
    words = stats.get("words_per_instance")
    if tokens:  # the paper counts tokens: compare tokens (cl100k), not words
        rows.append(("tokens per instance, mean (cl100k)", tokens["mean"], PAPER_TOKENS_PER_INSTANCE))
        rows.append(("tokens per instance, longest (cl100k)", tokens["max"], PAPER_LONGEST_INSTANCE_TOKENS))
    elif words:
        rows.append(("words per instance (the paper counts tokens)", f"{_fmt(words['mean'])} mean, "
                     f"{_fmt(words['max'])} max", None))
    rows.append(("Lite instances", stats["lite_instances"], paper_figure("lite_instances")))
    rows.append(("Lite questions", stats["lite_questions"], paper_figure("lite_questions")))
    for tier, fig in stats["per_tier"].items():
        if not stats["tiers"].get(tier):
            continue
        for what in ("turns", "requests", "questions"):
            r = fig[what]
            rows.append((f"{tier}: {what} per instance", f"{_fmt(r['min'])}–{_fmt(r['max'])} (mean {_fmt(r['mean'])})",
                         None))
    return rows


@app.command()
def stats(
    dataset: Path = typer.Argument(..., help="dataset folder, or a bundled dataset's name (handwritten)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object instead of a table"),
) -> None:
    """Print a dataset's figures beside the paper's (counts, then how it reads; docs/generator.md)."""
    from bemula.dataset import resolve_data
    from bemula.stats import dataset_stats

    dataset = resolve_data(dataset)

    try:
        figures = dataset_stats(dataset)
        fidelity, reference = _fidelity(dataset)
    except DatasetError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    figures["fidelity"] = fidelity
    figures["fidelity_handwritten"] = reference
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"BEMULA dataset figures: {dataset}")
    table.add_column("figure")
    table.add_column("measured", justify="right")
    table.add_column("paper", justify="right")
    table.add_column("Δ", justify="right")
    for name, measured, paper in _rows(figures):
        delta = ""
        if isinstance(measured, (int, float)) and isinstance(paper, (int, float)) and paper:
            delta = f"{100 * (measured - paper) / paper:+.1f}%"
        table.add_row(name, _fmt(measured), _fmt(paper), delta)
    console = Console(width=max(100, shutil.get_terminal_size().columns))
    console.print(table)
    console.print(_fidelity_table(fidelity, reference))


def _fidelity(dataset: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """This dataset's fidelity figures and the bundled hand-written set's (the yardstick)."""
    from bemula.dataset import Dataset, bundled_dataset
    from bemula.fidelity import fidelity_stats

    mine = fidelity_stats(list(Dataset.open(dataset)), dataset)
    hw = bundled_dataset("handwritten")
    reference = fidelity_stats(list(Dataset.open(hw)), hw) if hw is not None else {}
    return mine, reference


def _fmt_share(value: Any) -> str:
    """Shares and diversity figures need three decimals; everything else as _fmt."""
    if isinstance(value, float) and 0.0 <= value <= 1.0:
        return f"{value:.3f}"
    return _fmt(value)


def _flatten(figures: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in figures.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _fidelity_table(fidelity: dict[str, Any], reference: dict[str, Any]):
    """Fidelity figures beside the paper's (where it gives them) and the hand-written set's."""
    from rich.table import Table

    from bemula.fidelity import PAPER_FIDELITY

    paper = {"tokens_per_turn": PAPER_FIDELITY["tokens_per_turn"],
             "tokens_per_instance.mean": PAPER_FIDELITY["tokens_per_instance_mean"],
             "tokens_per_instance.max": PAPER_FIDELITY["tokens_per_instance_max"]}
    mine, ref = _flatten(fidelity), _flatten(reference)
    table = Table(title=f"how it reads (tokens: {fidelity.get('tokenizer')}; distinct-n over 1,500 user words "
                        "per instance, averaged)")
    for col in ("figure", "measured", "paper", "hand-written set"):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for key, value in mine.items():
        if key == "tokenizer":
            continue
        table.add_row(key.replace("_", " "), _fmt_share(value), _fmt(paper.get(key)), _fmt_share(ref.get(key)))
    return table


@app.command("compile")
def compile_command(
    sources: list[Path] = typer.Argument(..., help="authoring files (*.toml) or folders of them (docs/authoring.md)"),
    out: Path = typer.Option(..., "--out", help="dataset folder to write"),
    name: str = typer.Option("bemula-handwritten", "--name", help="the dataset's name in its manifest"),
    check: bool = typer.Option(True, "--validate/--no-validate", help="validate the compiled folder"),
) -> None:
    """Compile hand-written authoring files into a dataset folder, then validate it."""
    from bemula.authoring import compile_dataset
    from bemula.cli.validate import print_report
    from bemula.validate import validate_dataset

    if out.exists() and not out.is_dir():
        raise typer.BadParameter(f"{out} exists and is not a folder", param_hint="--out")
    try:
        instances = compile_dataset(sources, out, name=name)
    except DatasetError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    turns = sum(i.forget.n_turns for i in instances)
    questions = sum(1 for i in instances for q in i.questions if not q.is_probe)
    typer.echo(f"compiled {len(instances)} instance(s) to {out}: {turns} turns per version, {questions} questions")
    if check:
        started = time.perf_counter()
        report = validate_dataset(out)
        ok = print_report(out, report, time.perf_counter() - started)
        raise typer.Exit(code=0 if ok else 1)


@app.command("export")
def export_command(
    data: Path = typer.Argument(..., help="dataset folder, or a bundled dataset's name (handwritten)"),
    out: Path = typer.Argument(..., help="folder to write the tables into (new or empty)"),
    fmt: str = typer.Option("parquet", "--format", help="parquet (tables + bemula-export.json) | hf (also the Hub's dataset card)"),
) -> None:
    """Write a dataset as Parquet tables — instances, turns, requests, questions, each with a
    full and a lite split — readable by pyarrow and `datasets.load_dataset` (docs/dataset-format.md)."""
    from bemula.dataset import resolve_data
    from bemula.export import ExportError, export_dataset

    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        typer.echo(f"error: {out}: exists and is not an empty folder", err=True)
        raise typer.Exit(code=2)
    try:
        summary = export_dataset(resolve_data(data), out, fmt=fmt)
    except (ExportError, DatasetError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    rows = ", ".join(f"{n:,} {config}" for config, n in summary.rows.items())
    typer.echo(f"exported {summary.instances} instances to {out}/ ({rows}); source checksum {summary.checksum[:12]}…")


@app.command("import")
def import_command(
    src: Path = typer.Argument(..., help="a folder written by `bemula export`"),
    out: Path = typer.Argument(..., help="dataset folder to write (new)"),
) -> None:
    """Rebuild a dataset folder from exported tables; refused unless it has the export's checksum."""
    from bemula.export import ExportError, import_dataset

    try:
        summary = import_dataset(src, out)
    except (ExportError, DatasetError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo(f"imported {summary.instances} instances to {out}/; checksum {summary.checksum[:12]}… (as exported)")
