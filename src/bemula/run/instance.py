"""One instance, both versions: ingest turn by turn, fork at the shared prefix, answer.

This is the unit of work the runner hands to a worker. Per version: ``reset()``, feed every
step, write the store dump, then answer each still-missing question of that version with a
fresh ``retrieve`` and a fresh backbone call. When both versions are needed and the system
supports ``fork()``, the shared prefix is ingested once and the copy continues with the
control version — the turns saved are reported.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bemula.backbones import Backbone, BackboneAnswer, ProbeBackbone
from bemula.model import Instance, Question, Version
from bemula.run.inflight import AnswersInFlight, Tracker
from bemula.run.ingest import count_turns, feed, shared_prefix_length, version_steps
from bemula.runfolder.dumps import write_dump, write_stats
from bemula.runfolder.records import AnswerRecord, RetrievedRecord, gold_hash
from bemula.safeio import confined
from bemula.systems.base import MemorySystem, RetrievedItem, StoreRecord

#: At most this many retrieved items are kept in an answer record (full-context can return
#: thousands): the ones the answer used, then the best by the system's score (or, for an
#: unranked list, by the probe's relevance measure).
RECORD_MAX_ITEMS = 20

VERSION_ORDER = (Version.FORGET, Version.CONTROL)


@dataclass
class InstanceResult:
    instance_id: str
    answered: int = 0
    errors: int = 0
    turns_ingested: int = 0
    turns_total: int = 0  # turns of the versions processed, as if each were ingested from scratch
    turns_saved: int = 0  # of those, turns not ingested thanks to fork()
    ingest_s: float = 0.0
    answer_s: float = 0.0
    stats: dict[str, dict] = field(default_factory=dict)


_recorder = ProbeBackbone()  # only its relevance measure is used, to choose recorded items


def recorded_items(
    question: str, retrieved: list[RetrievedItem], used: list[int], cap: int = RECORD_MAX_ITEMS
) -> tuple[list[RetrievedRecord], int | None]:
    """The items an answer record keeps, in the system's order, and the total when cut."""
    if len(retrieved) <= cap:
        chosen = list(range(len(retrieved)))
        total = None
    else:
        # rank the rest by the system's own scores when it gives any (a ranked retrieval),
        # else (e.g. a chronological history) by the probe's relevance measure
        if any(item.score for item in retrieved):
            scores = [item.score for item in retrieved]
        else:
            scores = _recorder.scores(question, retrieved)
        taken = set(used)
        rest = sorted((i for i in range(len(retrieved)) if i not in taken), key=lambda i: (-scores[i], i))
        chosen = sorted([*used[:cap], *rest][:cap])
        total = len(retrieved)
    return [
        RetrievedRecord(text=it.text, score=it.score, store=it.store, id=it.id, timestamp=it.timestamp)
        for it in (retrieved[i] for i in chosen)
    ], total


def question_time(instance: Instance, version: Version) -> datetime:
    """When the questions of a version are asked: the time of its last turn."""
    return instance.dialogue(version).sessions[-1].turns[-1].timestamp


