"""The generated benchmark has the paper's shape: every SPEC §1 figure within 5%."""

from __future__ import annotations

import pytest

from bemula.model import Instance, Tier
from bemula.stats import dataset_stats

TARGETS = {
    "sessions": 746,
    "turns_per_version": 36_900,
    "atomic_facts": 2_993,
    "sensitive_facts": 1_056,
    "derived_facts": 77,
    "targeted_facts": 269,
    "questions": 1_742,
    "lite_questions": 848,
}


@pytest.fixture(scope="module")
def stats(benchmark_seed0: list[Instance]) -> dict:
    return dataset_stats(benchmark_seed0)


@pytest.mark.parametrize("key", sorted(TARGETS))
def test_total_within_5_percent(stats: dict, key: str) -> None:
    target = TARGETS[key]
    assert abs(stats[key] - target) <= 0.05 * target, (key, stats[key], target)


def test_exact_counts(stats: dict) -> None:
    assert stats["instances"] == 50
    assert stats["tiers"] == {"short": 15, "medium": 16, "long": 16, "xlong": 3}
    assert stats["requests"] == 135
    assert stats["requests_by_type"]["F4"] == 13
    assert all(n > 0 for n in stats["requests_by_type"].values())
    assert stats["lite_instances"] == 31


def test_suites_and_frames(stats: dict) -> None:
    by_suite = stats["questions_by_suite"]
    assert abs(by_suite["relearning"] - 114) <= 0.05 * 114
    assert abs(by_suite["attack"] - 1030) <= 0.05 * 1030
    frames = stats["questions_by_frame"]
    assert len(set(frames.values())) == 1, "every attacked target gets all five frames"
    assert sum(frames.values()) == by_suite["attack"]
    assert stats["control_probes"] == by_suite["efficacy"] + by_suite["preservation"] + by_suite["attack"]


def test_span(stats: dict) -> None:
    span = stats["span_days"]
    assert 9.5 <= span["min"] <= 10.5
    assert 108 <= span["max"] <= 114.5
    assert abs(span["mean"] - 49) <= 0.05 * 49
    assert abs(stats["atomic_facts_per_profile"] - 60) <= 3


RANGES = {Tier.SHORT: (96, 164), Tier.MEDIUM: (165, 915), Tier.LONG: (916, 2687), Tier.XLONG: (2688, 3500)}


def test_per_tier_ranges(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        lo, hi = RANGES[inst.tier]
        assert lo <= inst.forget.n_turns <= hi, inst.id
        n_q = sum(1 for q in inst.questions if not q.is_probe)
        if inst.tier == Tier.SHORT:
            assert 1 <= len(inst.requests) <= 2, inst.id
            assert 11 <= n_q <= 33, (inst.id, n_q)
        if inst.tier == Tier.XLONG:
            assert 4 <= len(inst.requests) <= 6, inst.id
            assert 50 <= n_q <= 70, (inst.id, n_q)
