"""Edition 2 of the offline generator: the paper's shape, the way people talk.

Same shape and plan as edition 1 (:mod:`bemula.generate.offline`: allocation, profile,
requests, schedule — so the counts stay on the paper's figures), rendered from a
hand-written phrase bank (:mod:`.bank`) through a persona's voice (:mod:`.voice`) by
:mod:`.render`; questions asked as people ask them. ``split`` picks the bank: ``test`` for
the default benchmark, ``dev`` for developing systems (docs/generator.md says why).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path

from bemula import __version__
from bemula.dataset import write_dataset
from bemula.fidelity import STYLES_FILE
from bemula.generate.derived import DERIVED_TEMPLATES, NATURAL_DERIVED_TEMPLATES, DerivedTemplate
from bemula.generate.natural.bank import Bank, load_bank
from bemula.generate.natural.render import EXCEPT_SHARE, NaturalRenderer
from bemula.generate.natural.voice import Voice, load_personas
from bemula.generate.offline import (
    EXTRA_RELEARN_SHARE,
    InstanceShape,
    _budget,
    _renumber_requests,
    allocate,
)
from bemula.generate.plan import PlanError, RequestPlan, add_relearning_facts, plan_requests, schedule
from bemula.generate.profile import ProfileBuilder, build_profile, pick_value
from bemula.generate.questions import QuestionWriter
from bemula.model import DerivedFact, Fact, Instance, Manifest, RequestType, Suite, Tier, Version

GENERATOR_NAME = "bemula-offline"
GENERATOR_VERSION = "2.0"
DEFAULT_SPLIT = "test"


def _rng(seed: int, split: str, index: int, attempt: int) -> random.Random:
    digest = hashlib.sha256(f"bemula-natural/{seed}/{split}/{index}/{attempt}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def _persona_order(seed: int) -> list[int]:
    order = list(range(len(load_personas())))
    random.Random(f"bemula-personas-{seed}").shuffle(order)
    return order


def build_natural_instance(seed: int, shape: InstanceShape, bank: Bank) -> tuple[Instance, dict]:
    """One instance and how each of its requests was phrased (request id -> style record)."""
    last: Exception | None = None
    for attempt in range(20):
        try:
            return _build(_rng(seed, bank.split, shape.index, attempt), seed, shape, bank)
        except PlanError as exc:
            last = exc
    raise RuntimeError(f"{shape.id}: could not plan after 20 attempts: {last}")


def _choose_exceptions(rng: random.Random, plans: list[RequestPlan], builder: ProfileBuilder) -> None:
    """Some F3 requests keep one fact of their category ("… but keep X"). The kept fact is
    one more fact of that category, stated before the request like its targets, so the
    request still targets the whole category it had (the target count stays on the
    paper's figure); a category with no attribute left gets no exception."""
    for p in plans:
        if p.type != RequestType.F3 or len(p.targets) < 2 or rng.random() >= EXCEPT_SHARE:
            continue
        for attr in builder.free_attributes(p.category):
            value = pick_value(rng, attr, builder.registry)
            if value is not None:
                kept = builder.add_fact(attr, value)
                p.kept = [kept.id]
                p.stated_before.append(kept.id)
                break


def _derived_order(rng: random.Random) -> list[DerivedTemplate]:
    """Edition 1's arithmetic templates and edition 2's inferences (place, schedule,
    relationship, health), alternating, so about half the F4 conclusions are not sums."""
    arithmetic, inferred = list(DERIVED_TEMPLATES), list(NATURAL_DERIVED_TEMPLATES)
    rng.shuffle(arithmetic)
    rng.shuffle(inferred)
    first, second = (inferred, arithmetic) if rng.random() < 0.5 else (arithmetic, inferred)
    out = [t for pair in zip(first, second, strict=False) for t in pair]
    longer = first if len(first) > len(second) else second
    return out + longer[len(out) // 2:]


def _build(rng: random.Random, seed: int, shape: InstanceShape, bank: Bank) -> tuple[Instance, dict]:
    user, builder = build_profile(rng, shape.facts, shape.derived, _derived_order(rng))
    plans = plan_requests(rng, builder, list(shape.types))
    add_relearning_facts(rng, builder, plans, EXTRA_RELEARN_SHARE)
    _choose_exceptions(rng, plans, builder)
    sessions = schedule(rng, builder, plans, shape.sessions, shape.turns // 2, echo_share=0.0)
    _renumber_requests(plans, sessions, builder)
    profile = builder.profile(user)
    personas = load_personas()
    persona = personas[_persona_order(seed)[shape.index % len(personas)]]
    renderer = NaturalRenderer(rng, bank, Voice(persona, rng), profile, plans, sessions)
    rendered = renderer.render(shape.start, shape.span_days)
    for f in profile.facts:
        if f.id in rendered.statements:
            f.statement = rendered.statements[f.id]
    budget = _budget(shape, plans)
    first_request = min(p.session for p in plans)
    early = {fid for sp in sessions[:first_request] for e in sp.exchanges if e.kind == "fact" for fid in e.fact_ids}
    covered = {f for p in plans for f in p.stated_before}
    shares_turn = {fid for sp in sessions for e in sp.exchanges if e.kind == "fact" and covered & set(e.fact_ids)
                   for fid in e.fact_ids if fid not in covered}

    def ask(fact: Fact | DerivedFact) -> str:
        phrases = bank.derived[fact.attribute] if isinstance(fact, DerivedFact) else bank.facts[fact.attribute]
        return rng.choice(phrases.ask)

    writer = QuestionWriter(rng, profile, plans, shares_turn, asker=ask, stated_early=early,
                            companions=rendered.companions, near_miss_first=True)
    questions = writer.write(budget)
    # a fact an F3 request explicitly keeps is the hardest preservation case: ask about it
    facts = {f.id: f for f in profile.facts}
    for p in plans:
        for fid in p.kept:
            writer.book.value_question(Suite.PRESERVATION, Version.FORGET, ask(facts[fid]), facts[fid].accepted,
                                       fact_id=fid, probe=True)
    styles = {rid: {**info, "persona": persona.id} for rid, info in sorted(rendered.request_styles.items())}
    return Instance(id=shape.id, tier=shape.tier, profile=profile, forget=rendered.forget, control=rendered.control,
                    requests=rendered.requests, questions=questions), styles


def generate_natural_instances(seed: int, *, split: str = DEFAULT_SPLIT, lite: bool = False,
                               progress: Callable[[str], None] | None = None,
                               styles: dict[str, dict] | None = None) -> list[Instance]:
    """Every instance in allocation order; ``styles`` (if given) collects the request styles."""
    bank = load_bank(split)
    shapes = allocate(seed)
    if lite:
        shapes = [s for s in shapes if s.tier in (Tier.SHORT, Tier.MEDIUM)]
    out = []
    for shape in shapes:
        inst, inst_styles = build_natural_instance(seed, shape, bank)
        out.append(inst)
        if styles is not None:
            styles[inst.id] = inst_styles
        if progress:
            progress(shape.id)
    return out


def generate_natural_benchmark(seed: int, out: Path, *, split: str = DEFAULT_SPLIT, lite: bool = False,
                               progress: Callable[[str], None] | None = None) -> Manifest:
    from bemula.stats import counts_for_manifest

    styles: dict[str, dict] = {}
    instances = generate_natural_instances(seed, split=split, lite=lite, progress=progress, styles=styles)
    generator = {"name": GENERATOR_NAME, "version": GENERATOR_VERSION, "bemula": __version__, "seed": str(seed),
                 "subset": "lite" if lite else "full", "edition": "2", "split": split}
    manifest = write_dataset(Path(out), instances, generator=generator, counts=counts_for_manifest(instances))
    # how each request was phrased: only the generator knows it (bemula stats reads it)
    lines = [json.dumps({"instance": iid, "requests": styles[iid]}, sort_keys=True) for iid in sorted(styles)]
    (Path(out) / STYLES_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return manifest
