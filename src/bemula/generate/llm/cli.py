"""What ``bemula generate --pipeline llm`` does (the command itself lives in ``bemula.cli.data``).

Thin: resolve the selection and the preset, print the dry-run plan, or open the LLM
(``bemula.llm.backends.open_llm``; the key comes only from the environment) and run the
pipeline with a progress line per instance, then print calls, tokens and time per stage.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from bemula.generate.llm.config import LLMPipelineConfig, preset
from bemula.generate.llm.pipeline import estimate, generate_llm_benchmark
from bemula.model import Tier


def parse_tiers(text: str | None, lite: bool) -> list[Tier] | None:
    if lite and not text:
        return [Tier.SHORT, Tier.MEDIUM]
    if not text:
        return None
    out = []
    for part in text.split(","):
        name = part.strip().lower()
        try:
            out.append(Tier(name))
        except ValueError:
            raise typer.BadParameter(f"unknown tier {name!r}; use short, medium, long, xlong", param_hint="--tiers") from None
    return out


def _config(preset_name: str, workers: int) -> LLMPipelineConfig:
    try:
        config = preset(preset_name)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--preset") from None
    return LLMPipelineConfig(**{**vars(config), "workers": workers})


def print_estimate(plan: dict, backbone: str) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"dry run: {plan['instances']} instance(s), {plan['turns_per_version']:,} turns per version")
    for col in ("stage", "calls", "prompt tokens", "completion tokens"):
        table.add_column(col, justify="left" if col == "stage" else "right")
    for name, s in plan["stages"].items():
        table.add_row(name, f"{s['calls']:,}", f"{s['prompt_tokens']:,}", f"{s['completion_tokens']:,}")
    t = plan["total"]
    table.add_row("total", f"{t['calls']:,}", f"{t['prompt_tokens']:,}", f"{t['completion_tokens']:,}", style="bold")
    console = Console()
    console.print(table)
    console.print("First-attempt calls only: retries and regenerations add to this (see docs/llm-pipeline.md).")
    if backbone == "local":
        seconds = t["calls"] * LOCAL_SECONDS_PER_PLANNED_CALL
        when = f"{seconds / 3600:.1f} h" if seconds >= 7200 else f"{seconds / 60:.0f} min"
        console.print(f"Embedded 0.5B model on 2 cores, at the measured pace of the tiny preset "
                      f"(retries included): ≈{when}.")


def print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"LLM pipeline: {len(report['instances'])} instance(s) in {report['wall_s']:.1f}s")
    for col in ("stage", "calls", "prompt tok", "completion tok", "wall s"):
        table.add_column(col, justify="left" if col == "stage" else "right")
    table.add_column("retries, repairs, fallbacks", overflow="fold")
    for name, m in report["stages"].items():
        events = ", ".join(f"{k.split('.', 1)[1]}={v}" for k, v in m.items() if k.startswith("events.") and v)
        table.add_row(name, str(m["calls"]), f"{m['prompt_tokens']:,}", f"{m['completion_tokens']:,}",
                      f"{m['wall_s']:.1f}", events)
    Console(width=140).print(table)


#: measured: the tiny preset (45 planned calls) took 332 s with the embedded 0.5B model on an
#: idle 2-core machine, retries included (docs/llm-pipeline.md, "Measurements")
LOCAL_SECONDS_PER_PLANNED_CALL = 332 / 45

OFFLINE_DEFAULT_OUT = Path("data/bemula")
LLM_DEFAULT_OUT = Path("data/bemula-llm")


def _safe_out(out: Path) -> Path:
    """Never write over a dataset another generator made (the offline default folder included)."""
    if out == OFFLINE_DEFAULT_OUT:
        out = LLM_DEFAULT_OUT
    manifest = out / "manifest.json"
    if manifest.is_file():
        try:
            generator = json.loads(manifest.read_text(encoding="utf-8")).get("generator", {})
        except (OSError, json.JSONDecodeError):
            generator = {}
        if generator.get("pipeline") != "llm":
            raise typer.BadParameter(
                f"{out} holds a dataset made by another generator ({generator.get('name', 'unknown')}); "
                "choose another folder", param_hint="--out")
    return out


def run_llm_generate(
    *,
    seed: int,
    out: Path,
    lite: bool,
    backbone: str,
    model: str | None,
    base_url: str | None,
    tiers: str | None,
    instances: int | None,
    preset_name: str,
    dry_run: bool,
) -> None:
    from bemula.llm.client import LLMError

    workers = 2 if backbone == "local" else 8
    config = _config(preset_name, workers)
    chosen_tiers = parse_tiers(tiers, lite)
    if not config.instances(chosen_tiers, instances):
        raise typer.BadParameter(f"preset {preset_name!r} has no instance in tiers {tiers}", param_hint="--tiers")
    if dry_run:
        print_estimate(estimate(config, seed=seed, tiers=chosen_tiers, limit=instances), backbone)
        return
    out = _safe_out(out)
    from bemula.llm.backends import open_llm

    try:
        # generation calls are long (a batch of facts, a verified turn) and a busy 2-core machine
        # slows the local model many times over: a generous timeout avoids retrying work in flight
        timeout_s = 900.0 if backbone == "local" else 180.0
        with open_llm(backbone, model=model, base_url=base_url, concurrency=workers, timeout_s=timeout_s) as client:
            label = client.describe().get("model", model or backbone)
            report = generate_llm_benchmark(
                client, out, seed=seed, config=config, tiers=chosen_tiers, limit=instances, model=label,
                backbone=backbone,
                on_instance=lambda iid, n, total: typer.echo(f"[{n + 1}/{total}] {iid}", err=True),
            )
    except LLMError as exc:
        typer.echo(f"error: {exc}", err=True)
        typer.echo(f"(finished work is cached under {out}/.llm-cache; run the same command to resume)", err=True)
        raise typer.Exit(1) from None
    print_report(report.as_dict())
    typer.echo(f"wrote {len(report.instances)} instance(s) to {out}; checksum {report.manifest_checksum[:16]}")
