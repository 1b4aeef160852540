"""Turning a dialogue version into what a memory system sees, and finding the shared prefix.

A system is fed **steps**: every turn as a ``TurnEvent`` (role, text, session id, timestamp —
never the dataset's annotations) and, after a session's last turn, a ``SessionEnd``. The
forget and control versions of an instance are identical up to the first request, so their
step lists share a prefix; it is computed by comparing the steps themselves (not by trusting
annotations), so a system that forks after the prefix sees exactly what it would have seen
ingesting each version from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bemula.model import Dialogue
from bemula.systems.base import MemorySystem, TurnEvent


@dataclass(frozen=True)
class SessionEnd:
    session_id: str


Step = TurnEvent | SessionEnd


def version_steps(dialogue: Dialogue) -> list[Step]:
    steps: list[Step] = []
    for session in dialogue.sessions:
        for turn in session.turns:
            steps.append(
                TurnEvent(
                    role=turn.role.value,
                    text=turn.text,
                    session_id=session.id,
                    timestamp=turn.timestamp,
                )
            )
        steps.append(SessionEnd(session.id))
    return steps


def shared_prefix_length(a: Sequence[Step], b: Sequence[Step]) -> int:
    """Number of leading steps that are equal in ``a`` and ``b``."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def count_turns(steps: Sequence[Step]) -> int:
    return sum(1 for s in steps if isinstance(s, TurnEvent))


def feed(system: MemorySystem, steps: Sequence[Step]) -> int:
    """Give ``steps`` to ``system`` in order; returns the number of turns ingested."""
    turns = 0
    for step in steps:
        if isinstance(step, SessionEnd):
            system.end_session(step.session_id)
        else:
            system.ingest(step)
            turns += 1
    return turns
