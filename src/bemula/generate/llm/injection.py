"""Stage 4 — request injection: forget requests, confirmations, and the control's neutral exchanges.

Requests are written *after* simulation, so the dialogue around them is identical in both
versions; assembly then inserts, at the planned place, either request + confirmation
(forget version) or a neutral exchange of similar length (control version).

Each request is written by the LLM in the planned style and checked by the verifier: in
code (a removal verb; it names what is to go — the values for F1/F2, the category for F3,
the conclusion's subject for F4, the day for F5; F6 states the new value; no other fact's
value) and by an LLM yes/no call ("does this unambiguously ask to forget or delete?").
Rejected drafts are regenerated; after the last attempt the request falls back to the offline
generator's wording (:mod:`bemula.generate.phrasing`), and that is counted.
"""

from __future__ import annotations

import random

from bemula.generate import phrasing
from bemula.generate.catalog import CATEGORY_BY_KEY
from bemula.generate.llm import prompts
from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.schemas import (
    ExchangeDraft,
    InjectedRequest,
    InjectionStage,
    PlanStage,
    RemovalVerdict,
    ReplyDraft,
    RequestDraft,
    RequestPlan,
    SimulationStage,
)
from bemula.generate.llm.text import asks_removal, content_words, mentions, mentions_any, normalize, word_count
from bemula.model import DerivedFact, Fact, Request, RequestType

STAGE = "injection"

NEUTRAL_THEMES = (
    "a quick stretch to do at a desk", "how long to boil an egg", "a tip for staying focused",
    "a short breathing exercise", "how to keep basil alive on a windowsill", "a fun fact about octopuses",
    "what to do on a rainy afternoon", "how to fold a fitted sheet", "a good warm-up before a walk",
    "a simple way to tidy a desk",
)


def day_phrase(req: RequestPlan) -> str:
    assert req.window is not None
    day = req.window.start
    return f"on {day.strftime('%A')}, {day.strftime('%B')} {day.day}"


def request_turn_index(req: RequestPlan) -> int:
    """0-based index of the request's user turn in its session (after ``after_pair`` pairs)."""
    return 2 * req.after_pair


def turn_id(session_id: str, index: int) -> str:
    return f"{session_id}-T{index + 1:03d}"


def inject(ctx: InstanceContext, plan: PlanStage, sim: SimulationStage) -> InjectionStage:
    cached = ctx.cache.get("stage:injection", InjectionStage)
    if cached is not None:
        return cached
    seen = {normalize(t.text) for s in sim.sessions for t in s.turns}
    out: list[InjectedRequest] = []
    for req in plan.requests:
        key = f"inject:{req.id}"
        done = ctx.cache.get(key, InjectedRequest)
        if done is None:
            done = _inject_one(ctx, plan, req, seen)
            ctx.cache.put(key, done)
        for text in (done.request.text, done.confirmation, done.neutral_user, done.neutral_assistant):
            seen.add(normalize(text))
        out.append(done)
    stage = InjectionStage(requests=out)
    ctx.cache.put("stage:injection", stage)
    return stage


def _targets(plan: PlanStage, req: RequestPlan) -> list[Fact | DerivedFact]:
    by_id: dict[str, Fact | DerivedFact] = {f.id: f for f in plan.profile.facts}
    by_id.update({d.id: d for d in plan.profile.derived_facts})
    return [by_id[t] for t in req.target_fact_ids]


def _category_words(category: str) -> tuple[str, list[str]]:
    """(how the user names the category, words any of which identify it in a request)."""
    entry = CATEGORY_BY_KEY.get(category)
    description = entry.descriptions[0] if entry else f"my {category}"
    words = {category, *(entry.label.split() if entry else [])}
    for d in entry.descriptions if entry else ():
        words.update(content_words(d))
    return description, sorted(words - {"anything", "everything", "details", "about", "related"})


