"""Steps a system sees, and the shared prefix of the two versions."""

from __future__ import annotations

from bemula.run.ingest import SessionEnd, count_turns, shared_prefix_length, version_steps
from bemula.systems.base import TurnEvent
from bemula.testing.tiny import tiny_instances


def test_steps_are_turn_events_with_session_ends_and_no_annotations() -> None:
    inst = tiny_instances()[0]
    steps = version_steps(inst.forget)
    assert count_turns(steps) == inst.forget.n_turns
    assert sum(isinstance(s, SessionEnd) for s in steps) == len(inst.forget.sessions)
    first = steps[0]
    assert isinstance(first, TurnEvent)
    assert set(vars(first)) == {"role", "text", "session_id", "timestamp"}
    assert first.role == "user" and first.session_id == "S01"
    # a session end follows each session's last turn
    s01 = len(inst.forget.sessions[0].turns)
    assert steps[s01] == SessionEnd("S01")


def test_shared_prefix_ends_at_the_first_request() -> None:
    a, b = tiny_instances()
    # tiny-a: R1 is S02-T005 -> 14 turns of S01, its end, 4 turns of S02
    fa, ca = version_steps(a.forget), version_steps(a.control)
    n = shared_prefix_length(fa, ca)
    assert n == 14 + 1 + 4
    assert count_turns(fa[:n]) == 18
    # tiny-b: R1 is S03-T003 -> 10 + 8 turns, two session ends, 2 turns
    fb, cb = version_steps(b.forget), version_steps(b.control)
    assert count_turns(fb[: shared_prefix_length(fb, cb)]) == 20
    assert shared_prefix_length(fa, fa) == len(fa)
