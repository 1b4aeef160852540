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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bemula.backbones import Backbone, BackboneAnswer, ProbeBackbone
from bemula.model import Instance, Question, Version
from bemula.run.ingest import count_turns, feed, shared_prefix_length, version_steps
from bemula.runfolder.dumps import write_dump, write_stats
from bemula.runfolder.records import AnswerRecord, RetrievedRecord, gold_hash
from bemula.safeio import confined
from bemula.systems.base import MemorySystem, RetrievedItem

#: At most this many retrieved items are kept in an answer record (full-context can return
#: thousands): the ones the answer used, then the best by the system's score (or, for an
#: unranked list, by the probe's relevance measure).
RECORD_MAX_ITEMS = 20

#: A worker hands over finished answers at least this often (and at each version's end).
EMIT_EVERY_S = 1.0

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
) -> InstanceResult:
    """Process the versions of ``instance`` that still have questions in ``todo``."""
    result = InstanceResult(instance.id)
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
            write_dump(out, instance.id, version, target.dump())
            result.stats[version.value] = dict(target.stats())
            write_stats(out, instance.id, version, result.stats[version.value])
            result.ingest_s += time.perf_counter() - t0
            t0 = time.perf_counter()
            _answer_version(
                instance, version, [by_id[qid] for qid in todo[version]], target, backbone,
                system_name, emit, result, concurrency=concurrency,
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
    emit: Callable[[list[AnswerRecord]], None],
    result: InstanceResult,
    concurrency: int = 1,
) -> None:
    """Answer ``questions`` over one memory state, in order.

    Retrieval stays sequential (a system need not be thread-safe); with ``concurrency`` > 1
    the backbone calls of a chunk of questions overlap in a thread pool (an LLM endpoint
    answers many requests at once; the client bounds how many per endpoint). Questions over
    the same memory are asked one after another either way, so a server's prompt cache sees
    the same prefix again and again.
    """
    now = question_time(instance, version)
    batch: list[AnswerRecord] = []
    last_emit = time.monotonic()
    chunk = max(1, concurrency) * 4
    pool = ThreadPoolExecutor(max_workers=concurrency) if concurrency > 1 else None
    try:
        for start in range(0, len(questions), chunk):
            part = questions[start : start + chunk]
            retrieved: list[tuple[list[RetrievedItem], float]] = []
            for q in part:
                t0 = time.perf_counter()
                items = system.retrieve(q.text, now)
                retrieved.append((items, time.perf_counter() - t0))
            calls = [(q.text, items, now) for q, (items, _) in zip(part, retrieved, strict=True)]
            answers = (list(pool.map(lambda c: backbone.answer(*c), calls)) if pool is not None
                       else [backbone.answer(*c) for c in calls])
            for q, (items_all, retrieve_s), answer in zip(part, retrieved, answers, strict=True):
                batch.append(_record(instance, version, q, items_all, retrieve_s, answer, backbone, system_name))
                result.answered += 1
                result.errors += answer.error is not None
                if time.monotonic() - last_emit >= EMIT_EVERY_S:
                    emit(batch)
                    batch = []
                    last_emit = time.monotonic()
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    if batch:
        emit(batch)


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
