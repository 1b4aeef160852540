"""LightMem (from source) end to end against the scripted model: the real package, its Qdrant
store and short-term buffer, over real HTTP. LightMem extracts facts when its 512-token
buffer of user text fills (or when forced, before the first question); it deletes only in its
offline update, which is off unless asked for."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

import pytest

from bemula.systems.adapters import lightmem as adapter
from bemula.systems.base import SystemContext, TurnEvent
from bemula.testing.scripted import feed_dialogue

needs_lightmem = pytest.mark.skipif(
    not (adapter.lightmem_installed() and adapter.offline_encoding_installed()),
    reason=f"LightMem is not installed: {adapter.INSTALL_HINT}",
)

T0 = datetime(2026, 3, 2, 9, 0)


def _texts(records, store: str) -> list[str]:
    return [r.text for r in records if r.store == store]


def test_an_exchange_is_sent_as_one_user_assistant_pair() -> None:
    """LightMem reads a fact's source_id n as message 2n: every exchange must be one pair."""
    turns = [
        TurnEvent("user", "I'm Maya.", "S01", T0),
        TurnEvent("user", "I live in Leeds.", "S01", T0 + timedelta(seconds=90)),
        TurnEvent("assistant", "Hello Maya!", "S01", T0 + timedelta(seconds=180)),
    ]
    assert adapter.exchange_messages(turns) == [
        {"role": "user", "content": "I'm Maya.\nI live in Leeds.", "time_stamp": "2026/03/02 (Mon) 09:00:00"},
        {"role": "assistant", "content": "Hello Maya!", "time_stamp": "2026/03/02 (Mon) 09:03:00"},
    ]
    # a session that opens with the assistant: an empty user message keeps the pairing
    lone = adapter.exchange_messages([TurnEvent("assistant", "Welcome back.", "S02", T0)])
    assert [(m["role"], m["content"]) for m in lone] == [("user", ""), ("assistant", "Welcome back.")]


@needs_lightmem
def test_facts_wait_in_the_buffer_until_the_first_question_and_nothing_is_deleted(
    context: SystemContext, scripted, tiny_a
) -> None:
    server, model = scripted
    system = adapter.LightMemSystem(context)
    try:
        assert feed_dialogue(system, tiny_a.forget) == 32
        # 16 exchanges; 15 sent, the last held. tiny-a's user turns stay under LightMem's
        # 512-token buffer, so nothing has been extracted yet: the raw turns are the store
        assert system.stats()["add_calls"] == 15 and model.calls["lightmem.extract"] == 0
        records = system.dump()
        buffered = _texts(records, adapter.BUFFER_STORE)
        assert len(buffered) == 30
        assert any("allergic to penicillin" in t for t in buffered)
        assert len(_texts(records, adapter.PENDING_STORE)) == 2
        assert not _texts(records, adapter.MEMORY_STORE)

        # the first question sends the held exchange forced: one extraction of the buffer
        allergies = [i.text for i in system.retrieve("What is Maya allergic to?")]
        assert model.calls["lightmem.extract"] == 1
        assert any(t.endswith("Is allergic to penicillin") for t in allergies)
        assert any(t.endswith("Is allergic to shellfish") for t in allergies)
        # LightMem's retrieve gives "<time_stamp> <weekday> <memory>": the fact's own turn time
        assert "2026-03-02T09:18:00.000 Mon Is allergic to penicillin" in allergies

        records = system.dump()
        entries = _texts(records, adapter.MEMORY_STORE)
        assert len(entries) == 12  # one per extracted fact (TINY_A_RULES, user turns only)
        for fact in (
            "Asked to forget the penicillin allergy",
            "Drinks a flat white every morning",
            "Drinks green tea every morning",
            "Has a dog named Biscuit",
        ):
            assert any(e.startswith(fact + " |") for e in entries), fact
        assert not _texts(records, adapter.BUFFER_STORE) and not _texts(records, adapter.PENDING_STORE)

        stats = system.stats()
        assert stats["add_calls"] == 16
        assert stats["llm_calls"] == stats["extraction_calls"] == len(server.chat_requests()) == 1
        assert stats["update_calls"] == 0
    finally:
        system.close()


