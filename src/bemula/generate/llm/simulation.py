"""Stage 3 — multi-agent simulation: user simulator, assistant simulator, director, verifier.

* The **director** (code) turns the plan into a note for each user turn: which facts to state
  (with their exact words), or keep to the session's topic and share nothing new; after a
  verifier rejection it re-issues a sharper note naming what was missing.
* The **user simulator** (LLM) writes the user's next message from a persona, the topic, the
  recent transcript and the director's note.
* The **assistant simulator** (LLM) replies seeing only the last ten turns of the current
  session (SPEC §1), as native chat messages.
* The **verifier** checks each planned fact was actually stated: first literally (the value
  or an alias as whole words), then by an LLM yes/no call; a turn that fails is regenerated
  (``turn_retries``), then repaired by appending the fact's canonical statement. It also
  rejects turns that mention a fact outside its place (before its planned turn or in another
  session — that would break "stated before the request" and relearning) or a derived
  conclusion, which is never said.

Sessions are independent given the plan (each simulator sees only its own session), so they
run in parallel. Every accepted turn is cached at once: a crash loses no finished turn.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

from bemula.generate.llm import prompts
from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.schemas import PlanStage, SessionPlan, SessionSim, SimTurn, SimulationStage, StatedVerdict
from bemula.generate.llm.text import clean_turn, mentions, mentions_any, normalize
from bemula.model import Fact, Role

STAGE = "simulation"

_FALLBACK_USER = (
    "Okay, that makes sense. What else should I keep in mind about {topic}?",
    "Thanks. Could you give me one more idea for {topic}?",
    "Interesting. How would you approach {topic} if you were me?",
    "Got it. Anything I'm missing about {topic}?",
)
_FALLBACK_ASSISTANT = (
    "Happy to help. Let's take it one step at a time.",
    "Good question. A simple plan usually works best here.",
    "Sure. Start small and adjust as you go.",
    "That sounds reasonable. Tell me if you want more detail.",
)
_DEDUP_TAILS = (
    " Anyway.", " Just saying.", " Let's keep going.", " Does that make sense?", " Okay.",
    " Thanks again.", " Right.", " Good.", " Fair enough.", " Sure.",
)


def simulate(ctx: InstanceContext, plan: PlanStage) -> SimulationStage:
    cached = ctx.cache.get("stage:simulation", SimulationStage)
    if cached is not None:
        return cached
    facts = {f.id: f for f in plan.profile.facts}
    slot_of: dict[str, tuple[str, int]] = {}
    for sp in plan.sessions:
        for ut in sp.user_turns:
            for fid in ut.facts:
                slot_of[fid] = (sp.id, ut.index)
    conclusions = [v for d in plan.profile.derived_facts for v in d.accepted]

    def run(sp: SessionPlan) -> SessionSim:
        return _simulate_session(ctx, plan, sp, facts, slot_of, conclusions)

    workers = max(1, min(ctx.config.workers, len(plan.sessions)))
    if workers == 1:
        sessions = [run(sp) for sp in plan.sessions]
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            sessions = list(pool.map(run, plan.sessions))
    _dedupe(ctx, sessions)
    out = SimulationStage(sessions=sessions)
    ctx.cache.put("stage:simulation", out)
    return out


def _forbidden(
    facts: dict[str, Fact], slot_of: dict[str, tuple[str, int]], session_id: str, pair: int,
    allowed: list[str], conclusions: list[str],
) -> list[tuple[str, list[str]]]:
    """(label, forms) a turn at (session, pair) must not mention."""
    out: list[tuple[str, list[str]]] = [("a derived conclusion", [c]) for c in conclusions]
    for fid, fact in facts.items():
        if fid in allowed:
            continue
        where = slot_of.get(fid)
        if where is None or where[0] != session_id or where[1] > pair:
            out.append((fact.value, fact.accepted))
    return out


def _render_history(turns: list[SimTurn], window: int) -> str:
    if not turns:
        return "(the conversation is just starting)"
    return "\n".join(f"{'User' if t.role == 'user' else 'Assistant'}: {t.text}" for t in turns[-window:])


def _directive(sp: SessionPlan, index: int, planned: list[Fact], feedback: str) -> str:
    if planned:
        parts = [f"say that {f.statement.rstrip('.')}, using the exact words \"{f.value}\"" for f in planned]
        note = "In your message, " + "; also ".join(parts) + "."
    elif index == 0:
        note = f"Say hello and bring up the topic: {sp.topic}. Do not share personal details."
    else:
        note = f"Keep talking about {sp.topic}: react to the assistant or ask a follow-up. Share no new personal details."
    return f"{feedback} {note}".strip()


def _simulate_session(
    ctx: InstanceContext,
    plan: PlanStage,
    sp: SessionPlan,
    facts: dict[str, Fact],
    slot_of: dict[str, tuple[str, int]],
    conclusions: list[str],
) -> SessionSim:
    user = plan.profile.user
    persona = f"{user.get('age')} years old, {user.get('occupation')} living in {user.get('city')}"
    window = ctx.config.history_turns
    turns: list[SimTurn] = []
    seen: set[str] = set()
    for pair in range(sp.pairs):
        planned_ids = sp.user_turns[pair].facts
        planned = [facts[f] for f in planned_ids]
        allowed_here = planned_ids + [f for f, (s, i) in slot_of.items() if s == sp.id and i < pair]
        forbidden = _forbidden(facts, slot_of, sp.id, pair, allowed_here, conclusions)

        key = f"sim:{sp.id}:{2 * pair:03d}"
        turn = ctx.cache.get(key, SimTurn)
        if turn is None:
            turn = _user_turn(ctx, sp, pair, planned, turns, persona, forbidden, seen, user.get("name", "the user"))
            ctx.cache.put(key, turn)
        turns.append(turn)
        seen.add(normalize(turn.text))

        key = f"sim:{sp.id}:{2 * pair + 1:03d}"
        reply = ctx.cache.get(key, SimTurn)
        if reply is None:
            reply = _assistant_turn(ctx, sp, pair, turns[-window:], forbidden, seen)
            ctx.cache.put(key, reply)
        turns.append(reply)
        seen.add(normalize(reply.text))
    return SessionSim(session_id=sp.id, turns=turns)


def _leak(text: str, forbidden: list[tuple[str, list[str]]]) -> str | None:
    for label, forms in forbidden:
        if mentions_any(text, forms):
            return label
    return None


def _scrub(text: str, forbidden: list[tuple[str, list[str]]]) -> str:
    for _label, forms in forbidden:
        for form in sorted(forms, key=len, reverse=True):
            text = re.sub(r"(?<![A-Za-z0-9])" + re.escape(form) + r"(?![A-Za-z0-9])", "that", text, flags=re.IGNORECASE)
    return text


def unstated_facts(ctx: InstanceContext, text: str, planned: list[Fact]) -> list[Fact]:
    """The verifier: planned facts this text does not clearly state (literal test, then LLM)."""
    missing = []
    for fact in planned:
        if not mentions_any(text, fact.accepted):
            missing.append(fact)
            continue
        verdict = ctx.caller.json(
            STAGE, prompts.FACT_STATED, StatedVerdict, max_tokens=20, temperature=0.0,
            text=text, attribute=fact.attribute, value=fact.value,
        )
        if verdict is not None and not verdict.stated:
            missing.append(fact)
    return missing


_ASSISTANT_PHRASES = re.compile(
    r"\b(how can i (?:help|assist)|i'?m (?:just )?here to help|feel free to ask|as an ai|happy to help you|"
    r"i am an ai|ai assistant|artificial intelligence|language model)\b",
    re.IGNORECASE,
)
_ECHOED_INSTRUCTIONS = re.compile(r"\b(director|draft|exact words|in your message)\b", re.IGNORECASE)
_REFUSAL = re.compile(r"\b(?:can(?:no|')t|cannot|unable to) (?:assist|help) with (?:that|this)\b", re.IGNORECASE)


def _speaks_as_assistant(text: str, name: str) -> bool:
    """The small model often slips out of the user's role: it greets the user by name, offers
    help, refuses like an assistant, or echoes the director's note. A user does none of these."""
    first = name.split()[0] if name.split() else ""
    return bool(_ASSISTANT_PHRASES.search(text) or _ECHOED_INSTRUCTIONS.search(text) or _REFUSAL.search(text)) or (
        len(first) > 2 and mentions(text, first))


