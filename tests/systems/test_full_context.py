"""full-context: the raw history, cut from the oldest side to the window; probe retrieval."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from bemula.agent import RESERVED_TOKENS, item_tokens
from bemula.systems.base import SystemContext, TurnEvent, create_system

T0 = datetime(2026, 1, 1, 9, 0)


def _turn(i: int, text: str, role: str = "user") -> TurnEvent:
    return TurnEvent(role=role, text=text, session_id="S01", timestamp=T0 + timedelta(minutes=i))


def _system(tmp_path: Path, window: int | None):
    return create_system("full-context", SystemContext(workdir=tmp_path, context_window_tokens=window))


def test_window_keeps_the_newest_turns_in_order(tmp_path: Path) -> None:
    system = _system(tmp_path, RESERVED_TOKENS + 80)
    for i in range(4):
        system.ingest(_turn(i, f"{i}" + "x" * 33))  # "user: " + 34 chars = 40 chars
    from bemula.systems.base import RetrievedItem

    assert item_tokens(RetrievedItem(text="u" * 40)) == 40 // 4 + 1 + 26 == 37
    # a digit is a token of its own: "user: 0xxx…" is 39 letters/4 + 1 digit + 1 + 26 = 37
    assert item_tokens(RetrievedItem(text="user: 0" + "x" * 33)) == 37
    assert item_tokens(RetrievedItem(text="2025-08-02")) == 2 // 4 + 8 + 1 + 26 == 35
    items = system.retrieve("anything at all?")
    # budget 80 tokens: two items (74) fit, a third (111) does not
    assert [it.text[6] for it in items] == ["2", "3"]
    assert [it.id for it in items] == ["t000002", "t000003"]


def test_huge_window_returns_everything_chronologically(tmp_path: Path) -> None:
    system = _system(tmp_path, 1_000_000)
    for i, text in enumerate(["I live in Lyon.", "Nice city!", "I moved to Paris."]):
        system.ingest(_turn(i, text, role="user" if i != 1 else "assistant"))
    assert [it.text for it in system.retrieve("Where do I live?")] == [
        "user: I live in Lyon.", "assistant: Nice city!", "user: I moved to Paris."
    ]


def test_without_window_every_matching_turn_is_ranked(tmp_path: Path) -> None:
    system = _system(tmp_path, None)
    texts = ["My blood type is O negative.", "I like tea.", "Blood tests are on Monday.", "Hello there."]
    for i, text in enumerate(texts):
        system.ingest(_turn(i, text))
    items = system.retrieve("What is my blood type?")
    assert [it.id for it in items] == ["t000000", "t000002"]  # no top-k: every turn sharing a word
    assert items[0].score > items[1].score > 0


def test_dump_is_the_raw_history_and_fork_is_independent(tmp_path: Path) -> None:
    system = _system(tmp_path, None)
    system.ingest(_turn(0, "I'm allergic to penicillin."))
    twin = system.fork()
    twin.ingest(_turn(1, "Please forget my allergy."))
    assert [r.text for r in system.dump()] == ["user: I'm allergic to penicillin."]
    assert [r.store for r in twin.dump()] == ["history", "history"]
    assert [it.id for it in system.retrieve("penicillin allergy?")] == ["t000000"]
    assert len(twin.retrieve("penicillin allergy?")) == 2
    system.reset()
    assert system.dump() == [] and system.retrieve("penicillin") == []
