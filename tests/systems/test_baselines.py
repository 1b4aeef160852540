"""The degenerate baselines: ``null`` keeps nothing; ``forget-all`` drops everything at a
request it detects and keeps learning afterwards."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from bemula.systems.base import SystemContext, TurnEvent, create_system

T0 = datetime(2026, 1, 1, 9, 0)


def _feed(system, texts: list[str]) -> None:
    for i, text in enumerate(texts):
        system.ingest(TurnEvent(role="user" if i % 2 == 0 else "assistant", text=text, session_id="S01",
                                timestamp=T0 + timedelta(minutes=i)))
    system.end_session("S01")


def test_null_stores_and_returns_nothing(tmp_path: Path) -> None:
    system = create_system("null", SystemContext(workdir=tmp_path))
    _feed(system, ["I'm allergic to penicillin.", "Noted."])
    assert system.retrieve("What am I allergic to?") == [] and system.dump() == []


def test_forget_all_drops_everything_at_a_request_then_learns_again(tmp_path: Path) -> None:
    system = create_system("forget-all", SystemContext(workdir=tmp_path))
    _feed(system, ["I'm allergic to penicillin.", "Noted.", "My cat is called Miso.", "Lovely name.",
                   "Please forget that I'm allergic to penicillin.", "Done, it's gone.",
                   "My new flat is on Elm Street.", "Got it."])
    texts = [r.text for r in system.dump()]
    # the cat (never asked about) went too; the request itself is not kept; the assistant's
    # confirmation and everything after are
    assert texts == ["assistant: Done, it's gone.", "user: My new flat is on Elm Street.", "assistant: Got it."]
    assert system.stats()["wipes"] == 1
    fork = system.fork()
    fork.ingest(TurnEvent(role="user", text="Forget my address too.", session_id="S02", timestamp=T0 + timedelta(hours=1)))
    assert fork.dump() == [] and len(system.dump()) == 3  # the fork is independent


def test_forget_all_keeps_everything_without_a_request(tmp_path: Path) -> None:
    system = create_system("forget-all", SystemContext(workdir=tmp_path))
    _feed(system, ["Don't forget my dentist appointment on Friday.", "I'll keep it in mind."])
    assert len(system.dump()) == 2
