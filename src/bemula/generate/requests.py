"""Wording of forget requests, their confirmations, and the neutral control exchanges that
replace them.

Every request states removal unambiguously (each style contains forget/delete/erase/remove
or wipe), F6 states the new value, and the neutral exchange is chosen among several
candidates to be close in length to the request it replaces (SPEC §1: the versions differ
only there, so length must not give the request away).
"""

from __future__ import annotations

import random
from datetime import datetime

from bemula.generate.catalog import ATTRIBUTE_BY_KEY, CATEGORY_BY_KEY
from bemula.generate.derived import DERIVED_BY_KEY
from bemula.generate.phrasing import (
    CONFIRMATION_TAILS,
    CONFIRMATIONS,
    F6_CONFIRMATIONS,
    NEUTRAL_ASSISTANT_TAILS,
    NEUTRAL_EXCHANGES,
    NEUTRAL_USER_PADS,
    REQUEST_LEADS,
    REQUEST_STYLES,
    join_nouns,
    pick,
    upper_first,
)
from bemula.generate.plan import RequestPlan
from bemula.model import Fact, Profile, RequestType

REMOVAL_WORDS = ("forget", "delete", "erase", "remove", "wipe")

_DAY_PARTS = ((5, "morning"), (12, "afternoon"), (17, "evening"), (22, "night"))


def day_part(ts: datetime) -> str:
    label = "night"
    for hour, name in _DAY_PARTS:
        if ts.hour >= hour:
            label = name
    return label


def window_phrase(window_start: datetime, request_time: datetime) -> str:
    """A real time window in the user's words: 'last Tuesday evening', 'on March 4 (morning)'."""
    days = (request_time.date() - window_start.date()).days
    part = day_part(window_start)
    weekday = window_start.strftime("%A")
    date = f"{window_start.strftime('%B')} {window_start.day}"
    if days == 0:
        return f"earlier today, in our {part} chat" if part != "night" else "earlier tonight"
    if days == 1:
        return f"yesterday {part}" if part != "night" else "last night"
    if 2 <= days <= 6:
        return f"on {weekday} {part}" if part != "night" else f"on {weekday} night"
    return f"on the {part} of {weekday}, {date}"


def noun_of(profile_fact: Fact) -> str:
    return ATTRIBUTE_BY_KEY[profile_fact.attribute].noun


def request_text(rng: random.Random, plan: RequestPlan, profile: Profile, *, window: str = "") -> str:
    facts = {f.id: f for f in profile.facts}
    derived = {d.id: d for d in profile.derived_facts}
    style = pick(rng, REQUEST_STYLES[plan.type])
    slots: dict[str, str] = {}
    if plan.type in (RequestType.F1, RequestType.F6):
        fact = facts[plan.targets[0]]
        slots["noun"] = noun_of(fact)
        slots["statement_low"] = ATTRIBUTE_BY_KEY[fact.attribute].plain_text(fact.value) + "."
        slots["old"] = fact.value
        slots["new"] = plan.new_value.text if plan.new_value else ""
    elif plan.type == RequestType.F2:
        slots["nouns"] = join_nouns([noun_of(facts[t]) for t in plan.targets])
    elif plan.type == RequestType.F3:
        slots["category"] = pick(rng, CATEGORY_BY_KEY[plan.category or ""].descriptions)
    elif plan.type == RequestType.F4:
        slots["about"] = DERIVED_BY_KEY[derived[plan.targets[0]].attribute].about
    elif plan.type == RequestType.F5:
        slots["window"] = window
    text = style.format(**slots)
    lead = pick(rng, REQUEST_LEADS)
    return lead + text if lead else upper_first(text)


def confirmation_text(rng: random.Random, plan: RequestPlan) -> str:
    if plan.type == RequestType.F6 and plan.new_value is not None:
        return pick(rng, F6_CONFIRMATIONS).format(new=plan.new_value.text) + pick(rng, CONFIRMATION_TAILS)
    return pick(rng, CONFIRMATIONS) + pick(rng, CONFIRMATION_TAILS)


def neutral_exchange(rng: random.Random, request: str, confirmation: str, used: set[str]) -> tuple[str, str]:
    """The control version's stand-in: a content-free exchange close in length."""
    best: tuple[int, str, str] | None = None
    for _ in range(24):
        user_t, replies = NEUTRAL_EXCHANGES[rng.randrange(len(NEUTRAL_EXCHANGES))]
        user = user_t.format(part=pick(rng, ("day", "week", "morning"))) + pick(rng, NEUTRAL_USER_PADS)
        assistant = pick(rng, replies) + pick(rng, NEUTRAL_ASSISTANT_TAILS)
        if user in used or assistant in used:
            continue
        score = abs(len(user) - len(request)) + abs(len(assistant) - len(confirmation))
        if best is None or score < best[0]:
            best = (score, user, assistant)
    if best is None:  # the neutral space is exhausted for this instance: pad distinctly
        n = sum(1 for t in used if t.startswith("Give me one tip"))
        return (f"Give me one tip to stay focused for the next {n + 2} minutes, please.",
                f"Sure: pick one task and give it your full attention for {n + 2} minutes.")
    return best[1], best[2]
