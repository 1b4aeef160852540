"""``bemula run``: one memory system × one backbone over a dataset, resumable and parallel.

Flow: open the dataset and pick instances (``--lite``/``--instances``/``--limit``) → check or
write ``meta.json`` → read ``answers.jsonl`` to find what is finished → hand each instance
with missing answers to a worker (``run_instance``: ingest turn by turn, fork at the shared
prefix, dump the stores, answer) → append the answers as they come, fsynced per batch.

Parallelism is over instances, in separate **processes** (``--workers``): memory systems are
CPU-bound Python and some keep process-wide state, so threads would neither speed them up
nor keep them apart. Only the parent writes ``answers.jsonl``; workers send finished batches
over a queue. With ``--workers 1`` everything runs in this process.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod
import signal
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bemula.agent import prompt_hash
from bemula.backbones import BACKBONE_REGISTRY, Backbone, answers_with_llm, is_embedded, open_backbone
from bemula.dataset import Dataset, read_manifest
from bemula.model import Instance, Version
from bemula.registry import OptionsError
from bemula.run.inflight import AnswersInFlight
from bemula.run.instance import InstanceResult, run_instance
from bemula.runfolder.dumps import write_receipts
from bemula.runfolder.folder import finished_keys, read_answers
from bemula.runfolder.jsonl import JsonlAppender, atomic_write_json
from bemula.runfolder.lock import RunFolderBusy, RunFolderLock
from bemula.runfolder.meta import (
    DatasetInfo,
    Invocation,
    RunIdentity,
    RunMeta,
    SystemInfoMeta,
    check_identity,
    code_version,
    git_commit,
    now_utc,
    package_versions,
    read_meta,
    result_inputs,
    write_meta,
)
from bemula.runfolder.names import ANSWERS_NAME, FAILURES_NAME, META_NAME, SUMMARY_NAME
from bemula.runfolder.records import AnswerRecord
from bemula.systems.base import SystemContext, create_system, registry

#: validator codes that make a dataset unsafe to run at all: unreadable or tampered files,
#: ids that clash or point nowhere, versions that do not line up. Checked even with
#: ``--no-validate``; by default every error-level code (``bemula.validate.report``) stops a
#: run too, since it makes scoring wrong. Warnings (wording heuristics) never do.
BLOCKING_CODES = frozenset({
    "json", "schema", "file-missing", "file-type", "manifest-entry", "checksum",
    "manifest-checksum", "manifest-count", "format-version", "lite-ids", "duplicate-id",
    "unknown-ref", "version-misaligned",
})


class RunError(RuntimeError):
    """A run could not start or finish; the message is one line saying why."""


class RunInterrupted(RunError):
    """Ctrl-C: workers stopped, every finished answer kept; the same command resumes."""


class RunIncomplete(RunError):
    """The run ended, but some instances failed; what finished is kept (re-run to retry)."""


@dataclass
class RunConfig:
    data: Path
    out: Path
    system: str
    backbone: str = "probe"
    lite: bool = False
    instances: list[str] | None = None
    limit: int | None = None
    workers: int = 1
    seed: int = 0
    model: str | None = None
    base_url: str | None = None
    index: str = "bm25"
    context_window: int | None = None
    llm_cache: Path | None = None
    system_options: dict[str, Any] = field(default_factory=dict)
    #: passed to the LLM client (``timeout_s``, ``max_retries``, ``concurrency``)
    llm_options: dict[str, Any] = field(default_factory=dict)
    keep_workdirs: bool = False
    #: refuse data with any validator error (False: only the integrity codes, BLOCKING_CODES)
    validate: bool = True
    #: answer every selected question again (new records are appended; the last one counts)
    redo: bool = False
    #: backbone calls in flight at once per worker (LLM backbones; the probe ignores it)
    concurrency: int = 1
    #: where instances run: "local" (this process, or ``workers`` processes) or "ray"
    executor: str = "local"
    #: a Ray cluster to join (``ray.init(address=...)``); None starts a local Ray of ``workers`` CPUs
    ray_address: str | None = None
    #: times Ray runs a task again after its worker died
    ray_retries: int = 3

    def identity(self, dataset_checksum: str) -> RunIdentity:
        return RunIdentity(
            dataset_checksum=dataset_checksum,
            system=self.system,
            backbone=self.backbone,
            model=self.model,
            index=self.index,
            system_options=dict(sorted(self.system_options.items())),
            inputs=result_inputs(),
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunConfig:
        """The config a run recorded in ``meta.json`` (unknown keys of other versions dropped)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        for key in ("data", "out", "llm_cache"):
            if values.get(key) is not None:
                values[key] = Path(values[key])
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("data", "out", "llm_cache"):
            if data[key] is not None:
                data[key] = str(data[key])
        if data["base_url"]:
            # user:password@ and ?api-key= never reach meta.json
            from bemula.llm.client import redact_url

            data["base_url"] = redact_url(data["base_url"])
        return data


