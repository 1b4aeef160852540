"""``bemula sweep CONFIG``: systems × backbones × datasets, one run folder per cell, one report.

The paper's tables are a grid (six systems and Full Context under three backbones); a lab
runs that grid, not one system at a time. A sweep file (TOML, or YAML) names the grid::

    out = "runs/sweep-paper"
    systems = ["naive-rag", "full-context", "erasemem"]
    backbones = ["probe", "openai"]
    datasets = ["bemula", "handwritten"]     # a folder, or a bundled dataset's name
    lite = true
    parallel = 2                              # cells at once (processes)

    [backbone.openai]                         # per backbone: model, base_url, context_window
    model = "gpt-4o-mini"
    [options.naive-rag]                       # per system: its -o options
    top_k = 5

Each cell is an ordinary resumable run folder (``<out>/<dataset>/<backbone>/<system>``),
judged and audited in place; every cell shares one LLM request cache (``<out>/llm-cache.sqlite``)
so a prompt two cells send is paid once. Re-running the same command resumes the whole
sweep: finished cells are read back, unfinished ones go on where they stopped. The report
(``<out>/report``) has every cell, with paired bootstrap differences between systems that
ran on the same dataset with the same backbone. ``<out>/sweep.json`` says what each cell
did.
"""

from __future__ import annotations

import multiprocessing as mp
import re
import time
import tomllib
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bemula.metrics.bootstrap import N_RESAMPLES
from bemula.runfolder.jsonl import atomic_write_json

SWEEP_STATE = "sweep.json"
CACHE_NAME = "llm-cache.sqlite"


class SweepError(ValueError):
    """A sweep file that cannot run as written; the message names the file and the key."""


class BackboneSettings(BaseModel):
    """How one backbone of the sweep reaches its model."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = None
    base_url: str | None = None
    context_window: int | None = None


class SweepConfig(BaseModel):
    """A sweep file, checked: unknown keys are errors (a typo must not silently drop a cell)."""

    model_config = ConfigDict(extra="forbid")

    out: Path = Path("runs/sweep")
    systems: list[str] = Field(min_length=1)
    backbones: list[str] = Field(default_factory=lambda: ["probe"], min_length=1)
    datasets: list[str] = Field(default_factory=lambda: ["data/bemula"], min_length=1)
    lite: bool = False
    limit: int | None = Field(default=None, ge=1)
    seed: int = 0
    judge: str = "rules"
    #: cells run at once, each in a process of its own
    parallel: int = Field(default=1, ge=1)
    #: inside each cell: worker processes, backbone calls in flight, the executor
    workers: int = Field(default=1, ge=1)
    concurrency: int = Field(default=1, ge=1)
    executor: str = "local"
    ray_address: str | None = None
    resamples: int = Field(default=N_RESAMPLES, ge=100)
    audit: bool = True
    llm_cache: Path | None = None
    backbone: dict[str, BackboneSettings] = Field(default_factory=dict)
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @field_validator("systems", "backbones", "datasets")
    @classmethod
    def _no_repeats(cls, values: list[str]) -> list[str]:
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise ValueError(f"listed twice: {', '.join(repeated)}")
        return values

    @property
    def cache_path(self) -> Path:
        return self.llm_cache or self.out / CACHE_NAME


def load_sweep(path: Path | str) -> SweepConfig:
    """Read and check a sweep file (``.toml``, ``.yaml``/``.yml``); relative paths in it
    are relative to the directory the command runs in, as on the command line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SweepError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if path.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            raw = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise SweepError(f"{path}: not YAML ({str(exc).splitlines()[0]})") from None
    else:
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SweepError(f"{path}: not TOML ({exc})") from None
    if not isinstance(raw, dict):
        raise SweepError(f"{path}: expected a table of settings at the top")
    try:
        config = SweepConfig.model_validate(raw)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors())
        raise SweepError(f"{path}: {problems}") from None
    _check_names(path, config)
    return config


