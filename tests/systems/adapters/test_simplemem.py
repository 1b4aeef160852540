"""SimpleMem 0.1.0 end to end against the scripted model: windows of turns become
append-only LanceDB entries; a forget request is one more entry, nothing is deleted."""

from __future__ import annotations

import dataclasses

import pytest

from bemula.systems.adapters.common import package_version
from bemula.systems.base import SystemContext

if not package_version("simplemem"):
    pytest.skip("simplemem is not installed: pip install 'bemula[simplemem]'", allow_module_level=True)

from bemula.systems.adapters.simplemem import SimpleMemSystem  # noqa: E402
from bemula.testing.scripted import feed_dialogue  # noqa: E402

# importing lancedb + SimpleMem takes ~20 s on a loaded 2-core machine
pytestmark = pytest.mark.slow


def test_windows_become_entries_and_nothing_is_deleted(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = SimpleMemSystem(dataclasses.replace(context, options={"window_size": 10}))
    try:
        assert feed_dialogue(system, tiny_a.forget) == 32
        # 32 turns in windows of 10: three windows during the dialogue, the last 2 turns wait
        assert model.calls["simplemem.extract"] == 3
        assert [r.store for r in system.dump()].count("simplemem.pending_turns") == 2
        items = system.retrieve("What is Maya allergic to?")
        assert model.calls["simplemem.extract"] == 4  # the partial window, before the first question
        texts = [i.text for i in items]
        # append-only: the allergy is still there next to the request to forget it
        assert "The user: Is allergic to penicillin" in texts
        records = system.dump()
        entries = [r.text for r in records if r.store == "simplemem.entries"]
        assert any("Asked to forget the penicillin allergy" in t for t in entries)
        assert any("flat white" in t for t in entries) and any("green tea" in t for t in entries)
        assert not [r for r in records if r.store == "simplemem.pending_turns"]
        assert system.stats()["llm_calls"] == len(server.chat_requests())
        # planning + reflection at question time: plan, queries, one "complete" reflection
        assert (model.calls["simplemem.plan"], model.calls["simplemem.queries"], model.calls["simplemem.reflect"]) == (
            1,
            1,
            1,
        )
    finally:
        system.close()


def test_fork_copies_entries_and_the_turn_buffer(context: SystemContext, tiny_a) -> None:
    system = SimpleMemSystem(dataclasses.replace(context, options={"window_size": 10}))
    try:
        feed_dialogue(system, tiny_a.forget, sessions={"S01"})  # 14 turns: one window + 4 waiting
        forked = system.fork()
        try:
            assert sorted((r.store, r.text) for r in forked.dump()) == sorted((r.store, r.text) for r in system.dump())
            feed_dialogue(forked, tiny_a.forget, sessions={"S02"})
            assert len(forked.dump()) > len(system.dump())
        finally:
            forked.close()
    finally:
        system.close()
