"""Shared helpers for the adapter tests: a scripted endpoint and a dialogue feeder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bemula.llm.client import LLMClient, LLMConfig
from bemula.systems.base import SystemContext
from bemula.testing.fake_server import FakeOpenAIServer
from bemula.testing.scripted import TINY_A_RULES, ScriptedMemoryModel
from bemula.testing.tiny import tiny_instances


@pytest.fixture
def tiny_a():
    return tiny_instances()[0]


@pytest.fixture
def scripted() -> Iterator[tuple[FakeOpenAIServer, ScriptedMemoryModel]]:
    model = ScriptedMemoryModel(TINY_A_RULES)
    with FakeOpenAIServer(model) as server:
        yield server, model


@pytest.fixture
def context(tmp_path: Path, scripted) -> Iterator[SystemContext]:
    server, _ = scripted
    llm = LLMClient(LLMConfig(model="scripted", base_url=server.base_url))
    try:
        # the scripted server also serves /v1/embeddings (deterministic hashed vectors)
        yield SystemContext(workdir=tmp_path / "instance", llm=llm, options={"embedding_base_url": server.base_url})
    finally:
        llm.close()