@dataclass
class RunSummary:
    out: Path
    instances: int = 0  # selected
    instances_skipped: int = 0  # already complete
    instances_failed: list[str] = field(default_factory=list)
    questions_total: int = 0
    questions_answered: int = 0  # this invocation
    questions_skipped: int = 0  # already finished
    errors: int = 0  # answers whose backbone failed (re-attempted on resume)
    turns_ingested: int = 0
    turns_total: int = 0
    turns_saved_by_fork: int = 0
    ingest_s: float = 0.0
    answer_s: float = 0.0
    wall_s: float = 0.0
    #: lines for the user (e.g. the system's code changed since the stored answers)
    notes: list[str] = field(default_factory=list)

    @property
    def share_saved(self) -> float:
        return self.turns_saved_by_fork / self.turns_total if self.turns_total else 0.0

    def add(self, r: InstanceResult) -> None:
        self.errors += r.errors
        self.turns_ingested += r.turns_ingested
        self.turns_total += r.turns_total
        self.turns_saved_by_fork += r.turns_saved
        self.ingest_s += r.ingest_s
        self.answer_s += r.answer_s

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["out"] = str(self.out)
        data["share_saved"] = round(self.share_saved, 4)
        for key in ("ingest_s", "answer_s", "wall_s"):
            data[key] = round(data[key], 3)
        return data


@dataclass
class _Task:
    instance_id: str
    todo: dict[Version, list[str]]

    @property
    def size(self) -> int:
        return sum(len(v) for v in self.todo.values())


def load_instance(dataset: Dataset, instance_id: str) -> Instance:
    """An instance, validated straight from JSON bytes (faster than ``Dataset.load``); on
    any problem ``Dataset.load`` runs instead, for its error naming file and location."""
    try:
        return Instance.model_validate_json(dataset.read_bytes(instance_id))
    except (ValidationError, OSError):
        return dataset.load(instance_id)


def _plan(dataset: Dataset, ids: list[str], done: set[tuple[str, str]]) -> tuple[list[_Task], int, int]:
    """Tasks with the questions still to answer; also (questions in total, already done)."""
    tasks, total, skipped = [], 0, 0
    for instance_id in ids:
        refs = dataset.view(instance_id)  # no dialogues: planning must not pay for validating turns
        todo: dict[Version, list[str]] = {Version.FORGET: [], Version.CONTROL: []}
        for q in refs.questions:
            total += 1
            if (instance_id, q.id) in done:
                skipped += 1
            else:
                todo[q.version].append(q.id)
        tasks.append(_Task(instance_id, {v: qids for v, qids in todo.items() if qids}))
    return tasks, total, skipped


def system_context(config: RunConfig, workdir: Path, backbone: Backbone, llm: Any) -> SystemContext:
    return SystemContext(
        workdir=workdir,
        llm=llm,
        seed=config.seed,
        options=dict(config.system_options),
        context_window_tokens=backbone.context_window_tokens,
        index_kind=config.index,
    )


def llm_kwargs(config: RunConfig) -> dict[str, Any]:
    kwargs = {
        "model": config.model,
        "base_url": config.base_url,
        "cache_path": config.llm_cache,
        **config.llm_options,
    }
    if config.concurrency > 1:  # the client's bound per endpoint must let the answer pool through
        kwargs["concurrency"] = max(int(kwargs.get("concurrency") or 1), config.concurrency)
    return kwargs


def answer_concurrency(config: RunConfig) -> int:
    """Backbone calls in flight per worker: only an LLM backbone gains from more than one."""
    return config.concurrency if answers_with_llm(config.backbone) else 1


