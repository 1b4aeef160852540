"""Stage 1 — profile synthesis: a user sketch, atomic facts, verified derived facts.

Facts come in small per-category batches (the small model writes 3–4 facts well, 20 badly).
Every draft is checked in code: a fresh attribute, a specific value, and a statement that
contains the value word for word (else the statement is rebuilt from attribute and value).
Derived facts are proposed by one call and judged by a *separate* verifier call (premises
→ conclusion, no outside knowledge); rejected ones are regenerated, then dropped — both counted.
"""

from __future__ import annotations

import math
import random

from pydantic import BaseModel

from bemula.generate.llm import prompts
from bemula.generate.llm.config import CATEGORIES, FactCategory, TierShape
from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.schemas import (
    DerivedDraft,
    EntailmentVerdict,
    FactBatch,
    FactDraft,
    ProfileStage,
    ProfileStats,
    UserSketch,
)
from bemula.generate.llm.text import good_alias, mentions, normalize
from bemula.model import DerivedFact, Fact, Profile, Sensitivity

STAGE = "profile"
_VAGUE_VALUES = frozenset({"yes", "no", "none", "unknown", "n/a", "true", "false", "nothing", "not sure"})
_SENSITIVITY_ORDER = [Sensitivity.LOW, Sensitivity.MEDIUM, Sensitivity.HIGH]


class _FactList(BaseModel):
    facts: list[Fact]
    rejected: int = 0
    fallback: bool = False


class _DerivedOutcome(BaseModel):
    fact: DerivedFact | None = None
    rejected: int = 0


_FALLBACK_USERS = (
    UserSketch(name="Maya Lindqvist", age=34, city="Portland", occupation="landscape architect"),
    UserSketch(name="Daniel Okafor", age=41, city="Leeds", occupation="hospital pharmacist"),
    UserSketch(name="Lucia Ferraro", age=28, city="Turin", occupation="UX researcher"),
    UserSketch(name="Kenji Watanabe", age=52, city="Osaka", occupation="bus depot manager"),
)


def synthesize_profile(ctx: InstanceContext) -> ProfileStage:
    cached = ctx.cache.get("stage:profile", ProfileStage)
    if cached is not None:
        return cached
    n_facts, n_derived = draw_profile_shape(ctx.rng("profile"), ctx.shape)
    stats = ProfileStats()

    user = _user_sketch(ctx)
    facts = _atomic_facts(ctx, user, n_facts, stats)
    derived = _derived_facts(ctx, facts, n_derived, stats)
    profile = Profile(
        user={"name": user.name, "age": str(user.age), "city": user.city, "occupation": user.occupation},
        facts=facts,
        derived_facts=derived,
    )
    out = ProfileStage(profile=profile, stats=stats)
    ctx.cache.put("stage:profile", out)
    return out


def draw_profile_shape(rng: random.Random, shape: TierShape) -> tuple[int, int]:
    """(atomic facts, derived facts) for one instance (shared with the dry-run estimate)."""
    return rng.randint(*shape.facts), rng.randint(*shape.derived)


def _user_sketch(ctx: InstanceContext) -> UserSketch:
    cached = ctx.cache.get("profile:user", UserSketch)
    if cached is not None:
        return cached
    hint = _FALLBACK_USERS[ctx.index % len(_FALLBACK_USERS)]
    sketch = ctx.caller.json(
        STAGE,
        prompts.USER_SKETCH,
        UserSketch,
        max_tokens=80,
        temperature=0.9,
        hint=f"not {hint.name}; instance {ctx.index + 1}",
    )
    if sketch is None:
        ctx.meters.count(STAGE, "user_fallback")
        sketch = hint
    ctx.cache.put("profile:user", sketch)
    return sketch


