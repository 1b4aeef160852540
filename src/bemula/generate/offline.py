"""The offline benchmark generator: seeded, template-based, no network, no model.

``generate_benchmark(seed, out)`` writes a complete dataset with the paper's shape. The
shape is decided up front for the whole benchmark (:func:`allocate`): per-instance turn
counts, sessions, spans, profile sizes, request types and question counts are spread
evenly (stratified) inside each tier's range so the totals land on the paper's figures,
then each instance is built by the stages

    profile → plan_requests → relearning facts → schedule → render → questions

each with its own ``random.Random`` derived from (seed, instance index), so one
instance's content never depends on another's and the output is byte-identical for a
seed. No set or dict iteration order is relied on anywhere.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from bemula import __version__
from bemula.dataset import write_dataset
from bemula.generate.dialogue import render
from bemula.generate.plan import PlanError, add_relearning_facts, plan_requests, schedule
from bemula.generate.profile import build_profile
from bemula.generate.questions import QuestionBudget, QuestionWriter
from bemula.model import Instance, Manifest, RequestType, Tier

GENERATOR_NAME = "bemula-offline"
GENERATOR_VERSION = "1.0"


@dataclass(frozen=True)
class TierShape:
    """Ranges each tier's instances are spread over (stratified, so means are exact)."""

    tier: Tier
    count: int
    turns: tuple[int, int]
    span_days: tuple[int, int]
    facts: tuple[int, int]
    derived: tuple[int, int]
    requests: tuple[int, ...]  # one entry per instance, shuffled
    questions: tuple[int, int]  # allowed range per instance
    retention: tuple[int, int]


# Chosen so the totals land on the paper: 36,900 turns per version, 746 sessions, span mean
# 49 days, 2,993 atomic facts (relearning facts included), 77 derived facts, 135 requests,
# 1,742 questions of which Lite (short + medium) 848.
TIERS: tuple[TierShape, ...] = (
    TierShape(Tier.SHORT, 15, (100, 160), (10, 30), (45, 49), (1, 1), (1,) * 8 + (2,) * 7, (11, 33), (3, 5)),
    TierShape(Tier.MEDIUM, 16, (210, 840), (25, 65), (55, 61), (1, 2), (2,) * 6 + (3,) * 10, (15, 60), (2, 4)),
    TierShape(Tier.LONG, 16, (930, 1280), (45, 95), (61, 67), (1, 3), (3,) * 8 + (4,) * 8, (20, 70), (3, 5)),
    TierShape(Tier.XLONG, 3, (2760, 3440), (96, 114), (74, 78), (2, 2), (4, 5, 6), (50, 70), (4, 4)),
)

#: the request-type deck (sums to 135, F4 = 13 as in the paper)
TYPE_DECK: dict[RequestType, int] = {
    RequestType.F1: 26, RequestType.F2: 24, RequestType.F3: 22, RequestType.F4: 13, RequestType.F5: 22,
    RequestType.F6: 28,
}

#: sessions ≈ 3 + turns / SESSION_TURNS (746 sessions over 36,900 turns)
SESSION_TURNS = 62
#: how many of a request's targets get the five attack frames (paper: 206 attacked of 269
#: targets); single-target requests are always attacked, capped by the tier's question range
ATTACKS_PER_REQUEST = {RequestType.F1: 1, RequestType.F2: 3, RequestType.F3: 2, RequestType.F4: 1,
                       RequestType.F5: 2, RequestType.F6: 1}
#: share of F2/F3 requests that get a second relearning fact (paper: 114 relearning)
EXTRA_RELEARN_SHARE = 0.1


@dataclass
class InstanceShape:
    index: int
    id: str
    tier: Tier
    turns: int
    sessions: int
    span_days: int
    facts: int
    derived: int
    types: list[RequestType]
    questions: tuple[int, int]
    retention: int
    n_requests: int = 0
    start: datetime = field(default_factory=lambda: datetime(2025, 1, 1))


def _spread(rng: random.Random, lo: int, hi: int, n: int) -> list[int]:
    """n integers evenly spread over [lo, hi] (endpoints included), in random order."""
    if n == 1:
        return [round((lo + hi) / 2)]
    vals = [round(lo + (hi - lo) * i / (n - 1)) for i in range(n)]
    rng.shuffle(vals)
    return vals


def _deal_types(rng: random.Random, counts: list[int]) -> list[list[RequestType]]:
    """Deal the type deck to instances; no type twice in one instance while avoidable."""
    remaining = dict(TYPE_DECK)
    order = sorted(range(len(counts)), key=lambda i: (-counts[i], i))
    hands: list[list[RequestType]] = [[] for _ in counts]
    for i in order:
        for _ in range(counts[i]):
            options = [t for t in RequestType if remaining[t] > 0 and t not in hands[i]]
            if not options:
                options = [t for t in RequestType if remaining[t] > 0]
            top = max(remaining[t] for t in options)
            best = [t for t in options if remaining[t] >= top - 2]
            t = best[rng.randrange(len(best))]
            hands[i].append(t)
            remaining[t] -= 1
    return hands


