"""LangMem end to end against the scripted model, which answers with real tool calls
(Memory, PatchDoc, RemoveDoc) through LangChain's OpenAI client and trustcall."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bemula.systems.adapters.common import package_version
from bemula.systems.base import SystemContext, TurnEvent

if not package_version("langmem"):
    pytest.skip("langmem is not installed: pip install 'bemula[langmem]'", allow_module_level=True)

from bemula.systems.adapters.langmem import LangMemSystem  # noqa: E402
from bemula.testing.scripted import feed_dialogue  # noqa: E402

T0 = datetime(2026, 3, 2, 9, 0)


def _say(system: LangMemSystem, role: str, text: str, minute: int) -> None:
    system.ingest(TurnEvent(role, text, "S01", T0 + timedelta(minutes=minute)))


@pytest.mark.slow  # 12 batches through LangChain + trustcall: ~10 s on 2 cores
def test_remove_doc_deletes_a_memory_shown_for_the_batch(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = LangMemSystem(context)
    system.reset()
    try:
        feed_dialogue(system, tiny_a.forget, sessions={"S01", "S02"})
        stats = system.stats()
        # 24 turns = 12 exchanges = 12 batches; one LLM call each (valid tool calls, max_steps 1)
        assert stats["batches"] == model.calls["langmem.manage"] == 12
        assert stats["llm_calls"] == len(server.chat_requests()) == 12
        memories = [r.text for r in system.dump()]
        assert "Is allergic to shellfish" in memories and "Has a dog named Biscuit" in memories
        assert not any("penicillin" in m for m in memories)  # RemoveDoc reached the store
        assert "Is allergic to shellfish" in [i.text for i in system.retrieve("What is Maya allergic to?")]
    finally:
        system.close()


def test_patch_doc_updates_a_memory_in_place(context: SystemContext) -> None:
    system = LangMemSystem(context)
    try:
        _say(system, "user", "Also, I start every morning with a flat white.", 0)
        _say(system, "assistant", "Noted: a flat white every morning.", 1)
        _say(system, "user", "I switched to green tea last week.", 2)
        # the batch's search query is its last message: it names the old value, so LangMem
        # shows that memory to the model, which patches it
        _say(system, "assistant", "Updated your flat white every morning to green tea.", 3)
        system.end_session("S01")
        assert [r.text for r in system.dump()] == ["Drinks green tea every morning"]
    finally:
        system.close()


@pytest.mark.slow
def test_fork_is_independent(context: SystemContext, tiny_a) -> None:
    system = LangMemSystem(context)
    try:
        feed_dialogue(system, tiny_a.forget, sessions={"S01"})
        forked = system.fork()
        feed_dialogue(forked, tiny_a.forget, sessions={"S02"})
        assert any("penicillin" in r.text for r in system.dump())
        assert not any("penicillin" in r.text for r in forked.dump())
    finally:
        system.close()
