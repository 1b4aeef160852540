"""Dataset statistics: the SPEC §1 figures measured on a dataset, beside the paper's.

``dataset_stats`` works on any dataset in the bemula format (a folder, a
:class:`~bemula.dataset.Dataset`, or a list of instances), so a third party's data can be
compared with the paper the same way as ours. Control probes are counted separately
(``control_probes``) and never in ``questions``: the paper's 1,742 excludes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bemula.dataset import Dataset
from bemula.model import AttackFrame, Instance, RequestType, Sensitivity, Suite, Tier

#: the paper's figures (SPEC §1, "Scale"), keyed like :func:`dataset_stats`
PAPER: dict[str, Any] = {
    "instances": 50,
    "tiers": {"short": 15, "medium": 16, "long": 16, "xlong": 3},
    "sessions": 746,
    "turns_per_version": 36_900,
    "atomic_facts": 2_993,
    "derived_facts": 77,
    "sensitive_facts": 1_056,
    "requests": 135,
    "requests_by_type": {"F4": 13},
    "targeted_facts": 269,
    "questions": 1_742,
    "questions_by_suite": {"relearning": 114, "attack": 1_030},
    "span_days": {"min": 10, "max": 114, "mean": 49},
    "atomic_facts_per_profile": 60,
    "lite_instances": 31,
    "lite_questions": 848,
}

LITE_TIERS = (Tier.SHORT, Tier.MEDIUM)


def _instances(source: Any) -> Iterable[Instance]:
    if isinstance(source, (str, Path)):
        return Dataset.open(source)
    if isinstance(source, Dataset):
        return source
    return source


def dataset_stats(source: Any) -> dict[str, Any]:
    """Count everything SPEC §1 reports. ``source``: a folder path, a Dataset, or instances."""
    tiers = {t.value: 0 for t in Tier}
    by_type = {t.value: 0 for t in RequestType}
    by_suite = {s.value: 0 for s in Suite}
    by_frame = {f.value: 0 for f in AttackFrame}
    n = sessions = turns = atomic = derived = sensitive = requests = targeted = questions = probes = 0
    lite_instances = lite_questions = 0
    spans: list[float] = []
    words: list[int] = []
    per_tier_turns: dict[str, list[int]] = {t.value: [] for t in Tier}
    per_tier_questions: dict[str, list[int]] = {t.value: [] for t in Tier}
    per_tier_requests: dict[str, list[int]] = {t.value: [] for t in Tier}
    for inst in _instances(source):
        n += 1
        tiers[inst.tier.value] += 1
        sessions += len(inst.forget.sessions)
        t = inst.forget.n_turns
        turns += t
        per_tier_turns[inst.tier.value].append(t)
        atomic += len(inst.profile.facts)
        derived += len(inst.profile.derived_facts)
        sensitive += sum(1 for f in inst.profile.facts if f.sensitivity != Sensitivity.LOW)
        requests += len(inst.requests)
        per_tier_requests[inst.tier.value].append(len(inst.requests))
        for r in inst.requests:
            by_type[r.type.value] += 1
            targeted += len(r.target_fact_ids)
        q_here = 0
        for q in inst.questions:
            if q.is_probe:
                probes += 1
                continue
            q_here += 1
            by_suite[q.suite.value] += 1
            if q.frame is not None:
                by_frame[q.frame.value] += 1
        questions += q_here
        per_tier_questions[inst.tier.value].append(q_here)
        if inst.tier in LITE_TIERS:
            lite_instances += 1
            lite_questions += q_here
        spans.append(inst.span_days)
        words.append(sum(len(t.text.split()) for _, t in inst.forget.iter_turns()))

    def _range(values: list[int]) -> dict[str, float]:
        if not values:
            return {"min": 0, "max": 0, "mean": 0.0}
        return {"min": min(values), "max": max(values), "mean": round(sum(values) / len(values), 1)}

    return {
        "instances": n,
        "tiers": tiers,
        "sessions": sessions,
        "turns_per_version": turns,
        "atomic_facts": atomic,
        "derived_facts": derived,
        "sensitive_facts": sensitive,
        "requests": requests,
        "requests_by_type": by_type,
        "targeted_facts": targeted,
        "questions": questions,
        "questions_by_suite": by_suite,
        "questions_by_frame": by_frame,
        "control_probes": probes,
        "span_days": {
            "min": round(min(spans), 1) if spans else 0.0,
            "max": round(max(spans), 1) if spans else 0.0,
            "mean": round(sum(spans) / len(spans), 1) if spans else 0.0,
        },
        "atomic_facts_per_profile": round(atomic / n, 1) if n else 0.0,
        # whitespace words of the forget version (the paper reports ~84.8K *tokens* per instance)
        "words_per_instance": _range(words),
        "lite_instances": lite_instances,
        "lite_questions": lite_questions,
        "per_tier": {
            tier: {"turns": _range(per_tier_turns[tier]), "requests": _range(per_tier_requests[tier]),
                   "questions": _range(per_tier_questions[tier])}
            for tier in tiers
        },
    }


def counts_for_manifest(instances: Iterable[Instance]) -> dict[str, int | dict[str, int]]:
    """The integer counts of :func:`dataset_stats`, in the manifest's ``counts`` shape."""
    stats = dataset_stats(list(instances))
    out: dict[str, int | dict[str, int]] = {}
    for key, value in stats.items():
        if isinstance(value, int):
            out[key] = value
        elif isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
            out[key] = dict(value)
    return out


def paper_figure(key: str, sub: str | None = None) -> Any:
    value = PAPER.get(key)
    if sub is not None:
        return value.get(sub) if isinstance(value, dict) else None
    return value
