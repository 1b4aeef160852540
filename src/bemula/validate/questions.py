"""Checks on questions: the version each suite belongs on, request and fact references, attack
frames, gold kind and values, control probes, and questions that give their answer away."""

from __future__ import annotations

from bemula.model import (
    AttackFrame,
    Fact,
    GoldKind,
    Question,
    RequestType,
    Suite,
    Version,
)
from bemula.validate.context import (
    PROBED_SUITES,
    InstanceContext,
    covered,
    norm,
    same_value,
    value_tokens,
    with_article,
    words_pattern,
)


def check_questions(ctx: InstanceContext) -> None:
    removed = _removed_facts(ctx)
    protected: dict[tuple[str, ...], str] = {
        value_tokens(p) or (norm(p),): q.id
        for q in ctx.inst.questions
        if not q.is_probe and q.suite in (Suite.EFFICACY, Suite.ATTACK)
        for p in q.gold.protected
    }
    for i, q in enumerate(ctx.inst.questions):
        loc = f"$.questions[{i}]"
        _question_version(ctx, loc, q)
        _question_refs(ctx, loc, q, removed)
        _question_frame(ctx, loc, q)
        _question_gold(ctx, loc, q)
        _question_probe(ctx, loc, q)
        _question_gives_answer(ctx, loc, q)
        if not q.is_probe and q.suite in (Suite.PRESERVATION, Suite.RELEARNING):  # forget version
            for value in q.gold.accepted:
                other = protected.get(value_tokens(value) or (norm(value),))
                if other is not None:
                    ctx.add(f"{loc}.gold.accepted", "value-clash",
                             f"{q.id} expects {value!r}, which {other} protects as a removed value")


def _question_gives_answer(ctx: InstanceContext, loc: str, q: Question) -> None:
    """Only a boolean attack may name the value it asks about; any other question that
    contains its own answer (or the removed value) measures nothing."""
    if q.frame == AttackFrame.BOOLEAN or q.fact_id is None:
        return
    fact = ctx.target(q.fact_id)
    if fact is None:
        return
    found = words_pattern(tuple(fact.accepted)).search(q.text)
    if found:
        ctx.add(f"{loc}.text", "question-leak", f"{q.id} contains its fact's value {found.group(0)!r}")


def _removed_facts(ctx: InstanceContext) -> set[str]:
    """Facts whose value some request removes (targets, F4 sources): never preserved."""
    out: set[str] = set()
    for r in ctx.inst.requests:
        for fid in r.target_fact_ids:
            out.add(fid)
            d = ctx.derived.get(fid)
            if d is not None:
                out.update(d.source_fact_ids)
    return out


def _question_version(ctx: InstanceContext, loc: str, q: Question) -> None:
    if q.is_probe or q.suite == Suite.RETENTION:
        expected = Version.CONTROL
    else:
        expected = Version.FORGET
    if q.version != expected:
        what = "a control probe" if q.is_probe else with_article(f"{q.suite.value} question")
        ctx.add(f"{loc}.version", "question-version", f"{q.id} is {what}, so it belongs on {expected.value}")
    if q.is_probe and q.suite not in PROBED_SUITES:
        ctx.add(f"{loc}.probe_of", "probe", f"{q.id}: {q.suite.value} questions have no control probe")


def _question_refs(ctx: InstanceContext, loc: str, q: Question, removed: set[str]) -> None:
    r = None
    if q.request_id is not None:
        r = ctx.requests.get(q.request_id)
        if r is None:
            ctx.add(f"{loc}.request_id", "unknown-ref", f"{q.id}: unknown request {q.request_id!r}")
    fact = None
    if q.fact_id is None:
        ctx.add(f"{loc}.fact_id", "question-ref", f"{q.id} must name the fact it asks about")
    else:
        fact = ctx.target(q.fact_id)
        if fact is None:
            ctx.add(f"{loc}.fact_id", "unknown-ref", f"{q.id}: unknown fact {q.fact_id!r}")
    needs_request = q.suite in (Suite.EFFICACY, Suite.ATTACK, Suite.RELEARNING)
    if needs_request and q.request_id is None:
        ctx.add(f"{loc}.request_id", "question-ref", f"{q.suite.value} question {q.id} must name its request")
    if r is None or fact is None:
        if q.suite == Suite.PRESERVATION and q.fact_id in removed:
            ctx.add(f"{loc}.fact_id", "preservation-target",
                     f"preservation question {q.id} asks about {q.fact_id}, which a request removes")
        return
    if q.suite in (Suite.EFFICACY, Suite.ATTACK) and fact.id not in r.target_fact_ids:
        ctx.add(f"{loc}.fact_id", "question-ref", f"{q.id}: {fact.id} is not a target of {r.id}")
    if q.suite == Suite.RELEARNING:
        if not isinstance(fact, Fact) or fact.relearns != r.id:
            ctx.add(f"{loc}.fact_id", "question-ref",
                     f"relearning question {q.id}: {fact.id} is not a relearning fact of {r.id}")
    if q.suite == Suite.PRESERVATION and fact.id in removed:
        ctx.add(f"{loc}.fact_id", "preservation-target",
                 f"preservation question {q.id} asks about {fact.id}, which a request removes")


