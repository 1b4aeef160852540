"""Graphiti (graphiti-core 0.31.x) on Kuzu end to end: the real package, its Kuzu graph,
over real HTTP, against a scripted model that answers Graphiti's own prompts.

What the tests pin down is what Graphiti really does with a forget request: even when the
model marks the stated fact as contradicted (the most it can do), Graphiti only *invalidates*
the edge. The fact stays in the graph and in search results, in the entities' summaries, in
the raw episodes, and the request's own fact names the value again.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Iterator

import pytest

pytest.importorskip("graphiti_core")
if importlib.util.find_spec("kuzu") is None:  # not imported here: see graphiti._load_llama_cpp_first
    pytest.skip("kuzu is not installed: pip install 'bemula[graphiti]'", allow_module_level=True)

from bemula.systems.adapters.common import package_version  # noqa: E402
from bemula.systems.base import StoreRecord, SystemContext, TurnEvent, registry  # noqa: E402
from bemula.testing.fake_server import FakeOpenAIServer  # noqa: E402
from bemula.testing.scripted import feed_dialogue as feed  # noqa: E402
from bemula.testing.scripted_graphiti import TINY_A_GRAPH_RULES, ScriptedGraphitiModel  # noqa: E402

if not package_version("graphiti-core").startswith("0.31."):
    pytest.skip("graphiti-core 0.31.x is not installed: pip install 'bemula[graphiti]'", allow_module_level=True)

from bemula.systems.adapters.graphiti import (  # noqa: E402
    EDGE_STORE,
    EPISODE_STORE,
    INVALIDATED_EDGE_STORE,
    NODE_STORE,
    PENDING_STORE,
    GraphitiSystem,
)

pytestmark = pytest.mark.slow

ALLERGY = "The user is allergic to penicillin"
FLAT_WHITE = "The user starts every morning with a flat white coffee"


@pytest.fixture
def scripted() -> Iterator[tuple[FakeOpenAIServer, ScriptedGraphitiModel]]:
    """Overrides the conftest's responder: the conftest's ``context`` then points at this one."""
    model = ScriptedGraphitiModel(TINY_A_GRAPH_RULES)
    with FakeOpenAIServer(model) as server:
        yield server, model


def _texts(records: list[StoreRecord], store: str) -> list[str]:
    return [r.text for r in records if r.store == store]


def _node(records: list[StoreRecord], name: str) -> str:
    [text] = [r.text for r in records if r.store == NODE_STORE and r.text.startswith(f"{name}:")]
    return text


def test_forget_request_only_invalidates_the_fact(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    system = GraphitiSystem(context)
    system.reset()
    try:
        assert feed(system, tiny_a.forget) == 32
        stats = system.stats()
        assert stats["episodes_added"] == 32  # one message episode per turn
        assert model.calls["graphiti.extract_nodes"] == 32 and model.calls["graphiti.extract_edges"] == 32
        assert stats["llm_calls"] == len(server.chat_requests()) == sum(model.calls.values())
        assert stats["prompt_tokens"] > 0 and stats["embedding_calls"] > 0
        assert stats["edges_invalidated"] == 2  # the penicillin fact and the flat white

        # a stated fact is retrievable, with its validity window
        dog = system.retrieve("What is my dog's name?")
        assert dog[0].text.startswith("The user's dog is called Biscuit (valid 2026-03-05 18:43 to present)")

        # the forgotten fact still comes back from Graphiti's search, marked as no longer valid
        allergy = [i for i in system.retrieve("What medication am I allergic to?") if i.text.startswith(ALLERGY)]
        assert [i.store for i in allergy] == [INVALIDATED_EDGE_STORE]
        assert allergy[0].text == f"{ALLERGY} (valid 2026-03-02 09:18 to 2026-03-05 18:46)"
        drinks = [i.text for i in system.retrieve("What do I drink every morning?")]
        assert drinks[0].startswith("The user drinks green tea every morning")
        assert any(t.startswith(FLAT_WHITE) and "to 2026-03-09 08:08" in t for t in drinks)

        records = system.dump()
        invalidated = _texts(records, INVALIDATED_EDGE_STORE)
        valid = _texts(records, EDGE_STORE)
        # the edge is kept, with the request's time as invalid_at — nothing was deleted
        assert any(ALLERGY in t and "invalid_at=2026-03-05 18:46" in t for t in invalidated)
        assert any(FLAT_WHITE in t and "invalid_at=2026-03-09 08:08" in t for t in invalidated)
        assert len(invalidated) == 2 and len(valid) == 10
        # the request is itself a fact naming the value
        assert "The user asked the assistant to forget their penicillin allergy" in " ".join(valid)
        # summaries grew by appending each new fact; the invalidation never rewrote them
        assert ALLERGY in _node(records, "penicillin")
        assert ALLERGY in _node(records, "user") and FLAT_WHITE in _node(records, "user")
        assert FLAT_WHITE in _node(records, "flat white")
        # and the raw turns stay as episodes
        episodes = _texts(records, EPISODE_STORE)
        assert len(episodes) == 32
        assert any("user: First thing: I'm allergic to penicillin" in t for t in episodes)
        assert any("please forget that I'm allergic to penicillin" in t for t in episodes)
        assert not _texts(records, PENDING_STORE)
    finally:
        system.close()


def test_control_version_keeps_the_fact_valid(context: SystemContext, tiny_a) -> None:
    system = GraphitiSystem(context)
    system.reset()
    try:
        feed(system, tiny_a.control, sessions={"S01", "S02"})
        records = system.dump()
        assert any(ALLERGY in t for t in _texts(records, EDGE_STORE))
        assert not _texts(records, INVALIDATED_EDGE_STORE)
        found = system.retrieve("What medication am I allergic to?")
        assert any(i.text.startswith(f"{ALLERGY} (valid 2026-03-02 09:18 to present)") for i in found)
    finally:
        system.close()


def test_fork_shares_the_prefix_and_then_diverges(context: SystemContext, tiny_a) -> None:
    system = GraphitiSystem(context)
    system.reset()
    forked = None
    try:
        feed(system, tiny_a.forget, sessions={"S01"})
        forked = system.fork()
        assert forked.context.workdir != system.context.workdir
        assert (forked.context.workdir / "graphiti" / "graph.kuzu").exists()
        assert sorted(r.text for r in forked.dump()) == sorted(r.text for r in system.dump())
        calls_before = system.stats()["llm_calls"]
        feed(forked, tiny_a.forget, sessions={"S02"})  # the forget request, in the fork only
        assert system.stats()["llm_calls"] == calls_before
        assert forked.stats()["llm_calls"] > calls_before
        assert any(ALLERGY in t for t in _texts(forked.dump(), INVALIDATED_EDGE_STORE))
        assert any(ALLERGY in t for t in _texts(system.dump(), EDGE_STORE))
        assert not _texts(system.dump(), INVALIDATED_EDGE_STORE)
        # the original still ingests after the fork reopened it
        feed(system, tiny_a.control, sessions={"S02"})
        assert len(_texts(system.dump(), EPISODE_STORE)) == len(_texts(forked.dump(), EPISODE_STORE))
    finally:
        system.close()
        if forked is not None:
            forked.close()


def test_session_episodes_wait_in_the_dump_until_the_session_ends(context: SystemContext, scripted, tiny_a) -> None:
    server, model = scripted
    options = {**context.options, "episode": "session", "structured_output": "json_object"}
    system = GraphitiSystem(dataclasses.replace(context, options=options))
    system.reset()
    try:
        session = tiny_a.forget.sessions[0]
        for turn in session.turns[:3]:
            system.ingest(TurnEvent(turn.role.value, turn.text, session.id, turn.timestamp))
        assert server.chat_requests() == []
        assert [r.store for r in system.dump()] == [PENDING_STORE] * 3
        system.end_session(session.id)
        records = system.dump()
        assert system.stats()["episodes_added"] == 1 and len(_texts(records, EPISODE_STORE)) == 1
        assert any(ALLERGY in t for t in _texts(records, EDGE_STORE))
        # json_object mode: the schema travels in the prompt, the scripted model still answers
        formats = {str(body.get("response_format", {}).get("type")) for body in server.chat_requests()}
        assert formats == {"json_object"} and model.calls["graphiti.extract_edges"] == 1
    finally:
        system.close()


def test_unknown_prompt_is_an_http_500() -> None:
    fault = ScriptedGraphitiModel(TINY_A_GRAPH_RULES)(
        "/v1/chat/completions", {"messages": [{"role": "system", "content": "You summarise communities."}]}
    )
    assert getattr(fault, "http_status", None) == 500 and "no scripted answer" in fault.message


def test_graphiti_is_listed_with_its_version() -> None:
    info = registry()["graphiti"]
    assert info.available and info.version == package_version("graphiti-core")
    assert "episode" in info.options.model_fields and info.resources["num_cpus"] == 1.0


def test_kuzu_never_loads_before_the_embedded_models_library() -> None:
    """kuzu 0.11.3 loaded first makes ``import xllamacpp`` abort the process; the adapter
    loads llama.cpp's library before Kuzu's (a fresh process: this one may have both)."""
    import subprocess
    import sys

    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("the embedded model is not installed")
    code = ("from bemula.systems.adapters.graphiti import _load_llama_cpp_first\n"
            "_load_llama_cpp_first()\nimport kuzu\nimport xllamacpp\nprint('both loaded')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "both loaded" in done.stdout, done.stderr[-500:]


def test_max_tokens_caps_every_call_on_the_wire(context: SystemContext, scripted, tiny_a) -> None:
    """Graphiti asks for 16,384 completion tokens on some steps whatever its client says;
    ``-o max_tokens=N`` must reach every request that leaves the process."""
    server, _ = scripted
    turns = list(tiny_a.forget.iter_turns())[:2]
    for cap, check in ((None, lambda n: n > 4096), (300, lambda n: n <= 300)):
        options = dict(context.options, **({"max_tokens": cap} if cap else {}))
        before = len(server.chat_requests())
        system = GraphitiSystem(dataclasses.replace(context, options=options,
                                                    workdir=context.workdir / f"cap-{cap}"))
        system.reset()
        try:
            for session, turn in turns:
                system.ingest(TurnEvent(turn.role.value, turn.text, session.id, turn.timestamp))
        finally:
            system.close()
        asked = [body.get("max_tokens") or body.get("max_completion_tokens") for body in server.chat_requests()[before:]]
        assert asked and all(n is not None for n in asked)
        assert (any if cap is None else all)(check(n) for n in asked), (cap, asked)
