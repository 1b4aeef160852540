"""The LLM pipeline end to end against a scripted OpenAI-compatible server.

Asserts structure, validation, the verifier's effect and cache resume — never exact LLM text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.dataset import Dataset
from bemula.generate.llm.config import LLMPipelineConfig, TierShape, tiny_config
from bemula.generate.llm.pipeline import CACHE_DIRNAME, estimate, generate_llm_benchmark
from bemula.llm.client import LLMClient, LLMConfig, LLMError
from bemula.model import RequestType, Segment, Suite, Tier
from bemula.testing.fake_server import FakeOpenAIServer
from bemula.validate import validate_dataset

from .scripted import ScriptedLLM


def _client(server: FakeOpenAIServer) -> LLMClient:
    return LLMClient(LLMConfig(model="scripted", base_url=server.base_url, max_retries=0, timeout_s=10))


def _all_types_config() -> LLMPipelineConfig:
    shape = TierShape(sessions=(6, 6), pairs_per_session=(4, 4), facts=(12, 12), derived=(1, 1),
                      requests=(4, 4), span_days=(20, 20))
    return LLMPipelineConfig(name="test-all", tier_counts={Tier.SHORT: 1}, shapes={Tier.SHORT: shape},
                             request_types=(RequestType.F3, RequestType.F4, RequestType.F5, RequestType.F6),
                             facts_per_call=3, workers=2)


def _run(tmp: Path, responder: ScriptedLLM, config: LLMPipelineConfig, name: str = "out"):
    with FakeOpenAIServer(responder) as server:
        report = generate_llm_benchmark(_client(server), tmp / name, seed=3, config=config, backbone="openai")
        return report, len(server.chat_requests())


def test_tiny_pipeline_writes_a_valid_dataset(tmp_path: Path) -> None:
    responder = ScriptedLLM()
    report, calls = _run(tmp_path, responder, tiny_config())
    result = validate_dataset(tmp_path / "out")
    assert result.ok, [str(v) for v in result.violations]
    ds = Dataset.open(tmp_path / "out")
    (inst,) = list(ds)
    assert inst.tier == Tier.SHORT and len(inst.forget.sessions) == 3
    assert inst.forget.n_turns == 3 * 8 + 2 == inst.control.n_turns
    assert len(inst.requests) == 1 and inst.requests[0].type == RequestType.F1
    suites = {q.suite for q in inst.questions}
    assert suites == set(Suite)
    assert sum(1 for q in inst.questions if q.suite == Suite.ATTACK and not q.is_probe) == 5
    # every call was accounted to a stage, and the manifest names model + prompt hash per stage
    assert sum(m["calls"] for m in report.meters.values()) == calls
    gen = ds.manifest.generator
    for stage in ("profile", "planning", "simulation", "injection", "questions"):
        assert gen[f"stage.{stage}.model"] == "scripted"
        assert len(gen[f"stage.{stage}.prompt_hash"]) == 16
    # the two versions differ only at the request exchange
    for fs, cs in zip(inst.forget.sessions, inst.control.sessions, strict=True):
        for ft, ct in zip(fs.turns, cs.turns, strict=True):
            if ft.annotations.segment is None:
                assert ft.text == ct.text
            else:
                assert ct.annotations.segment == Segment.NEUTRAL and ft.text != ct.text


def test_all_request_types_validate(tmp_path: Path) -> None:
    report, _ = _run(tmp_path, ScriptedLLM(), _all_types_config())
    result = validate_dataset(tmp_path / "out")
    assert result.ok, [str(v) for v in result.violations]
    (inst,) = list(Dataset.open(tmp_path / "out"))
    assert {r.type for r in inst.requests} == {RequestType.F3, RequestType.F4, RequestType.F5, RequestType.F6}
    f6 = next(r for r in inst.requests if r.type == RequestType.F6)
    assert f6.new_value and f6.new_value in f6.text
    f6_eff = next(q for q in inst.questions if q.request_id == f6.id and q.suite == Suite.EFFICACY and not q.is_probe)
    assert f6_eff.gold.accepted == [f6.new_value]
    assert not report.meters["planning"].get("events.request_type_fallbacks")


# The scripted LLM numbers fact values in creation order, so with one batch per category the
# first two facts of the profile (A001, A002) are "Zeltrax-1" and "Zeltrax-2".
FIRST, SECOND = "Zeltrax-1", "Zeltrax-2"


def test_verifier_catches_a_planted_unstated_fact(tmp_path: Path) -> None:
    """The user simulator 'forgets' to state two planned facts on its first try: one value is
    missing from the text (literal check), one is mentioned but the LLM verifier says it was not
    stated. Both are caught, the turn is regenerated, and the final turn states the value."""
    planted = ScriptedLLM(omit_values={FIRST}, deny_values={SECOND})
    report, _ = _run(tmp_path, planted, tiny_config())
    assert report.meters["simulation"]["events.unstated_caught"] == 2
    assert report.meters["simulation"]["events.turn_retries"] >= 2
    assert validate_dataset(tmp_path / "out").ok
    (inst,) = list(Dataset.open(tmp_path / "out"))
    for value, fid in ((FIRST, "A001"), (SECOND, "A002")):
        assert inst.fact(fid).value == value
        stating = [t for _, t in inst.forget.iter_turns() if fid in t.annotations.facts]
        assert len(stating) == 1 and value in stating[0].text
        assert "do not know" not in stating[0].text


def test_unstated_fact_is_repaired_when_retries_run_out(tmp_path: Path) -> None:
    config = LLMPipelineConfig(**{**vars(tiny_config()), "turn_retries": 0})
    report, _ = _run(tmp_path, ScriptedLLM(omit_values={FIRST}), config)
    assert report.meters["simulation"]["events.unstated_caught"] == 1
    assert report.meters["simulation"]["events.turns_repaired"] == 1
    assert validate_dataset(tmp_path / "out").ok
    (inst,) = list(Dataset.open(tmp_path / "out"))
    (stating,) = [t for _, t in inst.forget.iter_turns() if "A001" in t.annotations.facts]
    assert inst.fact("A001").statement in stating.text


def test_crash_resumes_without_repeating_calls(tmp_path: Path) -> None:
    _, clean_calls = _run(tmp_path, ScriptedLLM(), tiny_config(), name="clean")

    crashing = ScriptedLLM(fail_after=clean_calls // 2)
    with FakeOpenAIServer(crashing) as server, pytest.raises(LLMError):
        generate_llm_benchmark(_client(server), tmp_path / "out", seed=3, config=tiny_config())
    answered = clean_calls // 2  # the next call was the simulated crash
    assert (tmp_path / "out" / CACHE_DIRNAME).is_dir()

    resumed = ScriptedLLM()
    report, resumed_calls = _run(tmp_path, resumed, tiny_config())
    assert answered + resumed_calls == clean_calls
    assert report.cache_hits > 0
    assert validate_dataset(tmp_path / "out").ok

    # a third run is served entirely from the stage cache: zero calls
    _, again = _run(tmp_path, ScriptedLLM(), tiny_config())
    assert again == 0


def test_dry_run_estimate_counts_calls_without_calling() -> None:
    plan = estimate(tiny_config())
    assert plan["instances"] == 1
    sim = plan["stages"]["simulation"]
    assert sim["calls"] == 3 * 8 + 6  # 24 turns + one verifier call per fact
    assert plan["total"]["calls"] == sum(s["calls"] for s in plan["stages"].values())
    assert plan["turns_per_version"] == 26