def _accept_drafts(
    drafts: list[FactDraft], category: FactCategory, taken: list[Fact], want: int, reserved: set[str]
) -> tuple[list[Fact], int, int]:
    """Keep up to ``want`` usable drafts; returns (facts without ids, rejected, repaired).

    ``reserved`` are the persona's own words (name, city, occupation): the user simulator may
    say them in any turn, so a fact with such a value could never be placed in one turn only.
    """
    attributes = {normalize(f.attribute) for f in taken}
    values = {normalize(f.value) for f in taken} | reserved
    kept: list[Fact] = []
    rejected = repaired = 0
    for d in drafts:
        attribute, value = d.attribute.strip().rstrip("."), d.value.strip().rstrip(".")
        a_n, v_n = normalize(attribute), normalize(value)
        if (
            len(kept) >= want
            or a_n in attributes
            or v_n in values
            or v_n in _VAGUE_VALUES
            or len(v_n) < 2
            or len(v_n.split()) > 6
            or v_n == a_n
        ):
            rejected += 1
            continue
        statement = d.statement.strip()
        if not mentions(statement, value):
            statement = f"My {attribute} is {value}."
            repaired += 1
        kept.append(
            Fact(
                id="A000",
                category=category.name,
                attribute=attribute,
                value=value,
                aliases=list(dict.fromkeys(a.strip() for a in d.aliases if good_alias(a, value, attribute)))[:3],
                sensitivity=d.sensitivity,
                statement=statement,
            )
        )
        attributes.add(a_n)
        values.add(v_n)
    return kept, rejected, repaired


def _atomic_facts(
    ctx: InstanceContext, user: UserSketch, n_facts: int, stats: ProfileStats
) -> list[Fact]:
    per_call = ctx.config.facts_per_call
    user_text = f"{user.name}, {user.age}, {user.occupation} in {user.city}"
    reserved = {normalize(x) for x in (user.name, *user.name.split(), user.city, user.occupation)}
    order = list(CATEGORIES)
    ctx.rng("categories").shuffle(order)
    facts: list[Fact] = []
    max_calls = 2 * math.ceil(n_facts / per_call) + 2
    for k in range(max_calls):
        if len(facts) >= n_facts:
            break
        key = f"profile:facts:{k:03d}"
        batch = ctx.cache.get(key, _FactList)
        category = order[k % len(order)]
        if batch is None:
            want = min(per_call, n_facts - len(facts))
            taken = ", ".join(f.attribute for f in facts) or "none"
            drafted = ctx.caller.json(
                STAGE,
                prompts.FACT_BATCH,
                FactBatch,
                max_tokens=70 * want + 40,
                temperature=0.8,
                user=user_text,
                n=want,
                category=category.name,
                ideas=category.ideas,
                example_attribute=category.example_attribute,
                example_value=category.example_value,
                taken=taken,
            )
            if drafted is None:
                batch = _FactList(facts=_catalog_facts(ctx, category, facts, want, k), fallback=True)
            else:
                kept, rejected, repaired = _accept_drafts(drafted.facts, category, facts, want, reserved)
                ctx.meters.count(STAGE, "statements_repaired", repaired)
                batch = _FactList(facts=kept, rejected=rejected)
            ctx.cache.put(key, batch)
        stats.fact_drafts_rejected += batch.rejected
        stats.fact_batches_fallback += int(batch.fallback)
        facts.extend(batch.facts)
    if len(facts) < n_facts:  # the model kept failing: top up from the offline catalog
        missing = n_facts - len(facts)
        ctx.meters.count(STAGE, "facts_from_catalog", missing)
        for j, category in enumerate(order * 2):
            if len(facts) >= n_facts:
                break
            facts.extend(_catalog_facts(ctx, category, facts, 1, 1000 + j))
    facts = facts[:n_facts]
    ctx.meters.count(STAGE, "fact_drafts_rejected", stats.fact_drafts_rejected)
    return [f.model_copy(update={"id": f"A{i + 1:03d}"}) for i, f in enumerate(facts)]


def _catalog_facts(
    ctx: InstanceContext, category: FactCategory, taken: list[Fact], want: int, salt: int
) -> list[Fact]:
    """Deterministic facts from the offline generator's catalog (value pools and statement
    cores), used when the LLM's batch was unusable after every retry."""
    from bemula.generate.catalog import attributes_in

    rng = ctx.rng("catalog", category.name, salt)
    used = {normalize(f.attribute) for f in taken}
    pool = [a for a in attributes_in(category.name) if not a.derived_only and normalize(a.noun) not in used]
    rng.shuffle(pool)
    out: list[Fact] = []
    for attribute in pool[:want]:
        value = attribute.values[rng.randrange(len(attribute.values))]
        core = attribute.cores[0] if attribute.cores else "my {noun} is {v}"
        statement = core.replace("{noun}", attribute.noun).replace("{v}", value.text)
        out.append(
            Fact(
                id="A000",
                category=category.name,
                attribute=attribute.noun,
                value=value.text,
                aliases=list(value.aliases),
                sensitivity=attribute.sensitivity,
                statement=statement[:1].upper() + statement[1:] + ".",
            )
        )
    return out


