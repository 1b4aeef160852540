"""Planning: which facts each request targets, and where every fact, request and filler
exchange goes in the session timeline.

The plan is the contract between the stages. The offline generator renders it with
templates (:mod:`bemula.generate.dialogue`); an LLM pipeline can hand the same plan to a
user/assistant simulator. Invariants established here (SPEC §1):

* every target (F4: its sources) is stated in an earlier session than its request;
* an F3 request targets every fact of its category stated before it, and no other fact of
  that category is stated before it (later ones are relearning facts);
* an F5 request targets exactly the facts stated in its window session, and nothing else
  is stated there (no other facts, no requests, no echoes of facts);
* relearning facts are stated after their request, in the same or a later session;
* targets of different requests are disjoint.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bemula.generate.catalog import ATTRIBUTE_BY_KEY, CATEGORY_BY_KEY, Attribute, Value
from bemula.generate.profile import ProfileBuilder, pick_value
from bemula.model import RequestType


class PlanError(RuntimeError):
    """The requested shape cannot be planned for this profile (the caller retries)."""


@dataclass
class RequestPlan:
    id: str
    type: RequestType
    targets: list[str]
    #: atomic facts that must be stated before the request (targets, or F4 sources)
    stated_before: list[str]
    category: str | None = None
    new_value: Value | None = None
    window_session: int | None = None
    session: int = -1
    relearn_ids: list[str] = field(default_factory=list)
    #: facts of an F3 category the request explicitly keeps ("... but keep X"; edition 2)
    kept: list[str] = field(default_factory=list)


@dataclass
class Exchange:
    """One user turn + one assistant turn."""

    kind: str  # "fact" | "filler" | "echo" | "request"
    fact_ids: list[str] = field(default_factory=list)
    request_id: str | None = None


@dataclass
class SessionPlan:
    index: int
    exchanges: list[Exchange]
    is_window: bool = False


# --------------------------------------------------------------------------- requests


def _free(builder: ProfileBuilder, used: set[str]) -> list[str]:
    return [f.id for f in builder.facts if f.id not in used and f.relearns is None]


def plan_requests(rng: random.Random, builder: ProfileBuilder, types: list[RequestType]) -> list[RequestPlan]:
    """Choose disjoint targets for each request type (most constrained types first)."""
    facts = {f.id: f for f in builder.facts}
    used: set[str] = set()
    blocked_categories: set[str] = set()
    plans: list[RequestPlan] = []
    order = {RequestType.F4: 0, RequestType.F3: 1, RequestType.F5: 2, RequestType.F6: 3, RequestType.F2: 4,
             RequestType.F1: 5}
    for rtype in sorted(types, key=lambda t: order[t]):
        rid = f"R{len(plans) + 1}"
        if rtype == RequestType.F4:
            options = [d for d in builder.derived if not any(s in used for s in d.source_fact_ids)]
            if not options:
                raise PlanError("no derived fact left for F4")
            d = options[rng.randrange(len(options))]
            used.update(d.source_fact_ids)
            used.add(d.id)
            blocked_categories.update(facts[s].category for s in d.source_fact_ids)
            plans.append(RequestPlan(rid, rtype, [d.id], list(d.source_fact_ids)))
        elif rtype == RequestType.F3:
            by_cat: dict[str, list[str]] = {}
            for f in builder.facts:
                by_cat.setdefault(f.category, []).append(f.id)
            good = [c for c, ids in sorted(by_cat.items())
                    if c not in blocked_categories and not any(i in used for i in ids)]
            preferred = [c for c in good if 3 <= len(by_cat[c]) <= 5]
            fallback = [c for c in good if 2 <= len(by_cat[c]) <= 7]
            pool = preferred or fallback
            if not pool:
                raise PlanError("no category fits an F3 request")
            cat = pool[rng.randrange(len(pool))]
            ids = by_cat[cat]
            used.update(ids)
            blocked_categories.add(cat)
            plans.append(RequestPlan(rid, rtype, list(ids), list(ids), category=cat))
        else:
            free = [i for i in _free(builder, used) if facts[i].category not in blocked_categories]
            if rtype == RequestType.F6:
                free = [i for i in free if ATTRIBUTE_BY_KEY[facts[i].attribute].changeable]
                rng.shuffle(free)
                for fid in free:
                    attr = ATTRIBUTE_BY_KEY[facts[fid].attribute]
                    new = pick_value(rng, attr, builder.registry, exclude=(facts[fid].value,))
                    if new is not None:
                        builder.registry.add(new)
                        used.add(fid)
                        plans.append(RequestPlan(rid, rtype, [fid], [fid], new_value=new))
                        break
                else:
                    raise PlanError("no changeable fact for F6")
                continue
            k = {RequestType.F1: 1, RequestType.F2: rng.choice((2, 2, 3)), RequestType.F5: rng.choice((2, 3))}[rtype]
            if len(free) < k:
                raise PlanError(f"not enough free facts for {rtype.value}")
            # prefer facts from different categories (a request naming several details)
            rng.shuffle(free)
            chosen: list[str] = []
            for fid in free:
                if len(chosen) == k:
                    break
                if rtype != RequestType.F5 and any(facts[c].category == facts[fid].category for c in chosen):
                    continue
                chosen.append(fid)
            for fid in free:
                if len(chosen) == k:
                    break
                if fid not in chosen:
                    chosen.append(fid)
            used.update(chosen)
            plans.append(RequestPlan(rid, rtype, chosen, list(chosen)))
    # stable, readable ids in dialogue order are assigned after scheduling
    return plans


def add_relearning_facts(rng: random.Random, builder: ProfileBuilder, plans: list[RequestPlan],
                         extra_share: float) -> None:
    """One new similar fact per request (F6 exempt), a second for some F3/F2 requests.

    Similar = same category as the (first) target, different attribute, so the efficacy
    question about the target can never be answered by the relearning fact."""
    by_id = {f.id: f for f in builder.facts}
    derived = {d.id: d for d in builder.derived}
    for plan in plans:
        if plan.type == RequestType.F6:
            continue
        n = 1 + (1 if plan.type in (RequestType.F3, RequestType.F2) and rng.random() < extra_share else 0)
        first = plan.targets[0]
        category = derived[first].category if first in derived else by_id[first].category
        if plan.type == RequestType.F3 and plan.category:
            category = plan.category
        for _ in range(n):
            pool: list[Attribute] = builder.free_attributes(category)
            if not pool:
                other_cats = [by_id[t].category for t in plan.targets if t in by_id]
                pool = [a for c in other_cats for a in builder.free_attributes(c)] or builder.free_attributes()
            rng.shuffle(pool)
            for attr in pool:
                value = pick_value(rng, attr, builder.registry)
                if value is not None:
                    fact = builder.add_fact(attr, value, relearns=plan.id)
                    plan.relearn_ids.append(fact.id)
                    break


# --------------------------------------------------------------------------- schedule


def _sizes(rng: random.Random, n_sessions: int, total: int, minimum: list[int]) -> list[int]:
    weights = [rng.uniform(0.45, 1.55) for _ in range(n_sessions)]
    scale = total / sum(weights)
    sizes = [max(minimum[i], round(w * scale)) for i, w in enumerate(weights)]
    # adjust to the exact total, respecting minimums
    diff = total - sum(sizes)
    guard = 0
    while diff != 0 and guard < 100_000:
        guard += 1
        i = rng.randrange(n_sessions)
        if diff > 0:
            sizes[i] += 1
            diff -= 1
        elif sizes[i] > minimum[i]:
            sizes[i] -= 1
            diff += 1
    if diff != 0:
        raise PlanError("sessions cannot hold the planned content")
    return sizes


def schedule(rng: random.Random, builder: ProfileBuilder, plans: list[RequestPlan], n_sessions: int,
             n_exchanges: int, echo_share: float = 0.08) -> list[SessionPlan]:
    """Place every fact statement, request and filler exchange into sessions."""
    facts = {f.id: f for f in builder.facts}
    n_req = len(plans)
    if n_sessions < 2:
        raise PlanError("need at least two sessions")
    lo = max(1, round(n_sessions * 0.25))
    candidates = list(range(lo, n_sessions))
    if len(candidates) >= n_req:
        req_sessions = sorted(rng.sample(candidates, n_req))
    else:
        req_sessions = sorted(rng.choice(candidates) for _ in range(n_req))
    order = list(plans)
    rng.shuffle(order)
    # F5 requests need a window session before them: give them the later slots
    order.sort(key=lambda p: p.type == RequestType.F5)
    for plan, s in zip(order, req_sessions, strict=True):
        plan.session = s
    request_sessions = {p.session for p in plans}
    windows: set[int] = set()
    for plan in sorted(plans, key=lambda p: p.session):
        if plan.type != RequestType.F5:
            continue
        options = [s for s in range(plan.session) if s not in request_sessions and s not in windows]
        if not options:
            raise PlanError("no session left for an F5 window")
        plan.window_session = options[rng.randrange(len(options))]
        windows.add(plan.window_session)

    plain = [s for s in range(n_sessions) if s not in windows]
    session_of: dict[str, int] = {}
    # facts a later F3 request covers by category must not appear before it unless targeted
    f3_after: dict[str, RequestPlan] = {p.category: p for p in plans if p.type == RequestType.F3 and p.category}
    after_request: dict[str, str] = {}  # fact id -> request id it must follow (same session)
    for plan in plans:
        for fid in plan.stated_before:
            if plan.type == RequestType.F5:
                session_of[fid] = plan.window_session  # type: ignore[assignment]
                continue
            allowed = [s for s in plain if s < plan.session]
            if not allowed:
                raise PlanError("no session before the request")
            session_of[fid] = allowed[rng.randrange(len(allowed))]
    for plan in plans:
        for fid in plan.relearn_ids:
            earliest = plan.session
            gate = f3_after.get(facts[fid].category)
            if gate is not None and gate is not plan:
                earliest = max(earliest, gate.session)
            allowed = [s for s in plain if s >= earliest]
            s = allowed[rng.randrange(len(allowed))]
            session_of[fid] = s
            if s == plan.session:
                after_request[fid] = plan.id
            if gate is not None and s == gate.session:
                # must follow the F3 request too; when both happen here, follow the later-placed
                after_request.setdefault(fid, gate.id)
                if after_request[fid] != gate.id:
                    after_request[fid] = f"{after_request[fid]}+{gate.id}"
    for f in builder.facts:
        if f.id in session_of:
            continue
        gate = f3_after.get(f.category)
        allowed = plain if gate is None else [s for s in plain if s >= gate.session]
        # F4 sources and F3 categories are fully covered above; anything else is free
        session_of[f.id] = allowed[rng.randrange(len(allowed))]
        if gate is not None and session_of[f.id] == gate.session:
            after_request[f.id] = gate.id

    # -------- exchanges per session
    per_session_facts: dict[int, list[str]] = {s: [] for s in range(n_sessions)}
    for f in builder.facts:
        per_session_facts[session_of[f.id]].append(f.id)
    content = sum(len(v) for v in per_session_facts.values()) + n_req
    pair_share = 0.0
    budget = 0.62 * n_exchanges
    if content > budget:
        n_facts = len(builder.facts)
        pair_share = min(1.0, (content - budget) / max(1, n_facts / 2) )

    units: dict[int, list[list[str]]] = {}
    for s in range(n_sessions):
        ids = per_session_facts[s]
        rng.shuffle(ids)
        # constrained facts (after a request) are never paired, to keep ordering simple
        free_ids = [i for i in ids if i not in after_request]
        groups: list[list[str]] = []
        k = 0
        while k < len(free_ids):
            if k + 1 < len(free_ids) and rng.random() < pair_share:
                groups.append([free_ids[k], free_ids[k + 1]])
                k += 2
            else:
                groups.append([free_ids[k]])
                k += 1
        groups.extend([i] for i in ids if i in after_request)
        units[s] = groups
    minimum = [len(units[s]) + sum(1 for p in plans if p.session == s) + 1 for s in range(n_sessions)]
    sizes = _sizes(rng, n_sessions, n_exchanges, minimum)

    echoable = [f.id for f in builder.facts
                if f.relearns is None and not any(f.id in p.stated_before for p in plans)
                and f.category not in f3_after]
    sessions: list[SessionPlan] = []
    stated_so_far: list[str] = []
    for s in range(n_sessions):
        is_window = s in windows
        group_units = units[s]
        plain_groups = [g for g in group_units if g[0] not in after_request]
        late_groups = [g for g in group_units if g[0] in after_request]
        here = [p for p in plans if p.session == s]
        n_filler = sizes[s] - len(group_units) - len(here)
        items: list[Exchange] = [Exchange("fact", g) for g in plain_groups]
        echo_pool = [] if is_window else [f for f in stated_so_far if f in echoable]
        for _ in range(n_filler):
            if echo_pool and rng.random() < echo_share:
                items.append(Exchange("echo", [echo_pool[rng.randrange(len(echo_pool))]]))
            else:
                items.append(Exchange("filler"))
        rng.shuffle(items)
        # requests go after the first exchange, never first thing in a session
        for plan in here:
            pos = rng.randint(1, max(1, len(items)))
            items.insert(pos, Exchange("request", request_id=plan.id))
        for g in late_groups:
            gates = after_request[g[0]].split("+")
            last = max(i for i, e in enumerate(items) if e.kind == "request" and e.request_id in gates)
            items.insert(rng.randint(last + 1, len(items)), Exchange("fact", g))
        sessions.append(SessionPlan(s, items, is_window))
        stated_so_far.extend(fid for e in items if e.kind == "fact" for fid in e.fact_ids)
    return sessions


def request_category_label(category: str) -> str:
    return CATEGORY_BY_KEY[category].label
