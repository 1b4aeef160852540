"""The LLM pipeline end to end on the embedded local model (slow: a 0.5B model on CPU; CI).

One tiny instance (3 sessions of 8 turns, 6 facts, 1 request): the real model writes the
profile, topics, turns, request and questions; whatever it gets wrong is caught, retried or
repaired, and the result must pass the validator. Never asserts what the model wrote.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bemula.llm.cache import default_cache_dir

pytestmark = pytest.mark.slow

REAL_MODELS_DIR = Path(os.environ.get("BEMULA_MODELS_DIR") or default_cache_dir() / "models")


def test_tiny_instance_on_the_embedded_local_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("xllamacpp", reason="the 'local' extra is not installed")
    monkeypatch.setenv("BEMULA_MODELS_DIR", str(REAL_MODELS_DIR))  # assemble the weights once per machine
    from bemula.dataset import Dataset
    from bemula.generate.llm.config import tiny_config
    from bemula.generate.llm.pipeline import generate_llm_benchmark
    from bemula.llm.backends import open_llm
    from bemula.model import Suite
    from bemula.validate import validate_dataset

    with open_llm("local", cache_path=tmp_path / "requests.sqlite", concurrency=2, timeout_s=900.0) as client:
        report = generate_llm_benchmark(client, tmp_path / "out", seed=0, config=tiny_config(), backbone="local",
                                        model=client.describe()["model"])
    result = validate_dataset(tmp_path / "out")
    assert result.ok, [str(v) for v in result.violations]
    (inst,) = list(Dataset.open(tmp_path / "out"))
    assert len(inst.forget.sessions) == 3 and inst.forget.n_turns == 26
    assert len(inst.profile.facts) == 6 and len(inst.requests) == 1
    assert {q.suite for q in inst.questions} == set(Suite)
    assert report.meters["simulation"]["calls"] >= 24  # at least one call per simulated turn
    print({stage: {k: v for k, v in m.items() if k in ("calls", "wall_s") or k.startswith("events.")}
           for stage, m in report.meters.items()})