def run_instance(
    instance: Instance,
    todo: dict[Version, list[str]],
    *,
    make_system: Callable[[Path], MemorySystem],
    backbone: Backbone,
    system_name: str,
    out: Path,
    emit: Callable[[list[AnswerRecord]], None],
    keep_workdir: bool = False,
    concurrency: int = 1,
    answers: AnswersInFlight | None = None,
    tracker: Tracker | None = None,
    on_state: Callable[[Version, list[StoreRecord], dict], None] | None = None,
) -> InstanceResult:
    """Process the versions of ``instance`` that still have questions in ``todo``.

    Each version's store dump and stats go to ``on_state`` (default: written under ``out``;
    the Ray executor sends them to the driver instead). Alone (no ``answers``), the backbone
    calls run ``concurrency`` at a time and every answer is in when this returns. Given a
    pipeline shared with other instances (and this instance's ``tracker``), it returns once
    every call is *submitted*: the caller seals the tracker and learns from the pipeline
    when the instance is finished.
    """
    if answers is None:
        own = AnswersInFlight(concurrency, emit)
        own_tracker = own.track(InstanceResult(instance.id))
        try:
            result = run_instance(instance, todo, make_system=make_system, backbone=backbone,
                                  system_name=system_name, out=out, emit=emit, keep_workdir=keep_workdir,
                                  answers=own, tracker=own_tracker, on_state=on_state)
            own.wait()
        finally:
            own.close(cancel=True)
        if own_tracker.error is not None:
            raise own_tracker.error
        return result
    assert tracker is not None, "a shared pipeline needs the instance's tracker"
    result = tracker.result
    needed = [v for v in VERSION_ORDER if todo.get(v)]
    if not needed:
        return result
    # the id comes from the dataset: never let it name a folder outside <out>/.work
    workdir = confined(out / ".work", instance.id)
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    by_id = {q.id: q for q in instance.questions}
    steps = {v: version_steps(instance.dialogue(v)) for v in needed}
    system = make_system(workdir)
    systems: list[MemorySystem] = [system]
    try:
        t0 = time.perf_counter()
        system.reset()
        pending: dict[Version, MemorySystem] = {}
        if len(needed) == 2 and system.supports_fork:
            forget, control = steps[Version.FORGET], steps[Version.CONTROL]
            prefix = shared_prefix_length(forget, control)
            result.turns_ingested += feed(system, forget[:prefix])
            twin = system.fork()
            systems.append(twin)
            result.turns_saved = count_turns(forget[:prefix])
            pending = {Version.FORGET: system, Version.CONTROL: twin}
            offsets = {Version.FORGET: prefix, Version.CONTROL: prefix}
        else:
            pending = {v: system for v in needed}
            offsets = {v: 0 for v in needed}
        result.ingest_s += time.perf_counter() - t0
        for version in needed:
            target = pending[version]
            t0 = time.perf_counter()
            if offsets[version] == 0:
                target.reset()
            result.turns_ingested += feed(target, steps[version][offsets[version]:])
            result.turns_total += count_turns(steps[version])
            result.stats[version.value] = dict(target.stats())
            if on_state is None:
                write_dump(out, instance.id, version, target.dump())
                write_stats(out, instance.id, version, result.stats[version.value])
            else:
                on_state(version, target.dump(), result.stats[version.value])
            result.ingest_s += time.perf_counter() - t0
            t0 = time.perf_counter()
            _answer_version(
                instance, version, [by_id[qid] for qid in todo[version]], target, backbone,
                system_name, answers, tracker,
            )
            result.answer_s += time.perf_counter() - t0
    finally:
        for s in systems:
            s.close()
        if not keep_workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    return result


def _answer_version(
    instance: Instance,
    version: Version,
    questions: list[Question],
    system: MemorySystem,
    backbone: Backbone,
    system_name: str,
    answers: AnswersInFlight,
    tracker: Tracker,
) -> None:
    """Answer ``questions`` over one memory state, in order.

    Retrieval happens here, one question after another (a system need not be thread-safe);
    the backbone call goes to ``answers``, which runs it now (N = 1) or in its pool. The
    call needs only the retrieved items, so the memory may move on (reset, next version)
    while it is in flight. Questions over one memory state are still asked consecutively,
    so a server's prompt cache sees the same prefix again and again.
    """
    now = question_time(instance, version)
    for q in questions:
        t0 = time.perf_counter()
        items = system.retrieve(q.text, now)
        retrieve_s = time.perf_counter() - t0

        def job(q: Question = q, items: list[RetrievedItem] = items, retrieve_s: float = retrieve_s) -> AnswerRecord:
            answer = backbone.answer(q.text, items, now)
            return _record(instance, version, q, items, retrieve_s, answer, backbone, system_name)

        answers.submit(tracker, job)
    answers.flush()  # what is finished reaches the run folder at each version's end


def _record(instance: Instance, version: Version, q: Question, retrieved: list[RetrievedItem], retrieve_s: float,
            answer: BackboneAnswer, backbone: Backbone, system_name: str) -> AnswerRecord:
    items, total = recorded_items(q.text, retrieved, answer.used)
    return AnswerRecord(
        instance_id=instance.id,
        question_id=q.id,
        version=version,
        system=system_name,
        backbone=backbone.name,
        answer_kind=backbone.answer_kind,
        question=q.text,
        answer=answer.text if answer.error is None else "",
        retrieved=items,
        retrieved_total=total,
        prompt_tokens=answer.prompt_tokens,
        completion_tokens=answer.completion_tokens,
        latency_s=round(answer.latency_s, 6),
        retrieve_s=round(retrieve_s, 6),
        prompt_hash=backbone.prompt_hash,
        gold_hash=gold_hash(q.gold),
        error=answer.error,
    )