@needs_lightmem
def test_offline_update_deletes_the_older_conflicting_entries(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    # the scripted server's hashed bag-of-words vectors are far less similar than a real
    # model's: a low threshold lets the forget request reach the allergy's update queue
    options = {**context.options, "offline_update": "true", "update_threshold": "0.3"}
    system = adapter.LightMemSystem(dataclasses.replace(context, options=options))
    try:
        feed_dialogue(system, tiny_a.forget)
        texts = [i.text for i in system.retrieve("What is Maya allergic to?")]
        assert not any("Is allergic to penicillin" in t for t in texts)
        assert any(t.endswith("Is allergic to shellfish") for t in texts)
        entries = _texts(system.dump(), adapter.MEMORY_STORE)
        assert not any(e.startswith(("Is allergic to penicillin", "Drinks a flat white")) for e in entries)
        # the request itself and the new value stay; 12 facts less the 2 deleted
        assert any(e.startswith("Asked to forget the penicillin allergy |") for e in entries)
        assert any(e.startswith("Drinks green tea every morning |") for e in entries)
        assert len(entries) == 10
        stats = system.stats()
        assert stats["update_calls"] == model.calls["lightmem.update"] >= 2
        assert stats["llm_calls"] == 1 + stats["update_calls"] == len(server.chat_requests())
    finally:
        system.close()


@needs_lightmem
def test_a_full_buffer_is_extracted_before_the_next_exchange(context: SystemContext, scripted) -> None:
    """Three exchanges of ~300 user tokens: LightMem's 512-token buffer overflows.

    Worked by hand: exchange 1 is held; exchange 2 arrives, 1 is sent (buffer 300 tokens);
    exchange 3 arrives, 2 is sent: 600 > 512, so the buffer [1] is extracted and [2] waits;
    the question sends 3 forced: [2] overflows again and [3] is forced — two more calls.
    """
    _, model = scripted
    filler = " and" * 290
    lines = ["I'm Maya" + filler, "I'm allergic to penicillin" + filler, "My dog Biscuit" + filler]
    system = adapter.LightMemSystem(context)
    try:
        for i, line in enumerate(lines):
            when = T0 + timedelta(minutes=10 * i)
            system.ingest(TurnEvent("user", line, "S01", when))
            system.ingest(TurnEvent("assistant", "Noted.", "S01", when + timedelta(seconds=90)))
        system.end_session("S01")
        assert model.calls["lightmem.extract"] == 1
        assert len(_texts(system.dump(), adapter.BUFFER_STORE)) == 2  # exchange 2 waits
        texts = " ".join(i.text for i in system.retrieve("Who is Maya?"))
        assert model.calls["lightmem.extract"] == 3
        for fact in ("Name is Maya", "Is allergic to penicillin", "Has a dog named Biscuit"):
            assert fact in texts
    finally:
        system.close()


@needs_lightmem
def test_what_lightmem_only_prints_is_reported(tmp_path, caplog) -> None:
    """LightMem prints a non-JSON answer and a failed request instead of raising them."""
    from bemula.llm.client import LLMClient, LLMConfig
    from bemula.testing.fake_server import FakeOpenAIServer

    answers = ["Sure! Maya is her name.", ValueError("endpoint down")]

    def responder(path: str, body: dict) -> str:
        answer = answers[0]
        if isinstance(answer, Exception):
            raise answer
        answers.pop(0)
        return answer

    exchange = [TurnEvent("user", "I'm Maya.", "S01", T0), TurnEvent("assistant", "Hi Maya!", "S01", T0)]
    with FakeOpenAIServer(responder) as server:
        llm = LLMClient(LLMConfig(model="scripted", base_url=server.base_url))
        context = SystemContext(workdir=tmp_path / "i", llm=llm, options={"embedding_base_url": server.base_url})
        system = adapter.LightMemSystem(context)
        try:
            for turn in exchange:
                system.ingest(turn)
            with caplog.at_level("WARNING"):
                system.finalize()
            assert system.stats()["unparsed_extractions"] == 1 and "were not JSON" in caplog.text
            assert not system.dump()
            for turn in exchange:
                system.ingest(turn)
            with pytest.raises(adapter.LightMemExtractionError, match="endpoint down"):
                system.finalize()
        finally:
            system.close()
            llm.close()


@needs_lightmem
def test_fork_copies_entries_buffer_and_held_turns(context: SystemContext, tiny_a) -> None:
    system = adapter.LightMemSystem(context)
    forked = None
    try:
        feed_dialogue(system, tiny_a.forget, sessions={"S01"})
        forked = system.fork()
        assert forked.context.workdir != system.context.workdir
        assert sorted((r.store, r.text) for r in forked.dump()) == sorted((r.store, r.text) for r in system.dump())
        feed_dialogue(forked, tiny_a.forget, sessions={"S02"})
        forked.finalize()
        assert any("penicillin" in r.text for r in forked.dump() if r.store == adapter.MEMORY_STORE)
        # the original neither saw S02 nor extracted anything
        assert not _texts(system.dump(), adapter.MEMORY_STORE)
        assert not any("shellfish" in r.text for r in system.dump())
    finally:
        system.close()
        if forked is not None:
            forked.close()


@needs_lightmem
@pytest.mark.slow
def test_a_whole_run_and_the_audit_find_the_forgotten_value_in_lightmems_buffer(tmp_path) -> None:
    """``bemula run`` (runner, fork at the shared prefix, answering agent) + ``bemula audit``."""
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
            data=data,
            out=tmp_path / "run",
            system="lightmem",
            backbone="openai",
            model="scripted",
            base_url=server.base_url,
            instances=["tiny-a"],
            llm_cache=tmp_path / "cache.sqlite",
            system_options={"embedding_base_url": server.base_url},
        )
        summary = run_benchmark(config, progress=False)
    assert summary.errors == 0 and summary.questions_answered == 24
    assert model.calls["lightmem.extract"] >= 2  # at least one extraction per version
    audit = audit_run(tmp_path / "run")
    stores = {s.store: s for s in audit.stores}
    # the runner dumps before the first question: tiny-a's user turns are still waiting in
    # LightMem's short-term buffer (under 512 tokens), the forget request included
    assert stores[adapter.BUFFER_STORE].residues >= 1
    assert audit.values_with_residue >= 1
