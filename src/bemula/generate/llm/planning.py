"""Stage 2 — dialogue planning: sessions over a time span, facts scheduled into user turns,
requests of the six types placed after their targets.

The schedule is code, not LLM output: the invariants (a target is stated in an earlier
session than its request; F4 states only the sources; an F5 window holds exactly its
targets; a relearning fact comes after its request) must hold by construction, and a 0.5B
model cannot be trusted with them. The LLM contributes what needs imagination: one topic per
session and the new value of each F6 replacement. Where the profile cannot support a type
(no verified derived fact for F4, no clean category for F3, no free session for F5, no
usable new value for F6) the request falls back to a simpler type, and that is counted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypedDict

from pydantic import BaseModel

from bemula.generate.llm import prompts
from bemula.generate.llm.config import REQUEST_STYLES, TierShape
from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.schemas import (
    NewValue,
    PlannedUserTurn,
    PlanStage,
    ProfileStage,
    RequestPlan,
    SessionPlan,
    TopicList,
)
from bemula.generate.llm.text import normalize
from bemula.model import Fact, Profile, RequestType, TimeWindow

STAGE = "planning"
BASE_DATE = datetime(2026, 1, 5, 0, 0, 0)

FALLBACK_TOPICS = (
    "planning the week ahead", "a recipe for a quick dinner", "a book recommendation",
    "sorting out a messy inbox", "ideas for a weekend outing", "a gift for a friend",
    "fixing a slow laptop", "getting better sleep", "a budget for next month",
    "learning a few words of Spanish", "a rainy-day plan", "training for a 5k run",
    "organising a small party", "decluttering the kitchen", "a podcast to try",
    "writing a polite email to a neighbour", "houseplants that survive neglect",
    "a packing list for a short trip", "choosing a new phone case", "a birthday message",
)


_PRIORITY = {RequestType.F4: 0, RequestType.F3: 1, RequestType.F5: 2, RequestType.F6: 3, RequestType.F2: 4,
             RequestType.F1: 5}


class PlanError(Exception):
    """The profile cannot carry the planned shape (e.g. more facts than user turns)."""


class _Topics(BaseModel):
    topics: list[str]
    fallback: bool = False


class _PlanPlace(TypedDict):
    """The :class:`RequestPlan` fields every request type shares."""

    id: str
    session_id: str
    after_pair: int
    style: str


class _NewValueMemo(BaseModel):
    new_value: str | None = None


@dataclass
class _Constraints:
    exact: dict[str, int] = field(default_factory=dict)  # fact -> session
    before: dict[str, int] = field(default_factory=dict)  # fact -> must be in a session < this
    after: dict[str, tuple[int, int]] = field(default_factory=dict)  # fact -> at or after (session, pair)
    windows: set[int] = field(default_factory=set)


def plan_instance(ctx: InstanceContext, profile_stage: ProfileStage) -> PlanStage:
    cached = ctx.cache.get("stage:planning", PlanStage)
    if cached is not None:
        return cached
    rng = ctx.rng("plan")
    drawn = draw_plan_shape(rng, ctx.shape, ctx.config.request_types, ctx.index)
    n_sessions, pairs, starts, types = drawn.n_sessions, drawn.pairs, drawn.starts, drawn.types
    request_sessions = sorted(rng.sample(range(1, n_sessions), len(types)))

    profile = profile_stage.profile.model_copy(deep=True)
    facts = {f.id: f for f in profile.facts}
    free = [f.id for f in profile.facts]
    rng.shuffle(free)
    cons = _Constraints()
    requests: list[RequestPlan] = []
    slots = list(enumerate(zip(types, request_sessions, strict=True), start=1))
    # the most constrained types choose their targets first (as the offline planner does),
    # so an F3 category or an F1 target never takes the sources an F4 needs
    slots.sort(key=lambda s: (_PRIORITY[s[1][0]], s[0]))
    for number, (wanted, r) in slots:
        request_id = f"R{number}"
        after_pair = rng.randint(1, pairs[r] - 1)
        plan = _choose_targets(ctx, rng, wanted, request_id, r, after_pair, profile, facts, free, cons,
                               request_sessions, starts)
        if plan is None:
            ctx.meters.count(STAGE, "requests_dropped")
            continue
        if plan.type != wanted:
            ctx.meters.count(STAGE, "request_type_fallbacks")
        plan.style = REQUEST_STYLES[rng.randrange(len(REQUEST_STYLES))]
        requests.append(plan)
        if plan.type != RequestType.F6:
            _pick_relearning(rng, plan, facts, free, cons, r, after_pair)
    requests.sort(key=lambda p: int(p.id[1:]))
    if not requests:
        raise PlanError(f"{ctx.instance_id}: no request could be planned from a profile of {len(facts)} facts")

    schedule = _schedule(rng, profile, pairs, cons)
    topics = _topics(ctx, profile, n_sessions)
    sessions = [
        SessionPlan(
            id=f"S{s + 1:02d}",
            start=starts[s],
            topic=topics[s],
            pairs=pairs[s],
            user_turns=[PlannedUserTurn(index=i, facts=schedule.get((s, i), [])) for i in range(pairs[s])],
        )
        for s in range(n_sessions)
    ]
    preservation, retention = _question_facts(ctx, rng, profile, requests, cons)
    out = PlanStage(
        profile=profile,
        sessions=sessions,
        requests=requests,
        preservation_fact_ids=preservation,
        retention_fact_ids=retention,
    )
    ctx.cache.put("stage:planning", out)
    return out


@dataclass
class PlanShape:
    """The seeded sizes of one instance's plan (shared with the dry-run estimate)."""

    n_sessions: int
    pairs: list[int]
    starts: list[datetime]
    types: list[RequestType]