def _goal(plan: PlanStage, req: RequestPlan, targets: list[Fact | DerivedFact]) -> tuple[str, str]:
    """What the request must ask (for the prompt) and an extra constraint."""
    t = req.type
    if t == RequestType.F1:
        f = targets[0]
        return f'forget their {f.attribute} ("{f.value}")', ""
    if t == RequestType.F2:
        items = "; ".join(f'their {f.attribute} ("{f.value}")' for f in targets)
        return f"delete all of these details at once: {items}", " Name each detail."
    if t == RequestType.F3:
        description, _ = _category_words(req.category or "")
        return (f"forget everything the user ever told it about {description.replace('my ', 'their ')}",
                f' Use the words "{description}" and do not list any details.')
    if t == RequestType.F4:
        d = targets[0]
        return (f"not keep or use any conclusion it may have worked out about their {d.attribute}",
                f' Mention "{d.attribute}" but do not say what the conclusion is.')
    if t == RequestType.F5:
        return f"forget everything the user told it {day_phrase(req)}", f' Say "{day_phrase(req)}".'
    f = targets[0]
    return (f'update their {f.attribute}: it is no longer "{f.value}", it is now "{req.new_value}"; '
            f'and forget "{f.value}"', f' The message must say the new value "{req.new_value}".')


def _check_request(plan: PlanStage, req: RequestPlan, targets: list[Fact | DerivedFact], text: str) -> str | None:
    """Code half of the verifier; None when the draft passes."""
    if not asks_removal(text):
        return "the message must clearly ask to forget or delete"
    if len(text) > 400:
        return "the message is too long"
    target_ids = set(req.target_fact_ids)
    others = [f for f in plan.profile.facts if f.id not in target_ids]
    for other in others:
        if mentions_any(text, other.accepted):
            return f'the message must not mention "{other.value}"'
    for d in plan.profile.derived_facts:
        if mentions_any(text, d.accepted):
            return "the message must not state the conclusion itself"
    t = req.type
    if t in (RequestType.F1, RequestType.F2):
        for f in targets:
            if not (mentions_any(text, f.accepted) or any(mentions(text, w) for w in content_words(f.attribute))):
                return f"the message must name the {f.attribute}"
    elif t == RequestType.F3:
        _, words = _category_words(req.category or "")
        if not any(mentions(text, w) for w in words):
            return f"the message must name the {req.category} category"
        if any(mentions_any(text, f.accepted) for f in targets):
            return "describe the category; do not list the details"
    elif t == RequestType.F4:
        if not any(mentions(text, w) for w in content_words(targets[0].attribute)):
            return f"the message must name the {targets[0].attribute}"
    elif t == RequestType.F5:
        assert req.window is not None
        day = req.window.start
        if not (mentions(text, day.strftime("%A")) or mentions(text, f"{day.strftime('%B')} {day.day}")):
            return f'the message must say "{day_phrase(req)}"'
    elif t == RequestType.F6:
        if not mentions(text, req.new_value or ""):
            return f'the message must state the new value "{req.new_value}"'
    return None


def _fallback_request(rng: random.Random, req: RequestPlan, targets: list[Fact | DerivedFact]) -> str:
    """The offline generator's wording for this request type."""
    template = phrasing.pick(rng, phrasing.REQUEST_STYLES[req.type])
    first = targets[0]
    fields = {
        "noun": first.attribute,
        "statement_low": phrasing.lower_first(first.statement.rstrip(".") + "."),
        "nouns": phrasing.join_nouns([f.attribute for f in targets]),
        "category": _category_words(req.category or "")[0] if req.category else "",
        "about": f"my {first.attribute}",
        "window": day_phrase(req) if req.window else "",
        "old": first.value,
        "new": req.new_value or "",
    }
    return template.format(**fields)


def _inject_one(ctx: InstanceContext, plan: PlanStage, req: RequestPlan, seen: set[str]) -> InjectedRequest:
    rng = ctx.rng("inject", req.id)
    targets = _targets(plan, req)
    goal, extra = _goal(plan, req, targets)
    text: str | None = None
    regenerated = 0
    for attempt in range(ctx.config.attempts):
        feedback = f" (Attempt {attempt + 1}.)" if attempt else ""
        draft = ctx.caller.json(
            STAGE, prompts.REQUEST_TEXT, RequestDraft, max_tokens=100, temperature=0.8,
            check=lambda d: _check_request(plan, req, targets, d.message) or (
                "that message was used before" if normalize(d.message) in seen else None),
            goal=goal, style=req.style, extra=extra + feedback,
        )
        if draft is None:
            regenerated += 1
            continue
        verdict = ctx.caller.json(STAGE, prompts.REQUEST_VERIFY, RemovalVerdict, max_tokens=20,
                                  temperature=0.0, text=draft.message)
        if verdict is not None and not verdict.asks_removal:
            regenerated += 1
            ctx.meters.count(STAGE, "requests_rejected_by_verifier")
            continue
        text = draft.message.strip()
        break
    fallback = text is None
    if text is None:
        text = _fallback_request(rng, req, targets)
        ctx.meters.count(STAGE, "request_fallbacks")
    ctx.meters.count(STAGE, "request_regenerations", regenerated)

    confirmation = _confirmation(ctx, rng, req, targets, text, seen)
    neutral_user, neutral_assistant = _neutral(ctx, rng, plan, req, text, confirmation, seen)
    request = Request(
        id=req.id,
        type=req.type,
        target_fact_ids=list(req.target_fact_ids),
        session_id=req.session_id,
        turn_id=turn_id(req.session_id, request_turn_index(req)),
        text=text,
        new_value=req.new_value,
        category=req.category,
        window=req.window,
    )
    return InjectedRequest(request=request, confirmation=confirmation, neutral_user=neutral_user,
                           neutral_assistant=neutral_assistant, regenerated=regenerated, fallback=fallback)


