"""Smoke runs of each installed adapter on the embedded local model (slow).

Only that the real package completes a few ingest calls through the real local server and
the run's real embedding model: a 0.5B model cannot drive these systems through a dialogue
(see docs/systems.md), so nothing about the memories' content is asserted. One exchange
each: mem0 (both series) and LangMem make one ``add``/batch, A-MEM two notes, SimpleMem one window,
LightMem one forced extraction, Cognee one add + cognify. (Graphiti is not here: on the 0.5B
model its JSON never ends -- uncapped, one episode did not finish in 14 minutes; with
``-o max_tokens=384`` and ``=1536`` (one episode for the exchange) the output was cut inside a
string and Graphiti raised JSONDecodeError after its retries, in 5 and 12 minutes; issue 21.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bemula.systems.base import SystemContext, SystemUnavailable, TurnEvent, create_system, registry

pytestmark = pytest.mark.slow

T0 = datetime(2026, 3, 2, 9, 0)
EXCHANGE = [
    ("user", "I'm allergic to penicillin, so flag it whenever medicine comes up."),
    ("assistant", "Noted, I'll flag that allergy."),
]


@pytest.fixture(scope="module")
def local_llm() -> Iterator[object]:
    from bemula.llm.backends import open_llm
    from bemula.llm.client import LLMUnavailable

    try:
        with open_llm("local", use_cache=False, concurrency=1) as client:
            yield client
    except LLMUnavailable as exc:
        pytest.skip(f"embedded local model unavailable: {exc}")


@pytest.mark.parametrize("name", ["mem0", "mem0-current", "langmem", "a-mem", "simplemem", "lightmem", "cognee"])
def test_adapter_completes_on_the_local_model(name: str, local_llm, tmp_path: Path) -> None:
    info = registry()[name]
    if not info.available:
        pytest.skip(f"{name} not installed: {info.install_hint}")
    try:
        system = create_system(name, SystemContext(workdir=tmp_path / name, llm=local_llm))
    except SystemUnavailable as exc:  # e.g. no embedding model installed
        pytest.skip(str(exc))
    try:
        system.reset()
        started = time.perf_counter()
        for i, (role, text) in enumerate(EXCHANGE):
            system.ingest(TurnEvent(role, text, "S01", T0 + timedelta(seconds=90 * i)))
        system.end_session("S01")
        if hasattr(system, "finalize"):
            system.finalize()  # SimpleMem's last window
        seconds = time.perf_counter() - started
        stats = system.stats()
        assert stats["llm_calls"] >= 1
        assert isinstance(system.dump(), list)
        print(f"{name}: {stats['llm_calls']} LLM calls in {seconds:.1f} s ({seconds / stats['llm_calls']:.1f} s/call)")
    finally:
        system.close()
