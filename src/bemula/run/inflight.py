"""Backbone calls in flight across questions, versions and instances (``--concurrency N``).

Why a pipeline and not a pool per memory state: an instance has ~35 questions, a memory
state half of that. A pool that waits for one state's answers before the next retrieval
leaves most of N slots idle at N = 16 or 32 (the endpoint waits while the worker ingests the
next instance). Here a worker retrieves, hands the backbone call over and goes on: to the
next question, the next version, the next instance. A bound on calls submitted but not
finished (``backlog``, 4 × N by default) keeps memory flat; the worker blocks on it.

Finished answers come back to the thread that owns the pipeline (``pump``), which is the one
that writes them: records are appended to ``answers.jsonl`` on the main thread only (the
writer holds a Ctrl-C until a batch is whole, and only the main thread gets signals). An
instance is *finished* when its last call is in; the runner then adds it to the summary, or
records its failure. With N = 1 every call runs inline, as before: no threads, and an
exception fails the instance at once.
"""

from __future__ import annotations

import queue
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bemula.runfolder.records import AnswerRecord

if TYPE_CHECKING:
    from bemula.run.instance import InstanceResult

#: Finished answers are handed on at least this often (and whenever the owner pumps).
EMIT_EVERY_S = 1.0


class DaemonPool:
    """N daemon threads running jobs from a queue, each into a ``Future``.

    Why not ``ThreadPoolExecutor``: the interpreter joins its threads at exit, so a Ctrl-C
    waited for every call still in flight (up to the client's timeout, minutes). These
    threads only wait on the endpoint and build records (the main thread writes), so they
    may be abandoned: on ``shutdown(cancel=True)`` the queued jobs are cancelled and the
    running ones are left to the process's end.
    """

    def __init__(self, workers: int, name: str = "bemula-answer") -> None:
        self._jobs: queue.SimpleQueue[tuple[Future[AnswerRecord], Callable[[], AnswerRecord]] | None] = (
            queue.SimpleQueue())
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, job: Callable[[], AnswerRecord]) -> Future[AnswerRecord]:
        future: Future[AnswerRecord] = Future()
        self._jobs.put((future, job))
        return future

    def shutdown(self, *, cancel: bool) -> None:
        if cancel:
            while True:
                try:
                    item = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        for _ in self._threads:
            self._jobs.put(None)
        if not cancel:
            for thread in self._threads:
                thread.join()

    def _work(self) -> None:
        while (item := self._jobs.get()) is not None:
            future, job = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(job())
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
                future.set_exception(exc)


@dataclass(eq=False)
class Tracker:
    """One instance's answers: how many calls are still out, and the first error."""

    result: InstanceResult
    pending: int = 0
    sealed: bool = False  # no more calls will be submitted
    abandoned: bool = False  # the instance failed before its calls were all submitted
    error: BaseException | None = None
    error_trace: str = ""

    @property
    def instance_id(self) -> str:
        return self.result.instance_id

    @property
    def finished(self) -> bool:
        return self.sealed and self.pending == 0


@dataclass
class AnswersInFlight:
    """Runs answer jobs (``() -> AnswerRecord``) ``concurrency`` at a time and hands the
    records to ``emit`` on the owner's thread."""

    concurrency: int
    emit: Callable[[list[AnswerRecord]], None]
    backlog: int = 0  # calls submitted and not finished; 0 means 4 × concurrency
    _pool: DaemonPool | None = field(init=False, default=None)
    _slots: threading.Semaphore | None = field(init=False, default=None)
    _done: queue.SimpleQueue[tuple[Tracker, Future[AnswerRecord]]] = field(init=False, default_factory=queue.SimpleQueue)
    _batch: list[AnswerRecord] = field(init=False, default_factory=list)
    _finished: list[Tracker] = field(init=False, default_factory=list)
    _last_emit: float = field(init=False, default_factory=time.monotonic)
    _in_flight: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        if self.concurrency > 1:
            self._pool = DaemonPool(self.concurrency)
            self._slots = threading.Semaphore(self.backlog or 4 * self.concurrency)

    # -- the owner's side ----------------------------------------------------------------

    def track(self, result: InstanceResult) -> Tracker:
        return Tracker(result)

    def submit(self, tracker: Tracker, job: Callable[[], AnswerRecord]) -> None:
        """Run ``job`` now (N = 1) or in the pool, once a backlog slot is free."""
        if self._pool is None:
            self._take(tracker, job())
            if time.monotonic() - self._last_emit >= EMIT_EVERY_S:
                self.flush()
            return
        assert self._slots is not None
        while not self._slots.acquire(timeout=0.2):
            self.pump()  # keep writing what is finished while the pool is full
        tracker.pending += 1
        self._in_flight += 1
        future = self._pool.submit(job)
        future.add_done_callback(lambda f: self._done.put((tracker, f)))

    def seal(self, tracker: Tracker) -> None:
        """No more calls for this instance: it finishes when the last one is in."""
        tracker.sealed = True
        if tracker.finished and not tracker.abandoned:
            self._finished.append(tracker)

    def abandon(self, tracker: Tracker) -> None:
        """The instance failed on its own (its failure is recorded elsewhere): answers
        already finished are still written, the instance is never reported finished."""
        tracker.abandoned = True
        tracker.sealed = True

    def pump(self) -> None:
        """Take in every finished call; write the batch when it is due."""
        self._take_finished()
        if time.monotonic() - self._last_emit >= EMIT_EVERY_S:
            self.flush()

    def flush(self) -> None:
        """Write every finished answer now (a version's end, an instance's end)."""
        self._take_finished()
        if self._batch:
            batch, self._batch = self._batch, []
            self.emit(batch)
        self._last_emit = time.monotonic()

    def _take_finished(self) -> None:
        while True:
            try:
                tracker, future = self._done.get_nowait()
            except queue.Empty:
                return
            self._settle(tracker, future)

    def finished(self) -> list[Tracker]:
        """Instances whose every call is in, since the last time this was asked."""
        done, self._finished = self._finished, []
        return done

    def wait(self) -> None:
        """Block until every submitted call is in (writing as they come)."""
        if self._pool is None:
            self.flush()
            return
        while self._in_flight:
            try:
                tracker, future = self._done.get(timeout=EMIT_EVERY_S)
            except queue.Empty:
                self.flush()
                continue
            self._settle(tracker, future)
            if time.monotonic() - self._last_emit >= EMIT_EVERY_S:
                self.flush()
        self.flush()

    def close(self, *, cancel: bool = False) -> None:
        """Stop the pool; with ``cancel`` (Ctrl-C, a fatal error) calls not started are
        dropped and those running are not waited for. Finished answers are written."""
        if self._pool is not None:
            self._pool.shutdown(cancel=cancel)
        self.flush()

    # -- internals -----------------------------------------------------------------------

    def _take(self, tracker: Tracker, record: AnswerRecord) -> None:
        self._batch.append(record)
        tracker.result.answered += 1
        tracker.result.errors += record.error is not None

    def _settle(self, tracker: Tracker, future: Future[AnswerRecord]) -> None:
        assert self._slots is not None
        self._slots.release()
        self._in_flight -= 1
        tracker.pending -= 1
        if not future.cancelled():
            exc = future.exception()
            if exc is None:
                self._take(tracker, future.result())
            elif tracker.error is None:
                tracker.error = exc
                tracker.error_trace = "".join(traceback.format_exception(exc))
        if tracker.finished and not tracker.abandoned:
            self._finished.append(tracker)