def _check_names(path: Path, config: SweepConfig) -> None:
    """Every name known and every cell runnable, before any work (a typo found after an
    hour of runs wastes the hour)."""
    from bemula.backbones import BACKBONE_REGISTRY, answers_with_llm
    from bemula.judge.registry import JUDGES
    from bemula.run.runner import EXECUTORS
    from bemula.systems.base import registry

    systems = registry()
    problems = []
    for name in config.systems:
        if name not in systems:
            problems.append(f"systems: unknown {name!r} (known: {', '.join(sorted(systems))})")
        elif not systems[name].available:
            problems.append(f"systems: {name!r} is not installed ({systems[name].install_hint})")
    for name in config.backbones:
        if name not in BACKBONE_REGISTRY:
            problems.append(f"backbones: unknown {name!r} (known: {', '.join(BACKBONE_REGISTRY.entries())})")
    for name in config.backbone:
        if name not in config.backbones:
            problems.append(f"backbone.{name}: settings for a backbone the sweep does not use")
    for name, options in config.options.items():
        if name not in config.systems:
            problems.append(f"options.{name}: options for a system the sweep does not run")
        elif name in systems:
            try:
                systems[name].validate_options(options)
            except ValueError as exc:
                problems.append(f"options.{name}: {exc}")
    if config.judge not in JUDGES:
        problems.append(f"judge: unknown {config.judge!r} (known: {', '.join(sorted(JUDGES.entries()))})")
    if config.executor not in EXECUTORS:
        problems.append(f"executor: unknown {config.executor!r} (use {', '.join(EXECUTORS)})")
    for system in config.systems:
        info = systems.get(system)
        factory = getattr(info, "factory", None)
        for backbone in config.backbones:
            if factory is not None and factory.requires_llm and backbone in BACKBONE_REGISTRY \
                    and not answers_with_llm(backbone):
                problems.append(f"cell {system} × {backbone}: {system!r} needs an LLM backbone")
    if problems:
        raise SweepError(f"{path}: " + "; ".join(problems))


@dataclass(frozen=True)
class Cell:
    """One (dataset, backbone, system) of the grid and its run folder."""

    dataset: str
    backbone: str
    system: str
    run_dir: Path

    @property
    def name(self) -> str:
        return f"{self.dataset_label} / {self.backbone} / {self.system}"

    @property
    def dataset_label(self) -> str:
        return _slug(self.dataset)


def _slug(dataset: str) -> str:
    """A folder name for a dataset: its last path part (``data/bemula`` → ``bemula``)."""
    name = Path(dataset.rstrip("/")).name or "data"
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name)


def cells(config: SweepConfig) -> list[Cell]:
    """The grid, dataset-major; two datasets with the same last name part get their index."""
    slugs = [_slug(d) for d in config.datasets]
    folders = [s if slugs.count(s) == 1 else f"{s}-{i}" for i, s in enumerate(slugs)]
    return [
        Cell(dataset, backbone, system, config.out / folder / backbone / system)
        for dataset, folder in zip(config.datasets, folders, strict=True)
        for backbone in config.backbones
        for system in config.systems
    ]


@dataclass
class CellOutcome:
    cell: Cell
    status: str = "pending"  # done | incomplete | failed
    message: str = ""
    answered_now: int = 0
    already_done: int = 0
    wall_s: float = 0.0


@dataclass
class SweepResult:
    config: SweepConfig
    outcomes: list[CellOutcome] = field(default_factory=list)
    report_dir: Path | None = None
    #: every reported cell's scores, in grid order (labels as in the report)
    scores: list[Any] = field(default_factory=list)
    #: (best, other, paired difference) within each dataset × backbone
    differences: list[tuple[str, str, Any]] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def failed(self) -> list[CellOutcome]:
        return [o for o in self.outcomes if o.status != "done"]


def run_cell(config: SweepConfig, cell: Cell, data: str) -> CellOutcome:
    """Run, judge and audit one cell (in a process of its own when ``parallel`` > 1)."""
    from bemula.audit import AuditError, audit_run
    from bemula.backbones import answers_with_llm
    from bemula.judge.pipeline import judge_folder
    from bemula.run.runner import RunConfig, RunError, RunIncomplete, run_benchmark

    outcome = CellOutcome(cell)
    settings = config.backbone.get(cell.backbone, BackboneSettings())
    run_config = RunConfig(
        data=Path(data), out=cell.run_dir, system=cell.system, backbone=cell.backbone, model=settings.model,
        base_url=settings.base_url, context_window=settings.context_window, lite=config.lite, limit=config.limit,
        workers=config.workers, concurrency=config.concurrency, executor=config.executor,
        ray_address=config.ray_address, seed=config.seed, llm_cache=config.cache_path,
        system_options=dict(config.options.get(cell.system, {})),
    )
    started = time.perf_counter()
    try:
        summary = run_benchmark(run_config, progress=False)
        outcome.status = "done" if not summary.errors else "incomplete"
        if summary.errors:
            outcome.message = f"{summary.errors} question(s) failed; re-run the sweep to retry them"
    except RunIncomplete as exc:
        summary = None
        outcome.status, outcome.message = "incomplete", str(exc)
    except (RunError, ValueError, KeyError, OSError) as exc:
        outcome.status, outcome.message = "failed", str(exc)
        outcome.wall_s = time.perf_counter() - started
        return outcome
    if summary is not None:
        outcome.answered_now, outcome.already_done = summary.questions_answered, summary.questions_skipped
    if answers_with_llm(cell.backbone):
        judge_folder(cell.run_dir, config.judge, backbone=cell.backbone, model=settings.model,
                     base_url=settings.base_url, llm_cache=config.cache_path)
    else:
        judge_folder(cell.run_dir, config.judge, llm_cache=config.cache_path)
    if config.audit:
        try:
            audit_run(cell.run_dir, data=Path(data))
        except AuditError as exc:
            outcome.message = (outcome.message + "; " if outcome.message else "") + f"residue audit failed: {exc}"
    outcome.wall_s = time.perf_counter() - started
    return outcome


