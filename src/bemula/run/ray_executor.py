"""``bemula run --executor ray``: one Ray task per instance (both versions), the driver writes.

Why this shape:
- **One task per (system, backbone, instance), both versions in it**, so the shared-prefix
  fork still saves the prefix's ingest.
- **The task is a streaming generator**: it yields answer batches while it works (a long LLM
  instance is not all-or-nothing), the stores' dumps and stats, then how it ended. Nothing in
  the task touches the run folder: the instance travels as JSON, the dumps travel back, so a
  node needs neither the dataset nor the run folder on its disk.
- **The driver is the one writer** of ``answers.jsonl`` (the same ``JsonlAppender`` as the
  local executor), so a run killed under either executor resumes under either.
- **Retries are the driver's**: a task whose worker died (``kill -9``, a lost node) is sent
  again, up to ``--ray-retries`` times, for only the questions still unanswered. Ray's own
  retry is off: it replays a generator and keeps only the items past those already consumed,
  which is sound only when every attempt yields the same items in the same order, and these
  bundles are cut by the clock (a retried task lost a whole instance's answers that way, and
  the run still said it was complete). An exception inside the system is not retried: like
  a local failure, it is recorded in ``failures.log`` and the run goes on. A task that ends
  with questions of its own unanswered is recorded as failed too, never passed over.
- **Resources** come from the system's registry entry (``MemorySystem.resources``:
  ``num_cpus``, ``memory_gb``); one CPU by default.

``--workers N`` is the number of CPUs of the local Ray that ``ray.init()`` starts (when no
``--ray-address`` names a cluster), so at most N tasks run at once, as with processes.
"""

from __future__ import annotations

import json
import queue
import tempfile
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bemula.model import Instance, Version
from bemula.runfolder.dumps import dump_text, write_dump_text, write_stats
from bemula.runfolder.jsonl import JsonlAppender
from bemula.runfolder.records import AnswerRecord

if TYPE_CHECKING:
    from bemula.run.runner import RunConfig, RunSummary, _Progress, _Task


#: a task hands on what it made at most this often (each yield is a round trip through Ray)
YIELD_EVERY_S = 1.0

_state: dict[str, Any] = {}  # per Ray worker process: the backbone, opened once per spec


def ray_module() -> Any:
    """``ray``, or a one-line error saying how to install it."""
    from bemula.run.runner import RunError

    try:
        import ray
    except ImportError:
        raise RunError("--executor ray needs Ray: pip install 'bemula[ray]'") from None
    return ray


# --------------------------------------------------------------------------- the task


def _backbone(config: RunConfig, spec: dict[str, Any]) -> tuple[Any, Any]:
    from bemula.backbones import open_backbone

    key = json.dumps(spec, sort_keys=True, default=str)
    if _state.get("key") != key:
        if "stack" in _state:
            _state["stack"].close()
        stack = ExitStack()
        backbone, llm = stack.enter_context(
            open_backbone(spec["open_as"], context_window=spec["context_window"], **spec["llm_kw"])
        )
        backbone.name = spec["name"]
        _state.update(key=key, stack=stack, backbone=backbone, llm=llm)
    return _state["backbone"], _state["llm"]


def instance_task(config: RunConfig, spec: dict[str, Any], instance_json: bytes,
                  todo: dict[str, list[str]]) -> Iterator[list[tuple[Any, ...]]]:
    """Run one instance in this Ray worker; yields bundles of ``("records", [(key, JSON
    line)])`` and ``("state", version, dump JSONL text, stats)``, the last ending with ``("done",
    InstanceResult)`` or ``("failed"|"fatal", message, traceback)``."""
    from bemula.run.instance import run_instance
    from bemula.run.runner import _is_fatal, answer_concurrency, system_context
    from bemula.systems.base import create_system

    outbox: queue.SimpleQueue[tuple[Any, ...] | None] = queue.SimpleQueue()

    def work() -> None:
        try:
            backbone, llm = _backbone(config, spec)
            instance = Instance.model_validate_json(instance_json)
            with tempfile.TemporaryDirectory(prefix="bemula-ray-") as scratch:
                result = run_instance(
                    instance,
                    {Version(v): qids for v, qids in todo.items()},
                    make_system=lambda wd: create_system(config.system, system_context(config, wd, backbone, llm)),
                    backbone=backbone,
                    system_name=config.system,
                    out=Path(scratch),
                    # serialised here, in parallel: the driver only writes the lines
                    emit=lambda records: outbox.put(("records", [(r.key, r.model_dump_json()) for r in records])),
                    on_state=lambda version, dump, stats: outbox.put(("state", version.value, dump_text(dump), stats)),
                    concurrency=answer_concurrency(config),
                )
            outbox.put(("done", result))
        except Exception as exc:  # noqa: BLE001 - reported to the driver, which decides
            kind = "fatal" if _is_fatal(exc) else "failed"
            outbox.put((kind, f"{type(exc).__name__}: {exc}", traceback.format_exc()))
        finally:
            outbox.put(None)

    # the instance runs beside this generator, which hands what it made on in bundles: at
    # most one a second (each yield is a round trip through Ray), and the rest at the end
    threading.Thread(target=work, name="bemula-instance", daemon=True).start()
    bundle: list[tuple[Any, ...]] = []
    last = time.monotonic()
    while True:
        try:
            item = outbox.get(timeout=max(0.0, YIELD_EVERY_S - (time.monotonic() - last)))
        except queue.Empty:
            item = ()
        if item is None:
            break
        if item:
            bundle.append(item)
        if bundle and time.monotonic() - last >= YIELD_EVERY_S:
            yield bundle
            bundle, last = [], time.monotonic()
    if bundle:
        yield bundle


