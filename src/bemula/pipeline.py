"""``bemula.evaluate()``: the whole chain as one library call.

generate-or-load the benchmark → run each system (resumable run folders) → judge → residue
audit → score with bootstrap intervals → report. ``bemula eval`` is a thin shell over it, and
so are the benchmarks; a notebook gets typed results back instead of a printed table::

    import bemula

    result = bemula.evaluate(systems=["naive-rag", "erasemem"], data="handwritten")
    for run in result.runs:
        print(run.system, run.scores["score"].value)

Every stage reads and writes through the run-folder contract (``bemula.runfolder``), so an
interrupted ``evaluate()`` resumes where it stopped when called again with the same ``out``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bemula.generate.editions import DEFAULT_EDITION
from bemula.metrics.bootstrap import N_RESAMPLES

if TYPE_CHECKING:  # pragma: no cover
    from bemula.audit import AuditSummary
    from bemula.metrics.compute import RunScores
    from bemula.run.runner import RunSummary
    from bemula.systems.base import MemorySystem

Echo = Callable[[str], None]


def _quiet(_: str) -> None:
    return None


class EvaluateError(RuntimeError):
    """The evaluation cannot go on (no runnable system, no answers at all); one line."""


@dataclass
class SystemRun:
    """One system's part of an evaluation."""

    system: str
    run_dir: Path
    summary: RunSummary | None = None
    #: why the run failed or was incomplete ("" when every question was answered)
    error: str = ""
    scores: RunScores | None = None
    audit: AuditSummary | None = None

    @property
    def complete(self) -> bool:
        return not self.error and self.summary is not None and not self.summary.instances_failed \
            and not self.summary.errors


@dataclass
class EvalResult:
    """What ``evaluate()`` did and found."""

    data: Path
    out: Path
    generated: bool
    runs: list[SystemRun]
    report_dir: Path | None
    judge: str
    backbone: str
    #: lines a user should read (systems not run here, data of another edition, audit failures)
    notes: list[str] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def scored(self) -> list[SystemRun]:
        return [r for r in self.runs if r.scores is not None]

    @property
    def all_scores(self) -> list[RunScores]:
        """The scores of every scored system, in evaluation order."""
        return [r.scores for r in self.runs if r.scores is not None]

    @property
    def incomplete(self) -> list[str]:
        return [r.system for r in self.runs if not r.complete]

    def scores(self, system: str) -> RunScores:
        for run in self.runs:
            if run.system == system and run.scores is not None:
                return run.scores
        raise KeyError(f"no scores for {system!r}; scored: {', '.join(r.system for r in self.scored)}")


def default_systems(backbone: str = "probe") -> tuple[list[str], list[str]]:
    """Registered systems runnable here with ``backbone`` (installed; no LLM needed when the
    backbone is the probe), in bemula's own order; and one note per system left out."""
    from bemula.backbones import answers_with_llm
    from bemula.systems import BUILTIN_MODULES
    from bemula.systems.base import registry

    def rank(item: tuple[int, tuple[str, Any]]) -> tuple[int, int]:
        """Built-in modules' order first (not import order, which varies), then the rest."""
        position, (_, info) = item
        module = getattr(getattr(info, "factory", None), "__module__", "")
        builtin = [i for i, m in enumerate(BUILTIN_MODULES) if module == m or module.startswith(m + ".")]
        return (builtin[0] if builtin else len(BUILTIN_MODULES), position)

    runnable, notes = [], []
    for _, (name, info) in sorted(enumerate(registry().items()), key=rank):
        if not info.available:
            notes.append(f"{name}: not installed ({info.install_hint}), skipped")
        elif not answers_with_llm(backbone) and info.needs not in ("", "nothing"):
            notes.append(f"{name}: needs {info.needs}, skipped with the offline probe backbone")
        else:
            runnable.append(name)
    return runnable, notes