def _question_frame(ctx: InstanceContext, loc: str, q: Question) -> None:
    if q.suite == Suite.ATTACK and q.frame is None:
        ctx.add(f"{loc}.frame", "frame", f"attack question {q.id} has no frame")
    elif q.suite != Suite.ATTACK and q.frame is not None:
        ctx.add(f"{loc}.frame", "frame", f"{q.suite.value} question {q.id} cannot have an attack frame")


def _question_gold(ctx: InstanceContext, loc: str, q: Question) -> None:
    g = q.gold
    fact = ctx.target(q.fact_id) if q.fact_id else None
    r = ctx.requests.get(q.request_id) if q.request_id else None
    f6 = r is not None and r.type == RequestType.F6
    if q.is_probe or q.suite in (Suite.RETENTION, Suite.PRESERVATION, Suite.RELEARNING):
        kind = GoldKind.VALUE
    elif q.suite == Suite.EFFICACY:
        kind = GoldKind.VALUE if f6 else GoldKind.SENTINEL
    else:
        kind = GoldKind.SENTINEL
    if g.kind != kind:
        what = "a control probe" if q.is_probe else with_article(f"{'F6 ' if f6 else ''}{q.suite.value} question")
        ctx.add(f"{loc}.gold.kind", "gold", f"{q.id} is {what}, so its gold is {kind.value}, not {g.kind.value}")
    if kind == GoldKind.VALUE and not [x for x in g.accepted if x.strip()]:
        ctx.add(f"{loc}.gold.accepted", "gold", f"value-gold question {q.id} accepts no answer")
    both = sorted({a for a in g.accepted for p in g.protected if same_value(a, p)})
    if both:
        ctx.add(f"{loc}.gold", "gold", f"{q.id}: {both} both accepted and protected")
    if not q.is_probe and q.suite in (Suite.EFFICACY, Suite.ATTACK) and not [x for x in g.protected if x.strip()]:
        ctx.add(f"{loc}.gold.protected", "gold", f"{q.suite.value} question {q.id} protects no value")
    if fact is None:
        return
    _gold_forms(ctx, loc, q, fact, r if f6 else None)


def _gold_forms(ctx: InstanceContext, loc: str, q: Question, fact, f6_request) -> None:
    """Heuristics on the forms a gold lists (warnings): a question may ask for *part* of a
    compound fact, so its accepted forms need not be the fact's value or aliases; a protected
    list must *cover* every form of the value (an answer stating it would contain a protected
    form), which is coverage, not set inclusion."""
    g = q.gold
    forms = [x for x in fact.accepted if x.strip()]
    if q.is_probe or q.suite in (Suite.RETENTION, Suite.PRESERVATION, Suite.RELEARNING):
        foreign = [a for a in g.accepted if a.strip() and not any(same_value(a, f) for f in forms)
                   and not any(covered(f, [a]) or covered(a, [f]) for f in forms)]
        if foreign:
            ctx.add(f"{loc}.gold.accepted", "gold-forms",
                     f"{q.id} accepts {foreign}, which is neither a value or alias of {fact.id} nor part of one")
    elif q.suite in (Suite.EFFICACY, Suite.ATTACK):
        uncovered = [f for f in forms if not covered(f, g.protected)]
        if g.protected and uncovered:
            ctx.add(f"{loc}.gold.protected", "gold-forms",
                     f"{q.id} does not cover {uncovered} (value/alias of {fact.id}) with a protected form")
        if f6_request is not None and f6_request.new_value and not any(
                same_value(a, f6_request.new_value) for a in g.accepted):
            ctx.add(f"{loc}.gold.accepted", "gold-forms",
                     f"F6 question {q.id} does not accept the new value {f6_request.new_value!r}")


def _question_probe(ctx: InstanceContext, loc: str, q: Question) -> None:
    if q.is_probe:
        twin = ctx.questions.get(q.probe_of or "")
        if twin is None:
            ctx.add(f"{loc}.probe_of", "unknown-ref", f"probe {q.id}: unknown question {q.probe_of!r}")
        elif twin.control_probe_id != q.id:
            ctx.add(f"{loc}.probe_of", "probe", f"probe {q.id} points to {twin.id}, which does not point back")
        if q.control_probe_id is not None:
            ctx.add(f"{loc}.control_probe_id", "probe", f"probe {q.id} cannot have a probe itself")
        return
    if q.control_probe_id is None:
        if q.suite in PROBED_SUITES and q.version == Version.FORGET:
            ctx.add(f"{loc}.control_probe_id", "probe", f"{q.suite.value} question {q.id} has no control probe")
        return
    if q.suite not in PROBED_SUITES:
        ctx.add(f"{loc}.control_probe_id", "probe", f"{q.suite.value} question {q.id} takes no control probe")
    probe = ctx.questions.get(q.control_probe_id)
    if probe is None:
        ctx.add(f"{loc}.control_probe_id", "unknown-ref", f"{q.id}: unknown probe {q.control_probe_id!r}")
        return
    if probe.probe_of != q.id:
        ctx.add(f"{loc}.control_probe_id", "probe", f"probe {probe.id} of {q.id} does not point back (probe_of)")
    if probe.text != q.text:
        ctx.add(f"{loc}.control_probe_id", "probe", f"probe {probe.id} text differs from {q.id}'s")
    for name in ("suite", "request_id", "fact_id", "frame"):
        if getattr(probe, name) != getattr(q, name):
            ctx.add(f"{loc}.control_probe_id", "probe", f"probe {probe.id} has another {name} than {q.id}")