def _user_turn(
    ctx: InstanceContext, sp: SessionPlan, pair: int, planned: list[Fact], turns: list[SimTurn], persona: str,
    forbidden: list[tuple[str, list[str]]], seen: set[str], name: str,
) -> SimTurn:
    feedback = ""
    text = ""
    usable = ""  # the last draft that failed only the fact check (kept for the repair)
    missing: list[Fact] = list(planned)
    for attempt in range(ctx.config.turn_retries + 1):
        messages = prompts.USER_TURN.render(
            name=name, persona=persona, topic=sp.topic,
            history=_render_history(turns, ctx.config.history_turns),
            directive=_directive(sp, pair, planned, feedback),
        )
        # a retry runs warmer: the same feedback twice must not be the same request (a cache
        # would replay the rejected answer)
        temperature = min(1.5, ctx.config.dialogue_temperature + 0.15 * attempt)
        text = clean_turn(ctx.caller.text(STAGE, messages, max_tokens=ctx.config.turn_max_tokens,
                                          temperature=temperature))
        if attempt:
            ctx.meters.count(STAGE, "turn_retries")
        if len(text) < 2:
            feedback = "Your last message was empty."
            continue
        leaked = _leak(text, forbidden)
        if leaked is not None:
            feedback = f"Do not mention \"{leaked}\" now."
            ctx.meters.count(STAGE, "leaks_caught")
            continue
        if normalize(text) in seen:
            feedback = "Say something new; do not repeat an earlier message."
            ctx.meters.count(STAGE, "duplicates_caught")
            continue
        if _speaks_as_assistant(text, name):
            feedback = f"You are {name} talking to the assistant; do not address {name} or offer help."
            ctx.meters.count(STAGE, "role_confusions_caught")
            continue
        missing = unstated_facts(ctx, text, planned)
        if not missing:
            return SimTurn(role=Role.USER.value, text=text, facts=[f.id for f in planned])
        usable = text
        ctx.meters.count(STAGE, "unstated_caught", len(missing))
        feedback = "Your last message did not clearly say: " + " ".join(f.statement for f in missing) + " Say it plainly."
    # deterministic repair: the last in-role draft (or a neutral line) plus every fact it missed
    text = usable
    if not text:
        text = _FALLBACK_USER[(pair + len(turns)) % len(_FALLBACK_USER)].format(topic=sp.topic)
        if normalize(text) in seen:
            text = f"{text} ({sp.topic}, part {pair + 1})"
        missing = list(planned)
    text = _scrub(text, forbidden)
    for fact in missing:
        text = f"{text} {fact.statement}".strip()
    ctx.meters.count(STAGE, "turns_repaired")
    return SimTurn(role=Role.USER.value, text=text, facts=[f.id for f in planned], repaired=True)


