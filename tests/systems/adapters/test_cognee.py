"""Cognee (cognee 1.6.x) end to end: the real package, its SQLite, LanceDB and Ladybug stores,
over real HTTP, against a scripted model that answers Cognee's own prompts. Runs in the
environment that has ``bemula[cognee]`` (its own venv); skipped elsewhere.

What the tests pin down is what Cognee really does with a forget request: nothing. Cognify
has no step that compares new text with the stored graph, so the request is one more
document: the stated fact stays as a graph edge, in its vector index, in the chunk, in the
chunk's summary and in the raw file, and the request itself becomes an edge naming the value.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from bemula.systems.adapters.common import package_version

if not package_version("cognee").startswith("1.6."):
    pytest.skip("cognee 1.6.x is not installed: pip install 'bemula[cognee]' in its own environment", allow_module_level=True)

from bemula.systems.adapters.cognee import (  # noqa: E402
    CHUNK_STORE,
    EDGE_STORE,
    FILE_STORE,
    NODE_STORE,
    PENDING_STORE,
    RELATIONAL_STORE,
    VECTOR_STORE,
    CogneeSystem,
    context_items,
    hybrid_items,
)
from bemula.systems.base import StoreRecord, SystemContext, TurnEvent, registry  # noqa: E402
from bemula.testing.fake_server import FakeOpenAIServer  # noqa: E402
from bemula.testing.scripted import feed_dialogue as feed  # noqa: E402
from bemula.testing.scripted_cognee import TINY_A_GRAPH_RULES, ScriptedCogneeModel, requested_schema  # noqa: E402

ALLERGY = "The user is allergic to penicillin"
ASKED = "The user asked the assistant to forget their penicillin allergy"


@pytest.fixture
def scripted() -> Iterator[tuple[FakeOpenAIServer, ScriptedCogneeModel]]:
    """Overrides the conftest's responder: the conftest's ``context`` then points at this one."""
    model = ScriptedCogneeModel(TINY_A_GRAPH_RULES)
    with FakeOpenAIServer(model) as server:
        yield server, model


def _formats(server: FakeOpenAIServer, since: int = 0) -> list[tuple[str, str]]:
    """The distinct (response_format type, schema name) pairs of Cognee's structured calls
    (from the ``since``-th chat request on)."""
    pairs = set()
    for body in server.chat_requests()[since:]:
        kind = str((body.get("response_format") or {}).get("type", ""))
        if kind:
            pairs.add((kind, requested_schema(body, str(body["messages"][0]["content"]))))
    return sorted(pairs)


def _texts(records: list[StoreRecord], store: str) -> list[str]:
    return [r.text for r in records if r.store == store]


def test_a_forget_request_deletes_nothing_in_any_store(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = CogneeSystem(context)
    system.reset()
    try:
        assert feed(system, tiny_a.forget) == 32
        stats = system.stats()
        # one add + cognify per session; one chunk per session: one graph and one summary call
        # each, plus Cognee's connection probe (once per process: 0 when a test ran before)
        assert stats["documents_added"] == 3 and stats["cognify_runs"] == 3
        probes = model.calls["cognee.probe"]
        assert probes <= 1
        assert {k: n for k, n in model.calls.items() if k != "cognee.probe"} == {"cognee.graph": 3, "cognee.summary": 3}
        assert stats["llm_calls"] == len(server.chat_requests()) == 6 + probes
        assert stats["prompt_tokens"] > 0 and stats["completion_tokens"] > 0
        assert stats["embedding_calls"] > 0
        # the schema travels as response_format, for the endpoint to constrain the output to
        assert _formats(server) == [("json_schema", "KnowledgeGraph"), ("json_schema", "SummarizedContent")]

        # a stated fact is retrievable, as Cognee's hybrid context shows it (no LLM call)
        calls = len(server.chat_requests())
        dog = system.retrieve("What is my dog's name?")
        assert any(
            i.store == NODE_STORE and i.text.startswith("biscuit (concept):") and "The user's dog is called Biscuit" in i.text
            for i in dog
        )
        assert len(server.chat_requests()) == calls

        # the forgotten value still comes back: the session's chunk that states it, and the
        # fact among the user entity's
        allergy = system.retrieve("What medication am I allergic to?")
        assert any(i.store == CHUNK_STORE and "I'm allergic to penicillin" in i.text for i in allergy)
        assert any(i.store == NODE_STORE and i.text.startswith("user (person):") and ALLERGY in i.text for i in allergy)
        # GRAPH_COMPLETION's context (-o search=graph_completion): triplet lines
        system.search_type = "graph_completion"
        dog_edges = [i.text for i in system.retrieve("What is my dog's name?")]
        assert "user --[has_dog]--> biscuit  (The user's dog is called Biscuit)" in dog_edges
        system.search_type = "hybrid_completion"

        records = system.dump()
        edges = _texts(records, EDGE_STORE)
        assert any(t.startswith("user -[is_allergic_to]-> penicillin") and ALLERGY in t for t in edges)
        # the request is itself an edge naming the value
        assert any(t.startswith("user -[asked_to_forget]-> penicillin") and ASKED in t for t in edges)
        # the update adds the green tea; the flat white stays beside it
        assert any(t.startswith("user -[drinks_every_morning]-> flat white") for t in edges)
        assert any(t.startswith("user -[drinks_every_morning]-> green tea") for t in edges)
        nodes = _texts(records, NODE_STORE)
        assert any("name=penicillin" in t and "type=Entity" in t for t in nodes)
        assert any("type=DocumentChunk" in t and "allergic to penicillin" in t for t in nodes)
        # vectors: the edge's description, the entity, the chunk, the summary
        assert ALLERGY in " ".join(_texts(records, f"{VECTOR_STORE}.EdgeType_relationship_name"))
        assert any(t.endswith("text=penicillin") for t in _texts(records, f"{VECTOR_STORE}.Entity_name"))
        chunks = _texts(records, f"{VECTOR_STORE}.DocumentChunk_text")
        assert len(chunks) == 3 and any("I'm allergic to penicillin" in t for t in chunks)
        assert any(ALLERGY in t for t in _texts(records, f"{VECTOR_STORE}.TextSummary_text"))
        # the raw files add wrote, one per session, and their rows in the relational store
        files = _texts(records, FILE_STORE)
        assert len(files) == 3 and any("user: First thing: I'm allergic to penicillin" in t for t in files)
        assert len(_texts(records, f"{RELATIONAL_STORE}.data")) == 3
        # and Cognee's pipeline log keeps each ingested text in its run_info
        runs = _texts(records, f"{RELATIONAL_STORE}.pipeline_runs")
        assert any("add_pipeline" in t and "I'm allergic to penicillin" in t for t in runs)
        # Cognee's search history keeps each question's context, value included
        results = _texts(records, f"{RELATIONAL_STORE}.results")
        assert len(results) >= 2 and any("penicillin" in t for t in results)
        assert not _texts(records, PENDING_STORE)
        # every folder Cognee wrote is inside the instance's own
        assert {p.name for p in system.store_dir.iterdir()} <= {"system", "data", "cache", "logs", "repos", "home"}
    finally:
        system.close()


def test_structured_json_object_pastes_the_schema_into_the_prompt(scripted, tiny_a, tmp_path) -> None:
    """``-o structured=json_object``: Cognee's behaviour with a model litellm does not know;
    then the default again in the same process (litellm's model table is process-wide)."""
    from bemula.llm.client import LLMClient, LLMConfig

    server, model = scripted
    llm = LLMClient(LLMConfig(model="scripted", base_url=server.base_url))
    options = {"embedding_base_url": server.base_url}
    try:
        for name, structured in (("fallback", "json_object"), ("default", "json_schema")):
            since = len(server.chat_requests())
            system = CogneeSystem(SystemContext(workdir=tmp_path / name, llm=llm, options={**options, "structured": structured}))
            system.reset()
            try:
                feed(system, tiny_a.forget)
            finally:
                system.close()
            assert _formats(server, since) == [(structured, "KnowledgeGraph"), (structured, "SummarizedContent")]
        assert model.calls["cognee.graph"] == model.calls["cognee.summary"] == 6  # 3 sessions, twice
    finally:
        llm.close()


def test_session_turns_wait_in_the_dump_until_the_session_ends(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = CogneeSystem(context)
    system.reset()
    try:
        session = tiny_a.forget.sessions[0]
        for turn in session.turns[:3]:
            system.ingest(TurnEvent(turn.role.value, turn.text, session.id, turn.timestamp))
        assert server.chat_requests() == [] and system.retrieve("Who am I?") == []
        assert [r.store for r in system.dump()] == [PENDING_STORE] * 3
        system.end_session(session.id)
        records = system.dump()
        assert not _texts(records, PENDING_STORE) and len(_texts(records, FILE_STORE)) == 1
        assert model.calls["cognee.graph"] == 1
    finally:
        system.close()


def test_turn_unit_adds_and_cognifies_every_turn(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = CogneeSystem(dataclasses.replace(context, options={**context.options, "unit": "turn"}))
    system.reset()
    try:
        feed(system, tiny_a.forget, sessions={"S01"})
        assert system.stats()["documents_added"] == 14
        assert model.calls["cognee.graph"] == 14 and model.calls["cognee.summary"] == 14
    finally:
        system.close()


def test_fork_shares_the_prefix_and_then_diverges(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = CogneeSystem(context)
    system.reset()
    forked = None
    try:
        feed(system, tiny_a.forget, sessions={"S01"})
        forked = system.fork()
        assert forked.context.workdir != system.context.workdir
        assert forked.store_dir.is_dir() and forked.store_dir != system.store_dir

        def graph(s: CogneeSystem) -> list[str]:
            return sorted(r.text for r in s.dump() if r.store in (EDGE_STORE, FILE_STORE) or r.store.startswith(VECTOR_STORE))

        assert graph(forked) == graph(system)
        # the copy's relational rows point at the copy's files
        rows = _texts(forked.dump(), f"{RELATIONAL_STORE}.data")
        assert rows and all(str(forked.store_dir) in t and f"{system.store_dir}/" not in t for t in rows)
        calls_before = system.stats()["llm_calls"]
        feed(forked, tiny_a.forget, sessions={"S02"})  # the forget request, in the fork only
        assert system.stats()["llm_calls"] == calls_before
        assert forked.stats()["llm_calls"] > calls_before
        assert any(ASKED in t for t in _texts(forked.dump(), EDGE_STORE))
        assert not any(ASKED in t for t in _texts(system.dump(), EDGE_STORE))
        # the original still ingests and searches after the fork
        feed(system, tiny_a.control, sessions={"S02"})
        assert len(_texts(system.dump(), FILE_STORE)) == len(_texts(forked.dump(), FILE_STORE)) == 2
        assert any("Biscuit" in i.text for i in system.retrieve("What is my dog's name?"))
        assert any("Biscuit" in i.text for i in forked.retrieve("What is my dog's name?"))
    finally:
        system.close()
        if forked is not None:
            forked.close()


def test_reset_after_use_starts_from_empty_stores(context: SystemContext, scripted, tiny_a) -> None:
    system = CogneeSystem(context)
    system.reset()
    try:
        feed(system, tiny_a.forget, sessions={"S01"})
        assert _texts(system.dump(), EDGE_STORE)
        system.reset()
        assert system.dump() == [] and system.retrieve("What is my name?") == []
        feed(system, tiny_a.forget, sessions={"S02"})
        assert len(_texts(system.dump(), FILE_STORE)) == 1
    finally:
        system.close()


def test_context_items_split_nodes_and_connections() -> None:
    context = (
        "Nodes:\nNode: user\n__node_content_start__\nuser, from the conversation\n__node_content_end__\n\n"
        "Node: text_abc\n__node_content_start__\nNone\n__node_content_end__\n\n\n"
        "Connections:\nuser --[has_dog]--> biscuit  (The user's dog is called Biscuit)\n"
    )
    items = context_items(context)
    assert [(i.store, i.text) for i in items] == [
        (NODE_STORE, "user, from the conversation"),
        (EDGE_STORE, "user --[has_dog]--> biscuit  (The user's dog is called Biscuit)"),
    ]
    assert items[0].score > items[1].score
    assert [i.text for i in context_items("plain text context")] == ["plain text context"]


def test_hybrid_items_split_passages_entities_and_facts() -> None:
    context = (
        "The question is: `Q?`\nAnswer using this sectioned context.\n\nContext:\n"
        "`## Relevant passages\nuser: first\n---\nuser: second\n\n"
        "## Relevant entities\n### biscuit (concept)\n- biscuit is a concept.\n- The user's dog is called Biscuit\n\n"
        "## Related facts\n- The user lives in Leeds\n`"
    )
    assert [(i.store, i.text) for i in hybrid_items(context)] == [
        (CHUNK_STORE, "user: first"),
        (CHUNK_STORE, "user: second"),
        (NODE_STORE, "biscuit (concept): biscuit is a concept.; The user's dog is called Biscuit"),
        (EDGE_STORE, "The user lives in Leeds"),
    ]
    assert hybrid_items("The question is: `Q?`\n\nContext:\n``") == []


def test_unknown_prompt_is_an_http_500() -> None:
    fault = ScriptedCogneeModel(TINY_A_GRAPH_RULES)(
        "/v1/chat/completions", {"messages": [{"role": "system", "content": "You summarise communities."}]}
    )
    assert getattr(fault, "http_status", None) == 500 and "no scripted answer" in fault.message


def test_cognee_is_listed_with_its_version() -> None:
    info = registry()["cognee"]
    assert info.available and info.version == package_version("cognee")
    assert "unit" in info.options.model_fields and "search" in info.options.model_fields


@pytest.mark.slow
def test_a_whole_run_then_the_audit_finds_every_forgotten_value(tmp_path) -> None:
    """``bemula run`` of cognee on the tiny dataset, then the residue audit: with no delete
    in dialogue, every protected value is still in the graph, the vectors and the files."""
    from bemula.audit import audit_run
    from bemula.run.runner import RunConfig, run_benchmark
    from bemula.testing.tiny import write_tiny_dataset

    data = tmp_path / "data"
    write_tiny_dataset(data)
    model = ScriptedCogneeModel(TINY_A_GRAPH_RULES, fallback="I don't know.")  # the answering agent's prompts
    with FakeOpenAIServer(model) as server:
        config = RunConfig(
            data=data, out=tmp_path / "run", system="cognee", backbone="openai", model="scripted",
            base_url=server.base_url, instances=["tiny-a"], llm_cache=tmp_path / "cache.sqlite",
            system_options={"embedding_base_url": server.base_url},
        )
        summary = run_benchmark(config, progress=False)
    assert summary.errors == 0 and summary.questions_answered == 24
    assert model.calls["cognee.graph"] >= 3 and model.calls["cognee.summary"] >= 3
    audit = audit_run(tmp_path / "run")
    stores = {s.store: s for s in audit.stores}
    assert stores[EDGE_STORE].values_found >= 1
    assert stores[FILE_STORE].values_found >= 1
    assert stores[f"{VECTOR_STORE}.DocumentChunk_text"].values_found >= 1
    assert audit.values_with_residue == audit.values_protected
    print({name: (s.residues, s.values_found) for name, s in stores.items()}, audit.values_protected, dict(model.calls))


def test_the_api_key_reaches_no_store_and_no_file(scripted, tiny_a, tmp_path) -> None:
    """Cognee is handed the run's key (its LLM and embedding configs): it must not end up in
    a dump (which the run folder keeps) nor in any file of the store."""
    from bemula.llm.client import LLMClient, LLMConfig

    server, _ = scripted
    canary = "sk-bemula-canary-7f3a9c"
    llm = LLMClient(LLMConfig(model="scripted", base_url=server.base_url, api_key=canary))
    system = CogneeSystem(SystemContext(workdir=tmp_path / "store", llm=llm,
                                        options={"embedding_base_url": server.base_url}))
    system.reset()
    try:
        feed(system, tiny_a.forget)
        assert not [r.store for r in system.dump() if canary in r.text]
    finally:
        system.close()
        llm.close()
    leaking = [p for p in (tmp_path / "store").rglob("*") if p.is_file() and canary.encode() in p.read_bytes()]
    assert not leaking