def allocate(seed: int, tiers: tuple[TierShape, ...] = TIERS) -> list[InstanceShape]:
    rng = random.Random(f"bemula-allocate-{seed}")
    shapes: list[InstanceShape] = []
    for ts in tiers:
        turns = _spread(rng, *ts.turns, ts.count)
        spans = _spread(rng, *ts.span_days, ts.count)
        facts = _spread(rng, *ts.facts, ts.count)
        derived = _spread(rng, *ts.derived, ts.count)
        retention = _spread(rng, *ts.retention, ts.count)
        reqs = list(ts.requests)
        rng.shuffle(reqs)
        for k in range(ts.count):
            t = turns[k] - turns[k] % 2
            shapes.append(InstanceShape(
                index=len(shapes), id=f"bemula-{ts.tier.value}-{k + 1:02d}", tier=ts.tier, turns=t,
                sessions=max(3, round(3 + t / SESSION_TURNS)), span_days=spans[k], facts=facts[k],
                derived=derived[k], types=[], questions=ts.questions,
                retention=retention[k], n_requests=reqs[k],
                start=datetime(2025, 1, 6, 9, 0) + timedelta(days=rng.randrange(300), minutes=rng.randrange(600)),
            ))
    hands = _deal_types(rng, [s.n_requests for s in shapes])
    for shape, hand in zip(shapes, hands, strict=True):
        shape.types = hand
        # an instance needs a derived fact for every F4 request it makes
        shape.derived = max(shape.derived, hand.count(RequestType.F4))
    return shapes


def _budget(shape: InstanceShape, plans: list) -> QuestionBudget:
    """Efficacy and relearning counts follow from the plan; attacks follow the per-type
    policy; one preservation question per request; retention from the allocation. Attacks
    (then retention) give way when the tier's question range would be exceeded."""
    fixed = sum(len(p.targets) + len(p.relearn_ids) for p in plans)
    attacks = {p.id: min(len(p.targets), ATTACKS_PER_REQUEST[p.type]) for p in plans}
    preservation = len(plans)
    retention = shape.retention
    lo, hi = shape.questions

    def total() -> int:
        return fixed + 5 * sum(attacks.values()) + preservation + retention

    while total() > hi:
        rid = max(attacks, key=lambda r: (attacks[r], r))
        if attacks[rid] > 1 or (attacks[rid] == 1 and total() - 5 >= lo):
            attacks[rid] -= 1
        elif retention > 1:
            retention -= 1
        else:
            break
    while total() < lo:
        retention += 1
    return QuestionBudget(retention=retention, preservation=preservation, attacks=attacks)


def _instance_rng(seed: int, index: int, attempt: int) -> random.Random:
    digest = hashlib.sha256(f"bemula-offline/{seed}/{index}/{attempt}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def build_instance(seed: int, shape: InstanceShape) -> Instance:
    """Build one instance; a plan that cannot satisfy the constraints is retried with a
    fresh (still deterministic) random stream."""
    last_error: Exception | None = None
    for attempt in range(20):
        rng = _instance_rng(seed, shape.index, attempt)
        try:
            return _build(rng, shape)
        except PlanError as exc:
            last_error = exc
    raise RuntimeError(f"{shape.id}: could not plan after 20 attempts: {last_error}")


def _build(rng: random.Random, shape: InstanceShape) -> Instance:
    user, builder = build_profile(rng, shape.facts, shape.derived)
    plans = plan_requests(rng, builder, list(shape.types))
    add_relearning_facts(rng, builder, plans, EXTRA_RELEARN_SHARE)
    sessions = schedule(rng, builder, plans, shape.sessions, shape.turns // 2)
    _renumber_requests(plans, sessions, builder)
    profile = builder.profile(user)
    rendered = render(rng, profile, plans, sessions, shape.start, shape.span_days)
    budget = _budget(shape, plans)
    covered = {f for p in plans for f in p.stated_before}
    shares_turn = {fid for sp in sessions for e in sp.exchanges if e.kind == "fact" and covered & set(e.fact_ids)
                   for fid in e.fact_ids if fid not in covered}
    questions = QuestionWriter(rng, profile, plans, shares_turn).write(budget)
    return Instance(id=shape.id, tier=shape.tier, profile=profile, forget=rendered.forget,
                    control=rendered.control, requests=rendered.requests, questions=questions)


def _renumber_requests(plans, sessions, builder) -> None:
    """Request ids R1, R2, ... in dialogue order (planning order is by constraint)."""
    order: list[str] = []
    for sp in sessions:
        order.extend(e.request_id for e in sp.exchanges if e.kind == "request" and e.request_id)
    mapping = {old: f"R{i + 1}" for i, old in enumerate(order)}
    for p in plans:
        p.id = mapping[p.id]
    for sp in sessions:
        for e in sp.exchanges:
            if e.request_id:
                e.request_id = mapping[e.request_id]
    for f in builder.facts:
        if f.relearns:
            f.relearns = mapping[f.relearns]
    plans.sort(key=lambda p: int(p.id[1:]))


def generate_instances(seed: int, *, lite: bool = False,
                       progress: Callable[[str], None] | None = None) -> list[Instance]:
    """Build every instance in allocation order (about 10 s of CPU for the full benchmark;
    a process pool was measured slower on the shared 2-core machine, so this stays serial)."""
    shapes = allocate(seed)
    if lite:
        shapes = [s for s in shapes if s.tier in (Tier.SHORT, Tier.MEDIUM)]
    out = []
    for shape in shapes:
        out.append(build_instance(seed, shape))
        if progress:
            progress(shape.id)
    return out


def generate_benchmark(seed: int, out: Path, *, lite: bool = False,
                       progress: Callable[[str], None] | None = None) -> Manifest:
    """Generate the benchmark (or its Lite subset) for ``seed`` into ``out``."""
    from bemula.stats import counts_for_manifest

    instances = generate_instances(seed, lite=lite, progress=progress)
    generator = {"name": GENERATOR_NAME, "version": GENERATOR_VERSION, "bemula": __version__, "seed": str(seed),
                 "subset": "lite" if lite else "full"}
    return write_dataset(Path(out), instances, generator=generator, counts=counts_for_manifest(instances))