def _confirmation(
    ctx: InstanceContext, rng: random.Random, req: RequestPlan, targets: list[Fact | DerivedFact], request: str,
    seen: set[str],
) -> str:
    protected = [form for f in targets for form in f.accepted]

    def check(d: ReplyDraft) -> str | None:
        if mentions_any(d.reply, protected):
            return "do not repeat the information that is being forgotten"
        if len(d.reply) > 300:
            return "keep it to one sentence"
        if normalize(d.reply) in seen:
            return "that reply was used before"
        return None

    draft = ctx.caller.json(STAGE, prompts.CONFIRMATION, ReplyDraft, max_tokens=60, temperature=0.7,
                            check=check, request=request)
    if draft is not None:
        return draft.reply.strip()
    ctx.meters.count(STAGE, "confirmation_fallbacks")
    if req.type == RequestType.F6:
        text = phrasing.pick(rng, phrasing.F6_CONFIRMATIONS).format(new=req.new_value)
    else:
        text = phrasing.pick(rng, phrasing.CONFIRMATIONS) + phrasing.pick(rng, phrasing.CONFIRMATION_TAILS)
    return _unique(text, seen)


def _neutral(
    ctx: InstanceContext, rng: random.Random, plan: PlanStage, req: RequestPlan, request: str, confirmation: str,
    seen: set[str],
) -> tuple[str, str]:
    every_value = [form for f in plan.profile.facts for form in f.accepted]
    every_value += [form for d in plan.profile.derived_facts for form in d.accepted]
    user_words, assistant_words = word_count(request), word_count(confirmation)

    def check(d: ExchangeDraft) -> str | None:
        if asks_removal(d.user) or asks_removal(d.assistant):
            return "the exchange must not ask to forget or delete anything"
        if mentions_any(d.user + " " + d.assistant, every_value):
            return "the exchange must contain no personal information"
        if not (0.4 * user_words <= word_count(d.user) <= 2.5 * user_words + 5):
            return f"the user's message should have about {user_words} words"
        if not (0.3 * assistant_words <= word_count(d.assistant) <= 3 * assistant_words + 8):
            return f"the assistant's reply should have about {assistant_words} words"
        if normalize(d.user) in seen or normalize(d.assistant) in seen:
            return "that exchange was used before"
        return None

    draft = ctx.caller.json(
        STAGE, prompts.NEUTRAL_EXCHANGE, ExchangeDraft, max_tokens=140, temperature=0.8, check=check,
        theme=NEUTRAL_THEMES[rng.randrange(len(NEUTRAL_THEMES))], user_words=user_words,
        assistant_words=assistant_words,
    )
    if draft is not None:
        return draft.user.strip(), draft.assistant.strip()
    ctx.meters.count(STAGE, "neutral_fallbacks")
    user = phrasing.pick(rng, phrasing.NEUTRAL_USER).format(
        when=phrasing.pick(rng, phrasing.WHEN), part=phrasing.pick(rng, phrasing.DAY_PARTS)
    ) + phrasing.pick(rng, phrasing.NEUTRAL_USER_PADS)
    assistant = phrasing.pick(rng, phrasing.NEUTRAL_ASSISTANT) + phrasing.pick(rng, phrasing.NEUTRAL_ASSISTANT_TAILS)
    return _unique(user, seen), _unique(assistant, seen)


def _unique(text: str, seen: set[str]) -> str:
    n = 1
    candidate = text
    while normalize(candidate) in seen:
        n += 1
        candidate = f"{text} ({n})"
    return candidate


