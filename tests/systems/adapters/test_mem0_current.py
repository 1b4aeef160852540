"""mem0 2.2.x (``mem0-current``) end to end: the real package, its Qdrant and SQLite stores,
over real HTTP, against a scripted model that answers mem0 2.x's own additive extraction
prompt. Runs in the environment that has ``bemula[mem0-current]`` (its own venv: the same
distribution as the paper's mem0 1.0.x); skipped elsewhere."""

from __future__ import annotations

import dataclasses

import pytest

from bemula.systems.adapters.common import package_version
from bemula.systems.base import SystemContext, TurnEvent

if not package_version("mem0ai").startswith("2.2."):
    pytest.skip(
        "mem0ai 2.2.x is not installed: pip install 'bemula[mem0-current]' in its own environment",
        allow_module_level=True,
    )

from bemula.systems.adapters.mem0_current import Mem0CurrentSystem  # noqa: E402
from bemula.testing.scripted import feed_dialogue as feed  # noqa: E402


def _texts(items) -> list[str]:
    return [i.text for i in items]


def test_a_forget_request_deletes_nothing_and_is_itself_stored(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = Mem0CurrentSystem(context)
    system.reset()
    try:
        assert feed(system, tiny_a.forget) == 32
        stats = system.stats()
        # 16 exchanges = 16 adds = 16 extraction calls, and nothing else: 2.x has no update call
        assert stats["add_calls"] == 16
        assert model.calls["mem0v2.extract"] == 16
        assert model.calls["mem0.extract"] == 0 and model.calls["mem0.update"] == 0
        assert stats["llm_calls"] == 16 == len(server.chat_requests())
        assert stats["events"]["DELETE"] == 0 and stats["events"]["UPDATE"] == 0
        assert stats["events"]["ADD"] >= 10

        # the value the user asked to forget is still retrieved, next to the request itself
        allergies = _texts(system.retrieve("What is Maya allergic to?"))
        assert "Is allergic to penicillin" in allergies
        assert "Asked to forget the penicillin allergy" in allergies
        # the update added the new value and left the old one live
        drinks = _texts(system.retrieve("What does Maya drink every morning?"))
        assert "Drinks green tea every morning" in drinks and "Drinks a flat white every morning" in drinks

        records = system.dump()
        stores = {r.store for r in records}
        assert {"mem0.vectors", "mem0.history_db.history", "mem0.history_db.messages"} <= stores
        vectors = [r.text for r in records if r.store == "mem0.vectors"]
        assert "Is allergic to penicillin" in vectors
        # 2.x keeps the raw dialogue, pruned to the last ten messages of the user's scope
        messages = [r.text for r in records if r.store == "mem0.history_db.messages"]
        last_ten = [t.text for _, t in tiny_a.forget.iter_turns()][-10:]
        assert len(messages) == 10
        assert all(any(f"content={text}" in m for m in messages) for text in last_ten)
        history = [r.text for r in records if r.store == "mem0.history_db.history"]
        assert all("event=ADD" in t for t in history)
        assert not [r for r in records if r.store == "mem0.pending_turns"]
    finally:
        system.close()


def test_top_k_limits_what_a_question_retrieves(context: SystemContext, tiny_a) -> None:
    system = Mem0CurrentSystem(dataclasses.replace(context, options={**context.options, "top_k": 2}))
    system.reset()
    try:
        feed(system, tiny_a.control, sessions={"S01", "S02"})
        assert len(system.retrieve("What is Maya allergic to?")) == 2
    finally:
        system.close()


def test_a_turn_not_yet_handed_to_mem0_is_in_the_dump(context: SystemContext, scripted, tiny_a) -> None:
    server, _ = scripted
    system = Mem0CurrentSystem(context)
    system.reset()
    try:
        first = tiny_a.forget.sessions[0].turns[0]
        system.ingest(TurnEvent("user", first.text, "S01", first.timestamp))
        assert server.chat_requests() == []  # mem0 waits for the assistant's reply
        assert [r.store for r in system.dump()] == ["mem0.pending_turns"]
    finally:
        system.close()


def test_fork_shares_the_prefix_and_then_diverges(context: SystemContext, tiny_a) -> None:
    system = Mem0CurrentSystem(context)
    system.reset()
    forked = None
    try:
        feed(system, tiny_a.forget, sessions={"S01"})
        forked = system.fork()
        assert isinstance(forked, Mem0CurrentSystem)
        assert forked.context.workdir != system.context.workdir
        assert sorted(r.text for r in forked.dump()) == sorted(r.text for r in system.dump())
        feed(forked, tiny_a.forget, sessions={"S02"})
        assert "Asked to forget the penicillin allergy" in _texts(forked.retrieve("What is Maya allergic to?"))
        assert "Asked to forget the penicillin allergy" not in _texts(system.retrieve("What is Maya allergic to?"))
    finally:
        system.close()
        if forked is not None:
            forked.close()


def test_the_registry_offers_mem0_current_and_not_the_paper_mem0() -> None:
    from bemula.systems.base import registry

    systems = registry()
    assert systems["mem0-current"].available
    assert not systems["mem0"].available
    assert "mem0-current" in systems["mem0"].install_hint


@pytest.mark.slow
def test_a_whole_run_then_the_audit_finds_every_forgotten_value_in_the_vectors(tmp_path) -> None:
    """``bemula run`` of mem0-current on the tiny dataset, then the residue audit: with no
    delete in dialogue, every protected value is still in the vector store and history."""
    from bemula.audit import audit_run
    from bemula.run.runner import RunConfig, run_benchmark
    from bemula.testing.fake_server import FakeOpenAIServer
    from bemula.testing.scripted import TINY_A_RULES, ScriptedMemoryModel
    from bemula.testing.tiny import write_tiny_dataset

    data = tmp_path / "data"
    write_tiny_dataset(data)
    model = ScriptedMemoryModel(TINY_A_RULES, fallback="I don't know.")  # the answering agent's prompts
    with FakeOpenAIServer(model) as server:
        config = RunConfig(
            data=data, out=tmp_path / "run", system="mem0-current", backbone="openai", model="scripted",
            base_url=server.base_url, instances=["tiny-a"], llm_cache=tmp_path / "cache.sqlite",
            system_options={"embedding_base_url": server.base_url},
        )
        summary = run_benchmark(config, progress=False)
    assert summary.errors == 0 and summary.questions_answered == 24
    assert model.calls["mem0v2.extract"] >= 16 and model.calls["mem0.update"] == 0
    audit = audit_run(tmp_path / "run")
    stores = {s.store: s for s in audit.stores}
    assert stores["mem0.vectors"].values_found >= 1
    assert stores["mem0.history_db.history"].values_found >= 1
    assert audit.values_with_residue == audit.values_protected
    print({name: (s.residues, s.values_found) for name, s in stores.items()}, audit.values_protected)