def _check_system(config: RunConfig) -> None:
    if config.backbone not in BACKBONE_REGISTRY:
        known = ", ".join(BACKBONE_REGISTRY.entries())
        raise RunError(f"unknown backbone {config.backbone!r}; use one of: {known}")
    systems = registry()
    if config.system not in systems:
        raise RunError(f"unknown system {config.system!r}; known: {', '.join(sorted(systems))} (see `bemula systems`)")
    info = systems[config.system]
    if not info.available or info.factory is None:
        raise RunError(f"system {config.system!r} is not installed: {info.install_hint}")
    if info.factory.requires_llm and not answers_with_llm(config.backbone):
        raise RunError(
            f"system {config.system!r} needs an LLM; use --backbone local or --backbone openai"
        )
    try:
        info.validate_options(config.system_options)
    except OptionsError as exc:
        raise RunError(f"system {exc}") from None


EXECUTORS = ("local", "ray")


def _check_executor(config: RunConfig) -> None:
    if config.executor not in EXECUTORS:
        raise RunError(f"unknown executor {config.executor!r}; use one of: {', '.join(EXECUTORS)}")
    if config.ray_retries < 0:
        raise RunError(f"--ray-retries must be >= 0, got {config.ray_retries}")
    if config.executor != "ray":
        if config.ray_address:
            raise RunError("--ray-address needs --executor ray")
        return
    from bemula.run.ray_executor import ray_module

    ray_module()  # installed, or a one-line error before anything is written
    if config.ray_address and is_embedded(config.backbone):
        raise RunError("--backbone local serves the model on this machine's loopback; a Ray cluster's "
                       "nodes cannot reach it (serve it with llama-server and use --backbone openai)")


def _build_meta(config: RunConfig, dataset: Dataset, backbone: Backbone, existing: RunMeta | None,
                dataset_check: dict[str, Any] | None = None) -> RunMeta:
    info = registry()[config.system]
    code = code_version(info.factory) if info.factory is not None else ""
    invocation = Invocation(started=now_utc(), config=config.to_json(), dataset_check=dataset_check or {},
                            redo=config.redo, code_version=code)
    if existing is not None:
        meta = existing.model_copy(deep=True)
        if config.redo:  # every answer is rewritten by this code
            meta.system.code_version = code
    else:
        meta = RunMeta(
            created=invocation.started,
            identity=config.identity(dataset.checksum),
            config=config.to_json(),
            seed=config.seed,
            dataset=DatasetInfo(
                path=str(dataset.root.resolve()),
                checksum=dataset.checksum,
                name=dataset.manifest.name,
                format_version=dataset.manifest.format_version,
                generator=dataset.manifest.generator,
            ),
            system=SystemInfoMeta(
                name=info.name,
                description=info.description,
                version=info.version,
                supports_fork=bool(info.factory and info.factory.supports_fork),
                code_version=code,
            ),
            backbone=backbone.describe(),
            agent_prompt_hash=prompt_hash(),
            packages=package_versions(),
            git=git_commit(),
        )
    meta.invocations.append(invocation)
    return meta


def _write_estimate(config: RunConfig) -> None:
    """What an LLM run is expected to cost (``estimate.json``), for the report to set beside
    what it spent. Runs with no LLM anywhere cost nothing and get none."""
    from bemula.run.estimate import EstimateError, estimate_run, write_run_estimate

    if not answers_with_llm(config.backbone):  # a system that needs an LLM needs an LLM backbone
        return
    try:
        estimate = estimate_run(config.system, data=config.data, backbone=config.backbone, model=config.model,
                                lite=config.lite, instances=config.instances, limit=config.limit,
                                context_window=config.context_window)
    except EstimateError:
        return  # an estimate is a courtesy; the run does not depend on it
    write_run_estimate(Path(config.out), estimate)


def code_change_note(out: Path, existing: RunMeta, current: str) -> str | None:
    """A line saying that the folder's answers came from other code of the system, or None."""
    stored = existing.system.code_version
    if not stored or not current or stored == current:
        return None
    return (f"{out / META_NAME}: the answers here came from other code of {existing.identity.system!r} "
            f"({stored[:8]}…, now {current[:8]}…); they are kept — pass --redo to answer everything again")