def draw_plan_shape(rng: random.Random, shape: TierShape, cycle: tuple[RequestType, ...], index: int) -> PlanShape:
    n_sessions = max(2, rng.randint(*shape.sessions))
    pairs = [max(2, rng.randint(*shape.pairs_per_session)) for _ in range(n_sessions)]
    span = max(rng.randint(*shape.span_days), n_sessions - 1)
    starts = _session_starts(rng, n_sessions, span)
    n_requests = min(rng.randint(*shape.requests), n_sessions - 1)
    types = [cycle[(index * 3 + i) % len(cycle)] for i in range(n_requests)]
    return PlanShape(n_sessions=n_sessions, pairs=pairs, starts=starts, types=types)


def _session_starts(rng: random.Random, n: int, span: int) -> list[datetime]:
    base = BASE_DATE + timedelta(days=rng.randrange(0, 300))
    days = [0, span] if n >= 2 else [0]
    days += rng.sample(range(1, span), n - len(days)) if n > 2 else []
    out = []
    for day in sorted(days):
        minutes = rng.randrange(8 * 60, 20 * 60)
        out.append(base + timedelta(days=day, minutes=minutes))
    return out


def _take(free: list[str], n: int, prefer: list[str] | None = None) -> list[str] | None:
    if len(free) < n:
        return None
    picked = [f for f in (prefer or []) if f in free][:n]
    for fid in free:
        if len(picked) >= n:
            break
        if fid not in picked:
            picked.append(fid)
    for fid in picked:
        free.remove(fid)
    return picked