def prepare_data(
    data: Path | str | None = None,
    *,
    edition: int = DEFAULT_EDITION,
    seed: int = 0,
    lite: bool = False,
    echo: Echo = _quiet,
) -> tuple[Path, bool, list[str]]:
    """The dataset folder to evaluate: ``data`` (a folder, or a bundled dataset's name), or
    the edition's default folder, generated there when missing. Returns (folder, generated,
    notes)."""
    from bemula.dataset import MANIFEST_NAME, read_manifest, resolve_data
    from bemula.generate.editions import EDITIONS, default_data_dir, generate, manifest_edition

    if edition not in EDITIONS:
        raise EvaluateError(f"unknown edition {edition}; use 1 or 2")
    default = data is None
    path = resolve_data(data if data is not None else default_data_dir(edition))
    notes: list[str] = []
    if not (path / MANIFEST_NAME).exists():
        echo(f"generating the benchmark (edition {edition}, seed {seed}{', Lite' if lite else ''}) into {path}/ …")
        t0 = time.perf_counter()
        manifest = generate(seed, path, edition=edition, lite=lite)
        echo(f"  {len(manifest.instances)} instances in {time.perf_counter() - t0:.1f} s")
        return path, True, notes
    if default:
        found = manifest_edition(read_manifest(path).generator)
        if found is not None and found != edition:
            notes.append(f"{path} holds edition {found} of the benchmark (generated earlier), not edition {edition}; "
                         f"running it as it is. Move it aside to get edition {edition}, or pass --edition {found}.")
    return path, False, notes


def _system_names(systems: Sequence[str | type[MemorySystem]], workers: int) -> list[str]:
    """Names for ``systems``; a ``MemorySystem`` class is registered on the spot (your own
    memory class needs no registry edit and no environment variable)."""
    from bemula.systems.base import SYSTEMS, MemorySystem, register

    names = []
    for system in systems:
        if isinstance(system, str):
            names.append(system)
            continue
        if not (isinstance(system, type) and issubclass(system, MemorySystem)):
            raise EvaluateError(f"{system!r} is neither a system name nor a MemorySystem subclass")
        if not system.name:
            raise EvaluateError(f"{system.__qualname__} has no name (set the class attribute `name`)")
        if workers > 1 and system.__module__ == "__main__":
            raise EvaluateError(f"{system.__qualname__} is defined in __main__, which worker processes cannot "
                                "import: use workers=1, or define it in a module")
        known = SYSTEMS.entries().get(system.name)
        if known is not None and known.factory is not system:
            raise EvaluateError(f"system name {system.name!r} is taken ({known.source}); give your class another name")
        register(system)
        names.append(system.name)
    return names