def run_benchmark(config: RunConfig, *, progress: bool = True,
                  note: Callable[[str], None] | None = None) -> RunSummary:
    """Run (or resume) ``config``; returns what this invocation did. ``note`` receives the
    lines a user should read before the run goes on (the system's code changed)."""
    started = time.perf_counter()
    if config.workers < 1:
        raise RunError(f"--workers must be >= 1, got {config.workers}")
    if config.concurrency < 1:
        raise RunError(f"--concurrency must be >= 1, got {config.concurrency}")
    _check_executor(config)
    _check_system(config)
    dataset = Dataset.open(config.data)
    dataset_check = check_dataset(config.data, errors=config.validate)
    try:
        ids = dataset.select(lite=config.lite, instances=config.instances, limit=config.limit)
    except KeyError as exc:
        raise RunError(f"{config.data}: {exc.args[0]}") from None
    out = Path(config.out)
    existing = read_meta(out)
    summary = RunSummary(out=out, instances=len(ids))
    if existing is not None:
        check_identity(out, existing, config.identity(dataset.checksum))
        factory = registry()[config.system].factory
        changed = None if config.redo or factory is None else code_change_note(out, existing, code_version(factory))
        if changed:
            summary.notes.append(changed)
            if note is not None:
                note(changed)
    elif (out / ANSWERS_NAME).exists():
        raise RunError(f"{out}: has {ANSWERS_NAME} but no meta.json; refusing to mix runs, use a new --out")

    with ExitStack() as stack:
        try:
            stack.enter_context(RunFolderLock(out))
        except RunFolderBusy as exc:
            raise RunError(str(exc)) from None
        try:
            backbone, llm = stack.enter_context(
                open_backbone(config.backbone, context_window=config.context_window, **llm_kwargs(config))
            )
        except Exception as exc:  # noqa: BLE001 - the LLM layer's errors are one line already
            if {cls.__name__ for cls in type(exc).__mro__} & {"LLMError", "LLMUnavailable"}:
                raise RunError(f"backbone {config.backbone!r}: {exc}") from None
            raise
        write_meta(out, _build_meta(config, dataset, backbone, existing, dataset_check))
        if existing is None:
            _write_estimate(config)
        done = set() if config.redo else finished_keys(read_answers(out / ANSWERS_NAME))
        tasks, summary.questions_total, summary.questions_skipped = _plan(dataset, ids, done)
        todo = [t for t in tasks if t.size]
        summary.instances_skipped = len(tasks) - len(todo)
        writer = stack.enter_context(JsonlAppender[AnswerRecord](out / ANSWERS_NAME))
        pending = sum(t.size for t in todo)
        bar = stack.enter_context(_Progress(pending, enabled=progress and pending > 0))  # no empty bar on resume
        try:
            if config.executor == "ray" and todo:
                from bemula.run.ray_executor import run_ray

                run_ray(config, dataset, todo, _worker_backbone_spec(config, llm), writer, bar, summary)
            elif config.workers == 1 or len(todo) <= 1:
                _run_here(config, dataset, todo, backbone, llm, writer, bar, summary)
            else:
                _run_pool(config, todo, backbone, llm, writer, bar, summary)
        except KeyboardInterrupt:
            _write_summary(out, summary)
            raise RunInterrupted(
                f"interrupted: {summary.questions_answered} answers written this time and "
                f"{summary.questions_skipped} from before are kept in {out / ANSWERS_NAME}; "
                "re-run the same command to resume"
            ) from None
    summary.wall_s = time.perf_counter() - started
    _write_summary(out, summary)
    try:
        write_receipts(out)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    if summary.instances_failed:
        raise RunIncomplete(
            f"{len(summary.instances_failed)} instance(s) failed: {', '.join(summary.instances_failed)} "
            f"(tracebacks in {out / FAILURES_NAME}); finished answers are kept, re-run the same command to retry"
        )
    return summary


def check_dataset(root: Path, *, errors: bool = True, show: int = 10) -> dict[str, Any]:
    """Refuse a dataset the validator finds unsafe to run (``BLOCKING_CODES``) or, with
    ``errors``, that has any error-level violation (scoring would be wrong); the refusal
    quotes the validator's own lines. Returns what was verified, for ``meta.json``: the
    manifest's checksum is recorded only after every file was checked against it."""
    from bemula.validate import validate_dataset

    report = validate_dataset(root)
    refused = [v for v in report.violations
               if v.code in BLOCKING_CODES or (errors and v.severity == "error")]
    if refused:
        lines = "\n".join(f"  {v}" for v in refused[:show])
        more = f"\n  ... and {len(refused) - show} more" if len(refused) > show else ""
        bypass = "" if all(v.code in BLOCKING_CODES for v in refused) else "; --no-validate runs it anyway"
        raise RunError(f"dataset refused: {len(refused)} validation error(s) in {root} "
                       f"(bemula validate {root} lists them{bypass}):\n{lines}{more}")
    checksum = read_manifest(root).checksum
    return {"checked": "errors" if errors else "integrity", "checksum": checksum,
            "errors": len(report.errors), "warnings": len(report.warnings)}