def _choose_targets(
    ctx: InstanceContext,
    rng: random.Random,
    wanted: RequestType,
    request_id: str,
    r: int,
    after_pair: int,
    profile: Profile,
    facts: dict[str, Fact],
    free: list[str],
    cons: _Constraints,
    request_sessions: list[int],
    starts: list[datetime],
) -> RequestPlan | None:
    base = _PlanPlace(id=request_id, session_id=f"S{r + 1:02d}", after_pair=after_pair, style="")
    if wanted == RequestType.F4:
        for derived in profile.derived_facts:
            if all(s in free for s in derived.source_fact_ids):
                for s in derived.source_fact_ids:
                    free.remove(s)
                    cons.before[s] = r
                return RequestPlan(type=RequestType.F4, target_fact_ids=[derived.id], **base)
        wanted = RequestType.F2
    if wanted == RequestType.F5:
        # never session 0: it stays free so every request has a session before it for its targets
        windows = [w for w in range(1, r) if w not in request_sessions and w not in cons.windows]
        if windows and len(free) >= 2:
            w = rng.choice(windows)
            targets = _take(free, 2)
            assert targets is not None
            for t in targets:
                cons.exact[t] = w
            cons.windows.add(w)
            day = starts[w].replace(hour=0, minute=0, second=0, microsecond=0)
            window = TimeWindow(start=day, end=day + timedelta(hours=23, minutes=59, seconds=59),
                                session_ids=[f"S{w + 1:02d}"])
            return RequestPlan(type=RequestType.F5, target_fact_ids=targets, window=window, **base)
        wanted = RequestType.F1
    if wanted == RequestType.F3:
        by_category: dict[str, list[str]] = {}
        for f in profile.facts:
            by_category.setdefault(f.category, []).append(f.id)
        clean = [c for c, ids in by_category.items() if 2 <= len(ids) <= 4 and all(i in free for i in ids)]
        if clean:
            category = rng.choice(sorted(clean))
            targets = by_category[category]
            for t in targets:
                free.remove(t)
                cons.before[t] = r
            return RequestPlan(type=RequestType.F3, target_fact_ids=list(targets), category=category, **base)
        wanted = RequestType.F2
    if wanted == RequestType.F6 and free:
        fid = free[0]
        new_value = _new_value(ctx, request_id, facts[fid], facts)
        if new_value is not None:
            free.remove(fid)
            cons.before[fid] = r
            return RequestPlan(type=RequestType.F6, target_fact_ids=[fid], new_value=new_value, **base)
        wanted = RequestType.F1  # no usable new value: the request becomes a plain F1
    if wanted == RequestType.F2:
        n = 3 if len(free) >= 12 else 2
        spread: list[str] = []
        seen: set[str] = set()
        for fid in free:
            if facts[fid].category not in seen:
                spread.append(fid)
                seen.add(facts[fid].category)
        targets = _take(free, n, prefer=spread)
        if targets is not None:
            for t in targets:
                cons.before[t] = r
            return RequestPlan(type=RequestType.F2, target_fact_ids=targets, **base)
        wanted = RequestType.F1
    targets = _take(free, 1)
    if targets is None:
        return None
    cons.before[targets[0]] = r
    return RequestPlan(type=RequestType.F1, target_fact_ids=targets, **base)


def _new_value(ctx: InstanceContext, request_id: str, fact: Fact, facts: dict[str, Fact]) -> str | None:
    key = f"plan:new_value:{request_id}"
    memo = ctx.cache.get(key, _NewValueMemo)
    if memo is None:
        others = {normalize(f.value) for f in facts.values()}

        def check(v: NewValue) -> str | None:
            new = normalize(v.new_value)
            old = normalize(fact.value)
            if not new or new == old or old in new or new in old:
                return f"the new value must be clearly different from \"{fact.value}\""
            if new in others or len(new.split()) > 6:
                return "give a short new value (1-4 words) not used elsewhere"
            return None

        drafted = ctx.caller.json(STAGE, prompts.NEW_VALUE, NewValue, max_tokens=40, temperature=0.7,
                                  check=check, attribute=fact.attribute, value=fact.value)
        memo = _NewValueMemo(new_value=drafted.new_value.strip().rstrip(".") if drafted else None)
        ctx.cache.put(key, memo)
    return memo.new_value