def _assistant_turn(
    ctx: InstanceContext, sp: SessionPlan, pair: int, window: list[SimTurn],
    forbidden: list[tuple[str, list[str]]], seen: set[str],
) -> SimTurn:
    messages = [{"role": "system", "content": prompts.ASSISTANT_TURN.system}]
    messages += [{"role": t.role, "content": t.text} for t in window]
    for attempt in range(ctx.config.turn_retries + 1):
        # a retry runs warmer: a different request, so a request cache cannot replay the reject
        temperature = min(1.5, ctx.config.dialogue_temperature + 0.15 * attempt)
        text = clean_turn(ctx.caller.text(STAGE, messages, max_tokens=ctx.config.turn_max_tokens,
                                          temperature=temperature))
        if attempt:
            ctx.meters.count(STAGE, "turn_retries")
        leaked = _leak(text, forbidden)
        refused = _REFUSAL.search(text) is not None
        if len(text) >= 2 and leaked is None and not refused and normalize(text) not in seen:
            return SimTurn(role=Role.ASSISTANT.value, text=text)
        if refused:
            ctx.meters.count(STAGE, "refusals_caught")
        if leaked is not None:
            ctx.meters.count(STAGE, "leaks_caught")
    ctx.meters.count(STAGE, "turns_repaired")
    text = _scrub(text, forbidden) if len(text) >= 2 and _REFUSAL.search(text) is None else ""
    if not text or normalize(text) in seen:
        text = _FALLBACK_ASSISTANT[pair % len(_FALLBACK_ASSISTANT)]
        if normalize(text) in seen:
            text = f"{text} ({sp.topic}, step {pair + 1})"
    return SimTurn(role=Role.ASSISTANT.value, text=text, repaired=True)


def _dedupe(ctx: InstanceContext, sessions: list[SessionSim]) -> None:
    """No turn may repeat verbatim within an instance (sessions ran in parallel, so check here)."""
    seen: set[str] = set()
    for session in sessions:
        for k, turn in enumerate(session.turns):
            n = 0
            while normalize(turn.text) in seen:
                turn.text = turn.text.rstrip() + _DEDUP_TAILS[(k + n) % len(_DEDUP_TAILS)]
                n += 1
            if n:
                ctx.meters.count(STAGE, "duplicates_fixed")
            seen.add(normalize(turn.text))