def _write_summary(out: Path, summary: RunSummary) -> None:
    atomic_write_json(out / SUMMARY_NAME, summary.to_json())


# --------------------------------------------------------------------------- in-process


def _run_here(
    config: RunConfig,
    dataset: Dataset,
    tasks: list[_Task],
    backbone: Backbone,
    llm: Any,
    writer: JsonlAppender[AnswerRecord],
    bar: _Progress,
    summary: RunSummary,
) -> None:
    """Every instance in this process. With ``--concurrency N`` the backbone calls of one
    instance are still in flight while the next is ingested (``AnswersInFlight``)."""

    def emit(records: list[AnswerRecord]) -> None:
        summary.questions_answered += writer.append(records)
        bar.advance(len(records))

    def settle(answers: AnswersInFlight) -> None:
        for tracker in answers.finished():
            if tracker.error is None:
                summary.add(tracker.result)
                continue
            if _is_fatal(tracker.error):
                raise RunError(f"{type(tracker.error).__name__}: {tracker.error}") from None
            _record_failure(Path(config.out), tracker.instance_id, tracker.error, tracker.error_trace, summary, bar)

    answers = AnswersInFlight(answer_concurrency(config), emit)
    try:
        for task in tasks:
            bar.describe(task.instance_id)
            tracker = answers.track(InstanceResult(task.instance_id))
            try:
                run_instance(
                    load_instance(dataset, task.instance_id),
                    task.todo,
                    make_system=lambda wd: create_system(config.system, system_context(config, wd, backbone, llm)),
                    backbone=backbone,
                    system_name=config.system,
                    out=Path(config.out),
                    emit=emit,
                    keep_workdir=config.keep_workdirs,
                    answers=answers,
                    tracker=tracker,
                )
            except Exception as exc:  # noqa: BLE001 - one broken instance must not lose the others
                answers.abandon(tracker)
                if _is_fatal(exc):
                    raise RunError(f"{type(exc).__name__}: {exc}") from None
                _record_failure(Path(config.out), task.instance_id, exc, traceback.format_exc(), summary, bar)
                continue
            answers.seal(tracker)
            settle(answers)
        answers.wait()
        settle(answers)
    except BaseException:
        answers.close(cancel=True)  # finished answers are written; calls not started are dropped
        raise
    answers.close()


def _is_fatal(exc: BaseException) -> bool:
    """Errors that no other instance can avoid either (the LLM endpoint is unreachable,
    the system cannot be created here): stop the run instead of failing every instance."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    return bool(names & {"LLMUnavailable", "LLMAuthError", "SystemUnavailable"})


def _record_failure(
    out: Path, instance_id: str, exc: BaseException | str, details: str, summary: RunSummary, bar: _Progress
) -> None:
    message = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    summary.instances_failed.append(instance_id)
    bar.note(f"instance {instance_id} failed: {message}")
    _failure_log(out, instance_id, details)


# --------------------------------------------------------------------------- process pool

_worker_state: dict[str, Any] = {}


def _worker_backbone_spec(config: RunConfig, llm: Any) -> dict[str, Any]:
    """How a worker opens the same backbone. The embedded local model is started once, by
    the parent; workers talk to its loopback server as an OpenAI-compatible endpoint."""
    spec: dict[str, Any] = {
        "open_as": config.backbone,
        "name": config.backbone,
        "context_window": config.context_window,
        "llm_kw": llm_kwargs(config),
    }
    if is_embedded(config.backbone) and llm is not None:
        settings = llm.config  # the parent's server: same URL, same cache namespace
        spec["open_as"] = "openai"
        spec["context_window"] = settings.context_window
        spec["llm_kw"] = {
            "model": settings.model,
            "base_url": settings.base_url,
            "cache_path": config.llm_cache,
            "cache_namespace": settings.cache_namespace,
            **config.llm_options,
        }
    return spec


def _exit_with_parent(parent_pid: int) -> None:
    """A worker whose parent was killed (``kill -9``) has no one to hand answers to: stop."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent_pid:
            os._exit(1)


