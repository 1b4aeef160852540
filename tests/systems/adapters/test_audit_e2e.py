"""A whole ``bemula run`` of mem0 on the tiny dataset against the scripted endpoint, then the
residue audit: it must find the forgotten penicillin allergy in mem0's SQLite history (the
text of the DELETE) and not in the vector store the DELETE emptied."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.systems.adapters.common import package_version

if not package_version("mem0ai").startswith("1.0."):
    pytest.skip("mem0ai 1.0.x is not installed: pip install 'bemula[mem0]'", allow_module_level=True)

from bemula.audit import audit_run  # noqa: E402
from bemula.run.runner import RunConfig, run_benchmark  # noqa: E402
from bemula.testing.fake_server import FakeOpenAIServer  # noqa: E402
from bemula.testing.scripted import TINY_A_RULES, ScriptedMemoryModel  # noqa: E402
from bemula.testing.tiny import write_tiny_dataset  # noqa: E402

pytestmark = pytest.mark.slow


def test_audit_finds_the_deleted_value_in_mem0_history(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_tiny_dataset(data)
    model = ScriptedMemoryModel(TINY_A_RULES, fallback="I don't know.")  # the answering agent's prompts
    with FakeOpenAIServer(model) as server:
        config = RunConfig(
            data=data,
            out=tmp_path / "run",
            system="mem0",
            backbone="openai",
            model="scripted",
            base_url=server.base_url,
            instances=["tiny-a"],
            llm_cache=tmp_path / "cache.sqlite",
            system_options={"embedding_base_url": server.base_url},
        )
        summary = run_benchmark(config, progress=False)
    assert summary.errors == 0 and summary.questions_answered == 24
    assert model.calls["mem0.extract"] >= 16  # the forget version alone has 16 exchanges
    audit = audit_run(tmp_path / "run")
    stores = {s.store: s for s in audit.stores}
    assert stores["mem0.history_db.history"].residues >= 1  # "old_memory=Is allergic to penicillin | event=DELETE"
    assert stores["mem0.vectors"].values_found < stores["mem0.history_db.history"].values_found
    assert audit.values_with_residue >= 1


def test_audit_finds_the_forgotten_values_in_graphiti_edges_summaries_and_episodes(tmp_path: Path) -> None:
    """Graphiti invalidates a contradicted fact and deletes nothing: after the forget
    request the value is still in the invalidated edge, in the entities' summaries and in
    the raw episodes."""
    pytest.importorskip("graphiti_core")
    from bemula.testing.scripted_graphiti import TINY_A_GRAPH_RULES, ScriptedGraphitiModel

    data = tmp_path / "data"
    write_tiny_dataset(data)
    model = ScriptedGraphitiModel(TINY_A_GRAPH_RULES, fallback="I don't know.")
    with FakeOpenAIServer(model) as server:
        config = RunConfig(
            data=data, out=tmp_path / "run", system="graphiti", backbone="openai", model="scripted",
            base_url=server.base_url, instances=["tiny-a"], llm_cache=tmp_path / "cache.sqlite",
            system_options={"embedding_base_url": server.base_url},
        )
        summary = run_benchmark(config, progress=False)
    assert summary.errors == 0 and summary.questions_answered == 24
    audit = audit_run(tmp_path / "run")
    stores = {s.store: s for s in audit.stores}
    for store in ("graphiti.edges_invalidated", "graphiti.nodes", "graphiti.episodes"):
        assert stores[store].values_found >= 1, store
    assert audit.values_with_residue == audit.values_protected
    print({name: (s.residues, s.values_found) for name, s in stores.items()}, audit.values_protected)
