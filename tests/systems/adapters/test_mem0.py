"""mem0 1.0.x end to end: the real package, its Qdrant and SQLite stores, over real HTTP,
against a scripted model that answers mem0's own extraction and update prompts."""

from __future__ import annotations

import pytest

from bemula.systems.adapters.common import package_version
from bemula.systems.base import SystemContext

if not package_version("mem0ai").startswith("1.0."):
    pytest.skip("mem0ai 1.0.x is not installed: pip install 'bemula[mem0]'", allow_module_level=True)

from bemula.systems.adapters.mem0 import Mem0System  # noqa: E402
from bemula.testing.scripted import feed_dialogue as feed  # noqa: E402


def _texts(items) -> list[str]:
    return [i.text for i in items]


def test_forget_version_deletes_in_the_store_but_history_keeps_the_text(
    context: SystemContext, scripted, tiny_a
) -> None:
    server, model = scripted
    system = Mem0System(context)
    system.reset()
    try:
        assert feed(system, tiny_a.forget) == 32
        stats = system.stats()
        # 32 turns = 16 user/assistant exchanges = 16 mem0.add calls, one extraction each;
        # an update call only when facts were extracted
        assert stats["add_calls"] == 16
        assert model.calls["mem0.extract"] == 16
        assert stats["llm_calls"] == model.calls["mem0.extract"] + model.calls["mem0.update"]
        assert stats["llm_calls"] == len(server.chat_requests())
        assert stats["events"]["DELETE"] == 1 and stats["events"]["UPDATE"] == 1

        # extracted memories are retrievable; the deleted one is not
        allergies = _texts(system.retrieve("What is Maya allergic to?"))
        assert "Is allergic to shellfish" in allergies
        assert not any("penicillin" in text for text in allergies)
        assert "Drinks green tea every morning" in _texts(system.retrieve("What does Maya drink?"))

        records = system.dump()
        vectors = [r.text for r in records if r.store == "mem0.vectors"]
        history = [r.text for r in records if r.store == "mem0.history_db.history"]
        assert "Has a dog named Biscuit" in vectors
        assert not any("penicillin" in t or "flat white" in t for t in vectors)
        # mem0 1.x keeps the deleted and the overwritten text in its history table
        assert any("old_memory=Is allergic to penicillin" in t and "event=DELETE" in t for t in history)
        assert any("old_memory=Drinks a flat white every morning" in t and "event=UPDATE" in t for t in history)
        assert not [r for r in records if r.store == "mem0.pending_turns"]
    finally:
        system.close()


def test_control_version_keeps_the_value(context: SystemContext, tiny_a) -> None:
    system = Mem0System(context)
    system.reset()
    try:
        feed(system, tiny_a.control, sessions={"S01", "S02"})
        assert "Is allergic to penicillin" in _texts(system.retrieve("What is Maya allergic to?"))
        assert system.stats()["events"].get("DELETE", 0) == 0
    finally:
        system.close()


@pytest.mark.slow
def test_fork_shares_the_prefix_and_then_diverges(context: SystemContext, tiny_a) -> None:
    system = Mem0System(context)
    system.reset()
    forked = None
    try:
        feed(system, tiny_a.forget, sessions={"S01"})
        forked = system.fork()
        assert forked.context.workdir != system.context.workdir
        assert sorted(r.text for r in forked.dump()) == sorted(r.text for r in system.dump())
        feed(forked, tiny_a.forget, sessions={"S02"})  # the forget request, in the fork only
        assert not any("penicillin" in t for t in _texts(forked.retrieve("What is Maya allergic to?")))
        assert "Is allergic to penicillin" in _texts(system.retrieve("What is Maya allergic to?"))
    finally:
        system.close()
        if forked is not None:
            forked.close()


def test_a_turn_not_yet_handed_to_mem0_is_in_the_dump(context: SystemContext, scripted, tiny_a) -> None:
    server, _ = scripted
    system = Mem0System(context)
    system.reset()
    try:
        first = tiny_a.forget.sessions[0].turns[0]
        from bemula.systems.base import TurnEvent

        system.ingest(TurnEvent("user", first.text, "S01", first.timestamp))
        assert server.chat_requests() == []  # mem0 waits for the assistant's reply
        assert [r.store for r in system.dump()] == ["mem0.pending_turns"]
    finally:
        system.close()


@pytest.mark.slow
def test_instances_do_not_share_stores(context: SystemContext, tmp_path, tiny_a) -> None:
    import dataclasses

    first = Mem0System(context)
    second = Mem0System(dataclasses.replace(context, workdir=tmp_path / "other"))
    try:
        feed(first, tiny_a.forget, sessions={"S01"})
        assert second.dump() == []
        assert (tmp_path / "instance" / "mem0" / "history.db").exists()
    finally:
        first.close()
        second.close()
