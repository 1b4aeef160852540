"""naive-rag: one chunk per turn, top-k BM25, no deletion path."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bemula.systems.base import SystemContext, TurnEvent, create_system
from bemula.systems.naive_rag import DEFAULT_TOP_K

T0 = datetime(2026, 1, 1, 9, 0)


def _system(tmp_path: Path, **options):
    return create_system("naive-rag", SystemContext(workdir=tmp_path, options=options))


def _feed(system, texts: list[str]) -> None:
    for i, text in enumerate(texts):
        system.ingest(TurnEvent(role="user" if i % 2 == 0 else "assistant", text=text, session_id="S01",
                                timestamp=T0 + timedelta(minutes=i)))
    system.end_session("S01")


def test_top_k_and_chunk_text(tmp_path: Path) -> None:
    assert DEFAULT_TOP_K == 10
    system = _system(tmp_path, top_k=2)
    _feed(system, ["I'm allergic to penicillin.", "Noted, penicillin allergy.", "I love tea.", "Tea allergy? No."])
    items = system.retrieve("Am I allergic to penicillin?")
    assert len(items) == 2
    assert items[0].text == "user: I'm allergic to penicillin."
    assert items[0].store == "chunks" and items[0].timestamp == T0
    assert items[0].score >= items[1].score


def test_a_forget_request_deletes_nothing(tmp_path: Path) -> None:
    system = _system(tmp_path)
    _feed(system, ["I'm allergic to penicillin.", "Noted.", "Please forget that I'm allergic to penicillin.", "Done."])
    texts = [r.text for r in system.dump()]
    assert "user: I'm allergic to penicillin." in texts and len(texts) == 4
    assert any("I'm allergic to penicillin." in it.text for it in system.retrieve("What am I allergic to?"))


def test_fork_is_independent(tmp_path: Path) -> None:
    system = _system(tmp_path)
    _feed(system, ["My cat is Olive."])
    twin = system.fork()
    twin.ingest(TurnEvent(role="user", text="My dog is Rex.", session_id="S02", timestamp=T0))
    assert system.retrieve("dog Rex?") == []
    assert [it.text for it in twin.retrieve("dog Rex?")] == ["user: My dog is Rex."]
    assert len(system.dump()) == 1 and len(twin.dump()) == 2


def test_bad_top_k_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="top_k"):
        _system(tmp_path, top_k=0)