# --------------------------------------------------------------------------- the driver


@dataclass(frozen=True)
class _Attempt:
    """One submission of an instance's task: what it was asked, and how many tries came before."""

    instance_id: str
    todo: dict[str, list[str]]
    tries: int


def run_ray(
    config: RunConfig,
    dataset: Any,
    tasks: list[_Task],
    spec: dict[str, Any],
    writer: JsonlAppender[AnswerRecord],
    bar: _Progress,
    summary: RunSummary,
) -> None:
    """Every task on Ray; answers, dumps and failures written here, as they come."""
    from bemula.run.runner import RunError, _record_failure
    from bemula.systems.base import registry

    ray = ray_module()
    out = Path(config.out)
    started_here = not ray.is_initialized()
    if started_here:
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
        if config.ray_address:
            kwargs["address"] = config.ray_address
        else:
            kwargs["num_cpus"] = config.workers
        try:
            ray.init(**kwargs)
        except Exception as exc:  # noqa: BLE001 - Ray's own message, in one line
            raise RunError(f"Ray could not start ({type(exc).__name__}: {exc})") from None
    resources = registry()[config.system].resources
    options: dict[str, Any] = {
        "num_cpus": float(resources.get("num_cpus", 1)),
        "max_retries": 0,  # the driver retries, with only what is left (module docstring)
        "retry_exceptions": False,
    }
    if resources.get("memory_gb"):
        options["memory"] = int(float(resources["memory_gb"]) * 1024**3)
    remote = ray.remote(instance_task).options(**options)
    pending: dict[Any, _Attempt] = {}
    written: set[tuple[str, str]] = set()  # this invocation's answers, by key

    def submit(instance_id: str, todo: dict[str, list[str]], tries: int) -> None:
        generator = remote.remote(config, spec, dataset.read_bytes(instance_id), todo)
        pending[generator] = _Attempt(instance_id, todo, tries)

    def left(attempt: _Attempt) -> dict[str, list[str]]:
        """The attempt's questions not yet written, by version."""
        todo = {version: [q for q in qids if (attempt.instance_id, q) not in written]
                for version, qids in attempt.todo.items()}
        return {version: qids for version, qids in todo.items() if qids}

    def handle(instance_id: str, item: tuple[Any, ...]) -> bool:
        """Write what one item carries; True when it says how the instance ended."""
        kind = item[0]
        if kind == "records":
            fresh = [(key, line) for key, line in item[1] if key not in written]
            written.update(key for key, _ in fresh)
            summary.questions_answered += writer.append_json(line for _, line in fresh)
            bar.advance(len(fresh))
            return False
        if kind == "state":
            _, version, dump, stats = item
            write_dump_text(out, instance_id, version, dump)
            write_stats(out, instance_id, version, stats)
            return False
        if kind == "done":
            summary.add(item[1])
        elif kind == "fatal":
            raise RunError(item[1])
        else:  # "failed", or "lost" with its retries spent
            _record_failure(out, instance_id, item[1], item[2], summary, bar)
        return True

    try:
        for task in sorted(tasks, key=lambda t: -t.size):  # big instances first: shorter tail
            submit(task.instance_id, {version.value: qids for version, qids in task.todo.items()}, 0)
        finished = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for generator in ready:
                attempt = pending[generator]
                try:
                    bundle = ray.get(next(generator))
                except StopIteration:  # ended without saying how
                    bundle = [("lost", "the Ray task ended without a result", "")]
                except ray.exceptions.RayError as exc:  # its worker or node died
                    bundle = [("lost", f"{type(exc).__name__}: {str(exc).splitlines()[0]}", str(exc))]
                for item in bundle:
                    if item[0] == "lost" and attempt.tries < config.ray_retries and left(attempt):
                        del pending[generator]
                        submit(attempt.instance_id, left(attempt), attempt.tries + 1)
                        break
                    if item[0] == "done" and left(attempt):
                        missing = sum(len(qids) for qids in left(attempt).values())
                        item = ("failed", f"the Ray task ended with {missing} of its questions unanswered", "")
                    if handle(attempt.instance_id, item):
                        del pending[generator]
                        finished += 1
                        bar.describe(f"{finished}/{len(tasks)} instances")
                        break
    except BaseException:
        for generator in pending:
            try:
                ray.cancel(generator, force=True)
            except Exception:  # noqa: BLE001, S110 - stopping anyway
                pass
        raise
    finally:
        if started_here:
            ray.shutdown()
