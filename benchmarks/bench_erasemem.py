"""Ingestion cost of ``erasemem`` beside ``naive-rag`` on the offline path (issue #6 asked for
2x; issue #16, which added the purges people's wording needs, allows 3x).

Both systems ingest the same instances turn by turn (no LLM, the offline default) the way
``bemula run`` does — the forget/control common prefix once, ``fork()``, then each version's
remainder — and, separately, the forget version alone (every purge included). The script
prints CPU seconds of this process per system (``time.process_time``: both systems are
single-threaded, and CPU time is what other jobs on a shared machine disturb least) and the
ratio erasemem / naive-rag for both measurements. Each system is timed ``--repeat`` times
and the best run is kept. It also prints
the time spent answering the questions (``retrieve`` only) and how many forget requests
erasemem detected, with the stores' sizes at the end.

Usage::

    python benchmarks/bench_erasemem.py [--data data/bemula] [--instances N] [--repeat 3]

Generate the data first if needed: ``bemula generate --seed 0 --out data/bemula``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from bemula.dataset import Dataset
from bemula.systems.base import MemorySystem, SystemContext, TurnEvent, create_system


def _events(instance, version: str) -> list[TurnEvent]:  # noqa: ANN001 - an Instance
    dialogue = instance.forget if version == "forget" else instance.control
    return [
        TurnEvent(turn.role.value, turn.text, session.id, turn.timestamp)
        for session in dialogue.sessions
        for turn in session.turns
    ]


def _shared_prefix(forget: list[TurnEvent], control: list[TurnEvent]) -> int:
    n = 0
    for a, b in zip(forget, control):
        if a != b:
            break
        n += 1
    return n


def _feed(system: MemorySystem, events: list[TurnEvent], session: str | None) -> str | None:
    for event in events:
        if session is not None and event.session_id != session:
            system.end_session(session)
        session = event.session_id
        system.ingest(event)
    return session


def _time_system(name: str, dialogues: list[tuple[list[TurnEvent], list[TurnEvent], list[str]]], repeat: int,
                 workdir: Path) -> tuple[float, float, float, MemorySystem | None]:
    """Best (both versions as the runner ingests them, forget version alone, retrieval) seconds."""
    best_both = best_forget = best_answer = float("inf")
    last: MemorySystem | None = None
    for _ in range(repeat):
        both = forget_only = answer = 0.0
        for forget, control, questions in dialogues:
            # the runner's path: the common prefix once, fork, then each version's remainder
            system = create_system(name, SystemContext(workdir=workdir))
            prefix = _shared_prefix(forget, control)
            start = time.process_time()
            session = _feed(system, forget[:prefix], None)
            other = system.fork()
            _feed(other, control[prefix:], session)
            _feed(system, forget[prefix:], session)
            both += time.process_time() - start
            # the forget version alone (every request's purge included)
            alone = create_system(name, SystemContext(workdir=workdir))
            start = time.process_time()
            _feed(alone, forget, None)
            forget_only += time.process_time() - start
            start = time.process_time()
            for question in questions:
                alone.retrieve(question)
            answer += time.process_time() - start
            last = alone
        best_both = min(best_both, both)
        best_forget = min(best_forget, forget_only)
        best_answer = min(best_answer, answer)
    return best_both, best_forget, best_answer, last


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("data/bemula"))
    parser.add_argument("--instances", type=int, default=0, help="first N instances (0 = all)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    if not (args.data / "manifest.json").exists():
        print(f"{args.data}: no dataset here; run `bemula generate --seed 0 --out {args.data}`", file=sys.stderr)
        return 2
    dataset = Dataset.open(args.data)
    ids = dataset.ids()
    if args.instances:
        ids = ids[: args.instances]
    dialogues = []
    for iid in ids:
        instance = dataset.load(iid)
        questions = [q.text for q in instance.questions if q.version.value == "forget"]
        dialogues.append((_events(instance, "forget"), _events(instance, "control"), questions))
    n_turns = sum(len(f) + len(c) for f, c, _ in dialogues)
    n_questions = sum(len(q) for _, _, q in dialogues)
    print(f"{len(ids)} instances, {n_turns} turns over both versions, {n_questions} forget-version questions; "
          f"best of {args.repeat}")
    with tempfile.TemporaryDirectory() as tmp:
        both: dict[str, float] = {}
        alone: dict[str, float] = {}
        for name in ("naive-rag", "erasemem"):
            create_system(name, SystemContext(workdir=Path(tmp)))  # imports outside the clock
            both[name], alone[name], answer, system = _time_system(name, dialogues, args.repeat, Path(tmp))
            print(f"  {name:10s} both versions (shared prefix + fork) {both[name]:6.2f} s   "
                  f"forget version alone {alone[name]:6.2f} s   retrieve {answer:5.2f} s "
                  f"({n_questions / answer:6.0f} questions/s)")
            if name == "erasemem" and system is not None:
                stats = system.stats()
                print(f"             last instance: {stats['requests_detected']} requests detected, "
                      f"{stats['units']} units, {stats['tombstones']} tombstones, {stats['turns']} turns kept")
    print(f"ingestion cost erasemem / naive-rag: {both['erasemem'] / both['naive-rag']:.2f}x over both versions "
          f"(the run's offline path; issue #16: <= 3x), {alone['erasemem'] / alone['naive-rag']:.2f}x on the forget "
          f"version alone")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
