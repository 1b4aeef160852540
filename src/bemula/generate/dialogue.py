"""Render a session plan into the two turn-aligned dialogue versions.

Both versions share turn ids and timestamps; they differ only at request exchanges
(forget: request + confirmation; control: a neutral exchange of similar length). Dates
advance like real use: sessions on varied days and times of day with irregular gaps,
turns seconds to minutes apart.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from bemula.generate.catalog import ATTRIBUTE_BY_KEY
from bemula.generate.filler import FillerMaker
from bemula.generate.phrasing import (
    ACK_BODIES,
    ACK_FOLLOWUPS,
    ACK_OPENERS,
    CATEGORY_TALK,
    DAY_PARTS,
    PERSONS,
    STATEMENT_CONTEXTS,
    WHEN,
    pick,
)
from bemula.generate.plan import RequestPlan, SessionPlan
from bemula.generate.requests import confirmation_text, day_part, neutral_exchange, request_text, window_phrase
from bemula.model import Dialogue, Profile, Request, Role, Segment, Session, TimeWindow, Turn, TurnAnnotations

# session start hours weighted toward mornings, lunch and evenings, like real use
_START_HOURS = (7, 7, 8, 8, 9, 10, 11, 12, 12, 13, 14, 16, 17, 18, 19, 19, 20, 20, 21, 21, 22)


def session_days(rng: random.Random, n_sessions: int, span_days: int) -> list[int]:
    """Day offsets: first 0, last ``span_days``, others on distinct days in between."""
    if n_sessions == 1:
        return [0]
    inner = list(range(1, span_days))
    if len(inner) >= n_sessions - 2:
        middle = sorted(rng.sample(inner, n_sessions - 2))
    else:
        middle = sorted(rng.choice(inner or [0]) for _ in range(n_sessions - 2))
    return [0, *middle, span_days]


@dataclass
class RenderedInstance:
    forget: Dialogue
    control: Dialogue
    requests: list[Request]
    #: when each fact was first stated (session index), for question planning
    fact_session: dict[str, int]


def _fact_turn(rng: random.Random, profile_facts: dict, ids: list[str], used: set[str]) -> tuple[str, str]:
    for attempt in range(50):
        context = pick(rng, STATEMENT_CONTEXTS).format(when=pick(rng, WHEN), person=pick(rng, PERSONS))
        sentences = [profile_facts[i].statement for i in ids]
        user = context + " ".join(sentences)
        nouns = [ATTRIBUTE_BY_KEY[profile_facts[i].attribute].noun for i in ids]
        noun = nouns[0] if len(nouns) == 1 else f"{nouns[0]} and {nouns[1]}"
        opener = pick(rng, ACK_OPENERS)
        talk = CATEGORY_TALK.get(profile_facts[ids[-1]].category, ())
        if talk and rng.random() < 0.35:
            question, reply = talk[rng.randrange(len(talk))]
            user += " " + question
            assistant = f"{opener}. {reply}"
        else:
            body = pick(rng, ACK_BODIES).format(noun=noun)
            assistant = f"{opener}, {body}" if not body[0].isupper() else f"{opener}. {body}"
            assistant += pick(rng, ACK_FOLLOWUPS).format(part=pick(rng, DAY_PARTS))
        if attempt > 20:
            assistant += f" ({len(used) % 97 + attempt})"  # practically unreachable; keeps turns distinct
        if user not in used and assistant not in used:
            used.add(user)
            used.add(assistant)
            return user, assistant
    raise RuntimeError(f"could not phrase a distinct statement turn for {ids}")


class ValueBlocklist:
    """Finds any value form of the instance in a text (word-bounded, case-insensitive).

    A plain substring test on the lower-cased text screens first; only hits are confirmed
    with a word-boundary regex, which keeps the check cheap for thousands of filler turns."""

    def __init__(self, forms: list[str]) -> None:
        self.forms = sorted({f.lower() for f in forms if f.strip()})
        self._patterns = {
            f: re.compile(r"(?<![a-z0-9])" + re.escape(f) + r"(?![a-z0-9])") for f in self.forms
        }

    def search(self, text: str) -> str | None:
        low = text.lower()
        for form in self.forms:
            if form in low and self._patterns[form].search(low):
                return form
        return None


def blocklist(profile: Profile, plans: list[RequestPlan]) -> ValueBlocklist:
    """Every value form of the instance (filler must never contain one)."""
    forms: list[str] = [profile.user["name"]]
    for f in profile.facts:
        forms.extend(f.accepted)
    for d in profile.derived_facts:
        forms.extend(d.accepted)
    for p in plans:
        if p.new_value:
            forms.extend(p.new_value.forms)
    return ValueBlocklist(forms)


def render(rng: random.Random, profile: Profile, plans: list[RequestPlan], sessions: list[SessionPlan],
           start: datetime, span_days: int) -> RenderedInstance:
    facts = {f.id: f for f in profile.facts}
    plan_by_id = {p.id: p for p in plans}
    used: set[str] = set()
    filler = FillerMaker(rng, used, blocklist(profile, plans), profile.user["first_name"])
    days = session_days(rng, len(sessions), span_days)
    forget_sessions: list[Session] = []
    control_sessions: list[Session] = []
    requests: list[Request] = []
    fact_session: dict[str, int] = {}
    session_bounds: dict[int, tuple[datetime, datetime]] = {}
    last_end = start - timedelta(days=1)
    n = len(sessions)
    for sp, day in zip(sessions, days, strict=True):
        hour = pick(rng, _START_HOURS)
        if sp.index == n - 1 and sp.index > 0:
            # the last session starts near the first one's hour, so the span lands on its target
            hour = min(22, start.hour + rng.randint(0, 1))
        t = start.replace(hour=0, minute=0, second=0) + timedelta(days=day, hours=hour, minutes=rng.randrange(60))
        if sp.index == 0:
            t = start
        if t <= last_end + timedelta(minutes=30):
            t = last_end + timedelta(minutes=rng.randint(30, 180))
        session_start = t
        sid = f"S{sp.index + 1:02d}"
        # long sessions get shorter gaps, so a session spans at most a few hours
        max_gap = max(40, min(300, int(4 * 3600 / max(1, len(sp.exchanges)))))
        f_turns: list[Turn] = []
        c_turns: list[Turn] = []
        for ex in sp.exchanges:
            u_id = f"{sid}-T{len(f_turns) + 1:03d}"
            a_id = f"{sid}-T{len(f_turns) + 2:03d}"
            u_ts = t
            a_ts = t + timedelta(seconds=rng.randint(6, 55))
            t = a_ts + timedelta(seconds=rng.randint(20, max_gap))
            if ex.kind == "request":
                plan = plan_by_id[ex.request_id or ""]
                window = ""
                tw = None
                if plan.window_session is not None:
                    w0, w1 = session_bounds[plan.window_session]
                    window = window_phrase(w0, u_ts)
                    tw = TimeWindow(start=w0, end=w1, session_ids=[f"S{plan.window_session + 1:02d}"])
                for _ in range(50):
                    req = request_text(rng, plan, profile, window=window)
                    if req not in used:
                        break
                conf = confirmation_text(rng, plan)
                while conf in used:
                    conf = confirmation_text(rng, plan) + pick(rng, (" Take care.", " All set.", " Done and dusted.", " Consider it gone."))
                used.update((req, conf))
                neu_u, neu_a = neutral_exchange(rng, req, conf, used)
                used.update((neu_u, neu_a))
                ann_r = TurnAnnotations(request_id=plan.id, segment=Segment.REQUEST)
                ann_c = TurnAnnotations(request_id=plan.id, segment=Segment.CONFIRMATION)
                ann_n = TurnAnnotations(request_id=plan.id, segment=Segment.NEUTRAL)
                f_turns += [Turn(id=u_id, role=Role.USER, text=req, timestamp=u_ts, annotations=ann_r),
                            Turn(id=a_id, role=Role.ASSISTANT, text=conf, timestamp=a_ts, annotations=ann_c)]
                c_turns += [Turn(id=u_id, role=Role.USER, text=neu_u, timestamp=u_ts, annotations=ann_n),
                            Turn(id=a_id, role=Role.ASSISTANT, text=neu_a, timestamp=a_ts,
                                 annotations=ann_n.model_copy())]
                requests.append(Request(
                    id=plan.id, type=plan.type, target_fact_ids=list(plan.targets), session_id=sid, turn_id=u_id,
                    text=req, new_value=plan.new_value.text if plan.new_value else None,
                    category=plan.category, window=tw,
                ))
                continue
            if ex.kind == "fact":
                user, assistant = _fact_turn(rng, facts, ex.fact_ids, used)
                ann = TurnAnnotations(facts=list(ex.fact_ids))
                for fid in ex.fact_ids:
                    fact_session.setdefault(fid, sp.index)
            elif ex.kind == "echo":
                fact = facts[ex.fact_ids[0]]
                user, assistant = filler.echo(ATTRIBUTE_BY_KEY[fact.attribute].noun, fact.value, fact.category)
                ann = TurnAnnotations()
            else:
                greet = day_part(u_ts) if not f_turns else None
                user, assistant = filler.exchange(greet)
                ann = TurnAnnotations()
            for turns in (f_turns, c_turns):
                turns.append(Turn(id=u_id, role=Role.USER, text=user, timestamp=u_ts, annotations=ann.model_copy()))
                turns.append(Turn(id=a_id, role=Role.ASSISTANT, text=assistant, timestamp=a_ts,
                                  annotations=TurnAnnotations()))
        session_bounds[sp.index] = (f_turns[0].timestamp, f_turns[-1].timestamp)
        last_end = f_turns[-1].timestamp
        forget_sessions.append(Session(id=sid, start=session_start, turns=f_turns))
        control_sessions.append(Session(id=sid, start=session_start, turns=c_turns))
    requests.sort(key=lambda r: (r.session_id, r.turn_id))
    return RenderedInstance(Dialogue(sessions=forget_sessions), Dialogue(sessions=control_sessions), requests,
                            fact_session)