def _derived_facts(ctx: InstanceContext, facts: list[Fact], n_derived: int, stats: ProfileStats) -> list[DerivedFact]:
    by_id = {f.id: f for f in facts}
    used_sources: set[str] = set()
    derived: list[DerivedFact] = []
    for k in range(n_derived):
        key = f"profile:derived:{k:02d}"
        outcome = ctx.cache.get(key, _DerivedOutcome)
        if outcome is None:
            outcome = _one_derived(ctx, k, by_id, used_sources, len(derived) + 1)
            ctx.cache.put(key, outcome)
        stats.derived_rejected += outcome.rejected
        if outcome.fact is None:
            stats.derived_dropped += 1
            continue
        used_sources.update(outcome.fact.source_fact_ids)
        derived.append(outcome.fact)
    ctx.meters.count(STAGE, "derived_rejected", stats.derived_rejected)
    ctx.meters.count(STAGE, "derived_dropped", stats.derived_dropped)
    return derived


def _one_derived(
    ctx: InstanceContext, k: int, by_id: dict[str, Fact], used_sources: set[str], number: int
) -> _DerivedOutcome:
    free = [f for f in by_id.values() if f.id not in used_sources]
    if len(free) < 2:
        return _DerivedOutcome()
    rng = ctx.rng("derived", k)
    shown = free if len(free) <= 14 else rng.sample(free, 14)
    shown.sort(key=lambda f: f.id)
    listing = "\n".join(f"{f.id}: {f.statement}" for f in shown)
    rejected: list[str] = []

    def check(d: DerivedDraft) -> str | None:
        ids = list(dict.fromkeys(s.strip() for s in d.source_fact_ids))
        if len(ids) < 2 or any(i not in by_id or i in used_sources for i in ids):
            return "source_fact_ids must be at least two different ids from the list"
        if any(normalize(d.value) == normalize(by_id[i].value) for i in ids):
            return "the conclusion only repeats a source value; it must be new"
        return None

    for attempt in range(ctx.config.derived_attempts):
        avoid = (" Do not propose any of these rejected conclusions: " + "; ".join(rejected)) if rejected else ""
        draft = ctx.caller.json(
            STAGE,
            prompts.DERIVED_PROPOSE,
            DerivedDraft,
            max_tokens=220,
            temperature=0.7,
            check=check,
            facts=listing,
            avoid=avoid,
        )
        if draft is None:
            rejected.append(f"(unusable proposal {attempt + 1})")
            continue
        sources = [by_id[i] for i in dict.fromkeys(s.strip() for s in draft.source_fact_ids)]
        statement = draft.statement.strip()
        if not mentions(statement, draft.value):
            statement = f"The user's {draft.attribute} is {draft.value}."
        verdict = ctx.caller.json(
            STAGE,
            prompts.DERIVED_VERIFY,
            EntailmentVerdict,
            max_tokens=120,
            temperature=0.0,
            premises="\n".join(f"- {s.statement}" for s in sources),
            conclusion=statement,
        )
        if verdict is None or not verdict.follows:
            rejected.append(statement)
            continue
        sensitivity = max((s.sensitivity for s in sources), key=_SENSITIVITY_ORDER.index)
        fact = DerivedFact(
            id=f"D{number:02d}",
            category=sources[0].category,
            attribute=draft.attribute.strip(),
            value=draft.value.strip(),
            aliases=[],
            sensitivity=sensitivity,
            statement=statement,
            source_fact_ids=[s.id for s in sources],
            rationale=draft.rationale.strip(),
        )
        return _DerivedOutcome(fact=fact, rejected=len(rejected))
    return _DerivedOutcome(fact=None, rejected=len(rejected))