def _pick_relearning(
    rng: random.Random, plan: RequestPlan, facts: dict[str, Fact], free: list[str], cons: _Constraints,
    r: int, after_pair: int,
) -> None:
    """A new fact similar to the removed ones (same category when possible), stated after the request."""
    first = facts.get(plan.target_fact_ids[0])
    category = first.category if first is not None else None
    same = [f for f in free if category is not None and facts[f].category == category]
    picked = _take(free, 1, prefer=same)
    if picked is None:
        return
    fid = picked[0]
    cons.after[fid] = (r, after_pair)
    facts[fid].relearns = plan.id


def _schedule(rng: random.Random, profile: Profile, pairs: list[int], cons: _Constraints) -> dict[tuple[int, int], list[str]]:
    """Place every atomic fact in one user turn, honouring the constraints, spreading the load."""
    slots = [(s, i) for s in range(len(pairs)) for i in range(pairs[s])]
    load: dict[tuple[int, int], list[str]] = {}

    def feasible(fid: str) -> list[tuple[int, int]]:
        if fid in cons.exact:
            return [(s, i) for s, i in slots if s == cons.exact[fid]]
        out = [(s, i) for s, i in slots if s not in cons.windows]
        if fid in cons.before:
            out = [(s, i) for s, i in out if s < cons.before[fid]]
        if fid in cons.after:
            rs, ra = cons.after[fid]
            out = [(s, i) for s, i in out if (s, i) >= (rs, ra)]
        return out

    def tightness(fid: str) -> tuple[int, int]:
        return (0 if fid in cons.exact else 1, len(feasible(fid)))

    for fid in sorted((f.id for f in profile.facts), key=tightness):
        options = feasible(fid)
        if not options:
            raise PlanError(f"fact {fid} has no turn that satisfies its constraints")
        least = min(len(load.get(o, [])) for o in options)
        slot = rng.choice([o for o in options if len(load.get(o, [])) == least])
        load.setdefault(slot, []).append(fid)
    return load


def _topics(ctx: InstanceContext, profile: Profile, n: int) -> list[str]:
    memo = ctx.cache.get("plan:topics", _Topics)
    if memo is None:
        user = profile.user
        listed = ctx.caller.json(
            STAGE, prompts.SESSION_TOPICS, TopicList, max_tokens=16 * n + 40, temperature=0.9,
            user=f"{user.get('name')}, {user.get('age')}, {user.get('occupation')} in {user.get('city')}", n=n,
        )
        topics = list(dict.fromkeys(t.strip().rstrip(".") for t in (listed.topics if listed else []) if t.strip()))
        fallback = len(topics) < n
        if fallback:
            ctx.meters.count(STAGE, "topics_padded", n - len(topics))
            pool = [t for t in FALLBACK_TOPICS if t not in topics]
            ctx.rng("topics").shuffle(pool)
            topics += pool[: n - len(topics)]
            while len(topics) < n:
                topics.append(f"{FALLBACK_TOPICS[len(topics) % len(FALLBACK_TOPICS)]} (part {len(topics) + 1})")
        memo = _Topics(topics=topics[:n], fallback=fallback)
        ctx.cache.put("plan:topics", memo)
    return memo.topics


def _question_facts(
    ctx: InstanceContext, rng: random.Random, profile: Profile, requests: list[RequestPlan], cons: _Constraints
) -> tuple[list[str], list[str]]:
    """Untargeted facts for preservation (forget version) and retention (control version)."""
    excluded: set[str] = set()
    for req in requests:
        excluded.update(req.target_fact_ids)
    for d in profile.derived_facts:
        if any(d.id in req.target_fact_ids for req in requests):
            excluded.update(d.source_fact_ids)
    f3_categories = {req.category for req in requests if req.type == RequestType.F3}
    candidates = [
        f.id for f in profile.facts
        if f.id not in excluded and f.relearns is None and f.id not in cons.exact and f.category not in f3_categories
    ]
    rng.shuffle(candidates)
    n_pres = ctx.config.preservation_per_request * len(requests)
    n_ret = ctx.config.retention_per_request * len(requests)
    preservation = sorted(candidates[:n_pres])
    rest = candidates[n_pres:] or candidates
    retention = sorted(rest[:n_ret])
    return preservation, retention