def _worker_init(config: RunConfig, spec: dict[str, Any], messages: Any, parent_pid: int) -> None:
    # Ctrl-C reaches the whole process group; only the parent acts on it (it stops the
    # workers and keeps their answers), so a worker neither dies mid-write nor prints a traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_parent, args=(parent_pid,), daemon=True).start()
    stack = ExitStack()
    backbone, llm = stack.enter_context(
        open_backbone(spec["open_as"], context_window=spec["context_window"], **spec["llm_kw"])
    )
    backbone.name = spec["name"]
    _worker_state.update(config=config, backbone=backbone, llm=llm, messages=messages, stack=stack)
    import atexit

    atexit.register(stack.close)


def _worker_run(task: _Task) -> None:
    config: RunConfig = _worker_state["config"]
    backbone: Backbone = _worker_state["backbone"]
    llm = _worker_state["llm"]
    messages = _worker_state["messages"]
    dataset = Dataset.open(config.data)
    try:
        instance = load_instance(dataset, task.instance_id)
        result = run_instance(
            instance,
            task.todo,
            make_system=lambda wd: create_system(config.system, system_context(config, wd, backbone, llm)),
            backbone=backbone,
            system_name=config.system,
            out=Path(config.out),
            emit=lambda records: messages.put(("records", task.instance_id, records)),
            keep_workdir=config.keep_workdirs,
            concurrency=answer_concurrency(config),
        )
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which decides
        kind = "fatal" if _is_fatal(exc) else "failed"
        messages.put((kind, task.instance_id, f"{type(exc).__name__}: {exc}", traceback.format_exc()))
        return
    messages.put(("done", task.instance_id, result))


def _run_pool(
    config: RunConfig,
    tasks: list[_Task],
    backbone: Backbone,
    llm: Any,
    writer: JsonlAppender[AnswerRecord],
    bar: _Progress,
    summary: RunSummary,
) -> None:
    ctx = mp.get_context("spawn")  # no fork under the progress bar's thread
    messages = ctx.Queue()
    spec = _worker_backbone_spec(config, llm)
    ordered = sorted(tasks, key=lambda t: -t.size)  # big instances first: shorter tail
    outstanding = {t.instance_id for t in ordered}
    pool = ProcessPoolExecutor(
        max_workers=min(config.workers, len(ordered)),
        mp_context=ctx,
        initializer=_worker_init,
        initargs=(config, spec, messages, os.getpid()),
    )
    try:
        futures: list[Future] = [pool.submit(_worker_run, t) for t in ordered]
        while outstanding:
            try:
                message = messages.get(timeout=0.2)
            except queue_mod.Empty:
                broken = [f for f in futures if f.done() and f.exception() is not None]
                if broken:
                    raise RunError(f"a worker process died: {broken[0].exception()}") from None
                continue
            kind, instance_id = message[0], message[1]
            if kind == "records":
                summary.questions_answered += writer.append(message[2])
                bar.advance(len(message[2]))
            elif kind == "done":
                summary.add(message[2])
                outstanding.discard(instance_id)
                bar.describe(f"{len(ordered) - len(outstanding)}/{len(ordered)} instances")
            elif kind == "fatal":
                raise RunError(message[2])
            elif kind == "failed":
                outstanding.discard(instance_id)
                _record_failure(Path(config.out), instance_id, message[2], message[3], summary, bar)
    except BaseException:
        # Ctrl-C or a fatal error: stop the workers now (waiting would block on instances
        # still running), then keep what they had already sent
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            if process.is_alive():
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        _drain_records(messages, writer, summary)
        raise
    pool.shutdown(wait=True, cancel_futures=True)


def _drain_records(messages: Any, writer: JsonlAppender[AnswerRecord], summary: RunSummary) -> None:
    """Append the answer batches already queued by workers that were stopped."""
    while True:
        try:
            message = messages.get(timeout=0.2)
        except (queue_mod.Empty, OSError, ValueError, EOFError):
            return
        if message[0] == "records":
            summary.questions_answered += writer.append(message[2])


def _failure_log(out: Path, instance_id: str, details: str) -> None:
    with open(out / FAILURES_NAME, "a", encoding="utf-8") as f:
        f.write(f"--- {now_utc()} {instance_id}\n{details}\n")


# --------------------------------------------------------------------------- progress


class _Progress:
    """A rich progress bar over questions (silent when disabled)."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self.total = total
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> _Progress:
        if self.enabled:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("[bold]answering[/bold] {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                transient=False,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task("", total=self.total)
        return self

    def advance(self, n: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, n)

    def describe(self, text: str) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=text)

    def note(self, text: str) -> None:
        if self._progress is not None:
            self._progress.console.print(text)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)