def run_sweep(config: SweepConfig, *, echo: Callable[[str], None] = lambda _: None,
              report: bool = True) -> SweepResult:
    """Every cell (``parallel`` at once), then one report over the cells that have answers."""
    from bemula.pipeline import prepare_data

    started = time.perf_counter()
    config.out.mkdir(parents=True, exist_ok=True)
    data_paths: dict[str, str] = {}
    for dataset in config.datasets:  # generated once, before any cell needs it
        path, generated, _ = prepare_data(dataset, seed=config.seed, lite=config.lite, echo=echo)
        data_paths[dataset] = str(path)
    grid = cells(config)
    result = SweepResult(config, [CellOutcome(c) for c in grid])
    _write_state(result)
    echo(f"sweep: {len(grid)} cells ({len(config.datasets)} datasets × {len(config.backbones)} backbones × "
         f"{len(config.systems)} systems), {config.parallel} at once → {config.out}/")
    by_cell = {o.cell: o for o in result.outcomes}

    def finished(outcome: CellOutcome) -> None:
        by_cell[outcome.cell].__dict__.update(outcome.__dict__)
        _write_state(result)
        tail = f" — {outcome.message}" if outcome.message else ""
        echo(f"  {outcome.cell.name}: {outcome.status}, {outcome.answered_now} answered now, "
             f"{outcome.already_done} already done, {outcome.wall_s:.1f} s{tail}")

    if config.parallel == 1 or len(grid) == 1:
        for cell in grid:
            finished(run_cell(config, cell, data_paths[cell.dataset]))
    else:
        pool = ProcessPoolExecutor(max_workers=min(config.parallel, len(grid)), mp_context=mp.get_context("spawn"))
        try:
            futures: dict[Future[CellOutcome], Cell] = {
                pool.submit(run_cell, config, cell, data_paths[cell.dataset]): cell for cell in grid
            }
            for future in as_completed(futures):
                cell = futures[future]
                try:
                    finished(future.result())
                except Exception as exc:  # noqa: BLE001 - a cell's process died; the others go on
                    finished(CellOutcome(cell, status="failed", message=f"{type(exc).__name__}: {exc}"))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)

    runs = [o.cell for o in result.outcomes if (o.cell.run_dir / "answers.jsonl").exists()]
    if report and runs:
        from bemula.report.build import write_report

        result.report_dir = config.out / "report"
        labels = [_label(cell, len(config.datasets) > 1) for cell in runs]
        built = write_report([c.run_dir for c in runs], result.report_dir, judge=config.judge,
                             n_resamples=config.resamples, labels=labels, title="BEMULA sweep")
        result.scores = [r.scores for r in built.runs]
        result.differences = built.differences
    result.wall_s = time.perf_counter() - started
    _write_state(result)
    return result


def _label(cell: Cell, with_dataset: bool) -> str:
    return f"{cell.system} ({cell.backbone})" + (f" · {cell.dataset_label}" if with_dataset else "")


def _write_state(result: SweepResult) -> None:
    from bemula.llm.client import redact_url

    config = result.config.model_dump(mode="json")
    for settings in config["backbone"].values():  # user:password@ and ?api-key= stay out of files
        if settings.get("base_url"):
            settings["base_url"] = redact_url(settings["base_url"])
    atomic_write_json(result.config.out / SWEEP_STATE, {
        "config": config,
        "cells": [
            {"dataset": o.cell.dataset, "backbone": o.cell.backbone, "system": o.cell.system,
             "run_dir": str(o.cell.run_dir), "status": o.status, "message": o.message,
             "answered_now": o.answered_now, "already_done": o.already_done, "wall_s": round(o.wall_s, 3)}
            for o in result.outcomes
        ],
        "report": str(result.report_dir) if result.report_dir else None,
        "wall_s": round(result.wall_s, 3),
    })
