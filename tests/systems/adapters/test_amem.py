"""A-MEM (a-mem 0.2.6) end to end against the scripted model: one note per turn, LLM
analysis, evolution that rewrites a neighbour's context — and no delete path."""

from __future__ import annotations

import pytest

from bemula.systems.adapters.common import package_version
from bemula.systems.base import SystemContext

if not package_version("a-mem"):
    pytest.skip("a-mem is not installed: pip install 'bemula[amem]'", allow_module_level=True)

from bemula.systems.adapters.amem import AMemSystem  # noqa: E402
from bemula.testing.scripted import feed_dialogue  # noqa: E402

# importing torch (sentence-transformers), litellm and chromadb takes a minute on 2 cores
pytestmark = pytest.mark.slow


def test_evolution_rewrites_the_neighbour_but_keeps_its_content(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = AMemSystem(context)
    system.reset()
    try:
        assert feed_dialogue(system, tiny_a.forget, sessions={"S01", "S02"}) == 24
        # every turn is a note: one analysis each, one evolution call for every note but the first
        assert (model.calls["amem.analyze"], model.calls["amem.evolve"]) == (24, 23)
        stats = system.stats()
        assert stats["notes_added"] == 24
        assert stats["llm_calls"] == len(server.chat_requests()) == 47
        assert stats["evolutions"] >= 1

        notes = [r.text for r in system.dump() if r.store == "amem.notes"]
        assert len(notes) == 24
        allergy = [t for t in notes if "I'm allergic to penicillin, so flag it" in t]
        assert len(allergy) == 1
        # the forget request reached the note only through evolution: its context was
        # rewritten, its content (the value) was not — A-MEM cannot delete
        assert "context=The user asked to forget this" in allergy[0]
        hits = [i.text for i in system.retrieve("penicillin allergy")]
        assert any("penicillin" in h for h in hits)
    finally:
        system.close()


def test_instances_do_not_share_chroma(context: SystemContext, tmp_path, tiny_a) -> None:
    import dataclasses

    first = AMemSystem(context)
    second = AMemSystem(dataclasses.replace(context, workdir=tmp_path / "other"))
    try:
        first.ingest(next(_turns(tiny_a)))
        second.reset()  # a reset of one instance must not touch the other
        assert len([r for r in first.dump() if r.store == "amem.notes"]) == 1
        assert second.dump() == []
    finally:
        first.close()
        second.close()


def _turns(instance):
    from bemula.systems.base import TurnEvent

    for session, turn in instance.forget.iter_turns():
        yield TurnEvent(turn.role.value, turn.text, session.id, turn.timestamp)