def evaluate(
    systems: Sequence[str | type[MemorySystem]] | None = None,
    *,
    data: Path | str | None = None,
    out: Path | str | None = None,
    backbone: str = "probe",
    model: str | None = None,
    base_url: str | None = None,
    judge: str = "rules",
    edition: int = DEFAULT_EDITION,
    lite: bool = False,
    workers: int = 1,
    seed: int = 0,
    resamples: int = N_RESAMPLES,
    system_options: dict[str, dict[str, Any]] | None = None,
    validate: bool = True,
    redo: bool = False,
    audit: bool = True,
    report: bool = True,
    progress: bool = False,
    echo: Echo = _quiet,
    note: Echo | None = None,
) -> EvalResult:
    """Evaluate memory systems end to end and return typed results.

    ``systems``: registered names or ``MemorySystem`` subclasses (default: every registered
    system runnable here with ``backbone``).
    ``data``: a dataset folder or a bundled dataset's name (default: the edition's benchmark,
    generated when missing). ``out``: where run folders and the report go (default:
    ``runs/eval``). ``system_options``: per system, its ``-o`` options. ``echo`` receives
    progress lines, ``note`` the lines a user should read (default: ``echo``).

    A system whose run fails is recorded (``SystemRun.error``) and the others go on; an
    unknown system, bad options or data the validator refuses raise before any work.
    """
    from bemula.audit import AuditError, audit_run
    from bemula.backbones import answers_with_llm
    from bemula.dataset import DatasetError
    from bemula.judge.pipeline import describe_summary, judge_folder
    from bemula.judge.registry import JUDGES
    from bemula.run.runner import RunConfig, RunError, run_benchmark
    from bemula.runfolder.folder import RunFolderError
    from bemula.runfolder.meta import MetaError, RunFolderMismatch
    from bemula.systems.base import SYSTEMS

    note = note or echo
    started = time.perf_counter()
    if judge not in JUDGES:
        raise EvaluateError(f"unknown judge {judge!r}; known: {', '.join(sorted(JUDGES.entries()))}")
    if systems is None:
        chosen, skipped = default_systems(backbone)
        if skipped:  # one line, not one per system it was never going to run
            note(f"not run here (not installed, or they need an LLM backbone): "
                 f"{', '.join(n.split(':', 1)[0] for n in skipped)}; `bemula systems` says how to add each")
    else:
        chosen = _system_names(systems, workers)
        unknown = [s for s in chosen if s not in SYSTEMS]
        if unknown:
            raise EvaluateError(f"unknown system(s) {', '.join(unknown)}; known: {', '.join(sorted(SYSTEMS.entries()))}")
    if not chosen:
        raise EvaluateError("no runnable system (see `bemula systems`)")
    options = system_options or {}
    for name in options:
        if name not in chosen:
            raise EvaluateError(f"options given for {name!r}, which is not evaluated")

    data_path, generated, data_notes = prepare_data(data, edition=edition, seed=seed, lite=lite, echo=echo)
    for line in data_notes:
        note(line)
    out_path = Path(out) if out is not None else Path("runs") / ("eval-lite" if lite else "eval")
    result = EvalResult(data=data_path, out=out_path, generated=generated, runs=[], report_dir=None,
                        judge=judge, backbone=backbone, notes=data_notes)

    for system in chosen:
        run = SystemRun(system=system, run_dir=out_path / system)
        result.runs.append(run)
        echo(f"running {system} ({backbone} backbone) → {run.run_dir}/")
        config = RunConfig(data=data_path, out=run.run_dir, system=system, backbone=backbone, model=model,
                           base_url=base_url, lite=lite, workers=workers, seed=seed, validate=validate,
                           system_options=dict(options.get(system, {})), redo=redo)
        t0 = time.perf_counter()
        try:
            run.summary = run_benchmark(config, progress=progress, note=note)
        except (RunError, RunFolderMismatch, MetaError, DatasetError, RunFolderError, ValueError, KeyError) as exc:
            run.error = f"run failed: {exc}"
            note(f"{system}: {run.error}; skipped")
            continue
        summary = run.summary
        if summary.instances_failed:
            run.error = f"{len(summary.instances_failed)} instance(s) failed: {', '.join(summary.instances_failed[:5])}"
            note(f"{system}: {run.error}")
        elif summary.errors:
            run.error = f"{summary.errors} question(s) failed"
        echo(f"  {summary.questions_answered} answered now, {summary.questions_skipped} already done, "
             f"{summary.errors} errors, {time.perf_counter() - t0:.1f} s")
    answered = [r for r in result.runs if r.summary is not None]
    if not answered:
        raise EvaluateError("no system produced answers")

    for run in answered:
        if answers_with_llm(backbone):  # an LLM judge uses the run's own endpoint
            judged, counts = judge_folder(run.run_dir, judge, backbone=backbone, model=model, base_url=base_url)
        else:  # with the probe, an LLM judge runs on the embedded model
            judged, counts = judge_folder(run.run_dir, judge)
        echo(f"  {describe_summary(judged, counts)}")
        if audit:
            try:
                run.audit = audit_run(run.run_dir, data=data_path)
            except AuditError as exc:
                line = f"{run.run_dir.name}: residue audit failed: {exc}"
                result.notes.append(line)
                note(line)
    if report:
        from bemula.report.build import write_report

        result.report_dir = out_path / "report"
        built = write_report([r.run_dir for r in answered], result.report_dir, judge=judge, n_resamples=resamples)
        for run, scored in zip(answered, built.runs, strict=True):
            run.scores = scored.scores
    else:
        from bemula.metrics.run import score_run
        from bemula.runfolder.folder import RunFolder

        for run in answered:
            run.scores = score_run(RunFolder.open(run.run_dir), judge, n_resamples=resamples)
    result.wall_s = time.perf_counter() - started
    return result
