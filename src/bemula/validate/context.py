"""What every instance check shares: the instance, the violations found so far, and indexes
built once (facts, requests, questions, turn positions, where each fact is stated) so that
each check is a single pass over the data."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from bemula.model import (
    DerivedFact,
    Fact,
    Instance,
    Question,
    Request,
    Segment,
    Suite,
    Turn,
    Version,
)
from bemula.text import contains_sequence, normalize_tokens, squash
from bemula.validate.report import Violation

EXCHANGE_SEGMENTS = (Segment.REQUEST, Segment.CONFIRMATION)
PROBED_SUITES = (Suite.EFFICACY, Suite.PRESERVATION, Suite.ATTACK)
#: SPEC §1: "every request must state removal unambiguously" — one of these must appear
#: what a removal request says, in many words: a verb of removal; "don't / rather you
#: didn't / stop" before keeping, having or working something out; "off / out of your notes";
#: "can go", "gone from", "no longer worth keeping"; "pretend I never said". A heuristic for
#: the request-wording warning (the text of a hand-written request should say it), so it
#: errs towards recall: a non-request that matches does no harm here.
_NEGATION = (r"(?:don'?t|do not|dont|never|not|no need to|stop|quit|avoid|no longer|"
             r"rather (?:you|u) (?:didn'?t|did not|wouldn'?t|not)|prefer (?:you|u) (?:didn'?t|did not|wouldn'?t|not)|"
             r"(?:you|u) not|(?:don'?t|do not|dont) want (?:you|u)(?: to)?|want (?:you|u) to not)")
_RETAIN = (r"(?:keep|keeping|kept|store|storing|stored|hold|holding|hang|hanging|retain|retaining|have|having|"
           r"save|saving|track|tracking|file|filing|log|logging|remember|remembering|use|using|"
           r"work(?:ing)? (?:it |that |this |them )?out|piec(?:e|ing) (?:it |that |this |them )?together|"
           r"infer|inferring|figur(?:e|ing) (?:it |that |this |them )?out|guess|guessing|calculat(?:e|ing)|"
           r"deduc(?:e|ing)|conclud(?:e|ing)|settl(?:e|ing)|do(?:ing)? the math?s|put(?:ting)? two and two together|"
           r"put(?:ting)? (?:those |them |it |that |this |these |things )?together|connect(?:ing)?|"
           r"draw(?:ing)? (?:any )?conclusions?|rely(?:ing)? on|bring(?:ing)? (?:it |that |this |them )?up|"
           r"mention(?:ing)?)")
REMOVAL_WORDS = re.compile(
    r"\b(forget|forgetting|forgot|forgotten|delete[ds]?|deleting|erase[ds]?|erasing|remove[ds]?|removing|"
    r"wipe[ds]?|wiping|lose|losing|drop(ped|ping)?|discard|purge|scrub|clear(ed|ing)?|scrap|scratch|ditch|bin|undo|"
    r"let\b[^.?!;]{0,200}?\bgo|letting\b[^.?!;]{0,200}?\bgo|get rid|"
    r"(off|out of) (the|your|ur) (record|records|notes|books|list|files?|memory|system)|"
    rf"{_NEGATION}\s+(?:\w+\s+){{0,2}}?{_RETAIN}|"
    r"(wasn'?t|isn'?t|shouldn'?t be|not be|never be|not|no longer|don'?t want [a-z ]{0,20}) "
    r"(kept|stored|saved|on file|on record|around)|"
    r"without [a-z ]{0,30}on (file|record)|"
    r"(can|should|could|must|may) (now )?go|gone from|(is|be|it'?s) gone|"
    r"stay(s|ed)? with (you|u)|(no longer|not) worth (keeping|storing|holding)|"
    r"(doesn'?t|does not|no longer) apply|no (use|good) (any ?more|now)|(shouldn'?t|should not|never|not) come up|no longer (holds|applies|true|valid|accurate|current|right|relevant|needed|necessary|useful)|out of date|"
    r"(leave|keep) [^.?!;]{0,60}(open question|unknown|unanswered|a mystery)|"
    r"no (conclusions?|deductions?|inferences?|guess(es|ing|work)?)|pretend (i|we) never|act (like|as if) [^.?!;]{0,60}never|never (told|mentioned|said|shared) (you|u|it|that)|"
    r"want(ed)? (\w+ )?(kept|stored|saved))\b",
    re.I,
)


_EPOCH = datetime(1970, 1, 1)


def epoch_seconds(dt: datetime) -> float:
    """Seconds since the epoch; a naive time is read as UTC so mixed files still compare."""
    return (dt - _EPOCH).total_seconds() if dt.tzinfo is None else dt.timestamp()


@lru_cache(maxsize=4096)
def words_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Case-insensitive match of any form as whole words (longest form first)."""
    cleaned = sorted({f.strip() for f in forms if f.strip()}, key=len, reverse=True)
    if not cleaned:
        return re.compile(r"(?!)")  # matches nothing
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, cleaned)) + r")(?!\w)", re.I)


def with_article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiouf" else "a ") + phrase


def norm(text: str) -> str:
    """As written, case and spacing aside (``bemula.text.squash``)."""
    return squash(text)


def value_tokens(text: str) -> tuple[str, ...]:
    """The judge's normal form of a text (numbers, dates, ordinals, case, punctuation), so the
    validator and the judge agree on when two spellings are one value ("9 April" = "April 9",
    "the second of May" states "2 May")."""
    return normalize_tokens(text)


def same_value(a: str, b: str) -> bool:
    return norm(a) == norm(b) or (bool(value_tokens(a)) and value_tokens(a) == value_tokens(b))


def states_form(text: str, form: str) -> bool:
    """``text`` contains ``form`` as written (case and spacing aside) or in normal form."""
    if not form.strip():
        return False
    return norm(form) in norm(text) or contains_sequence(value_tokens(text), value_tokens(form))


def covered(form: str, protected: list[str]) -> bool:
    """A protected list *covers* a form when an answer stating the form would contain one of
    the protected forms: "lisinopril" covers "lisinopril 10 mg" (coverage, not set inclusion)."""
    return any(states_form(form, p) for p in protected)


@dataclass(frozen=True)
class TurnPos:
    """Where a turn sits in a version: indexes for locations, ``seq`` for ordering."""

    session: int
    turn: int
    seq: int


class InstanceContext:
    """One instance under validation; checks call ``add`` for each violation they find."""

    def __init__(self, instance: Instance, file: str) -> None:
        self.inst = instance
        self.file = file
        self.out: list[Violation] = []
        p = instance.profile
        self.facts: dict[str, Fact] = {}
        for f in p.facts:
            self.facts.setdefault(f.id, f)
        self.derived: dict[str, DerivedFact] = {}
        for d in p.derived_facts:
            self.derived.setdefault(d.id, d)
        self.requests: dict[str, Request] = {}
        for r in instance.requests:
            self.requests.setdefault(r.id, r)
        self.questions: dict[str, Question] = {}
        for q in instance.questions:
            self.questions.setdefault(q.id, q)
        self.session_index: dict[str, int] = {}
        for i, s in enumerate(instance.forget.sessions):
            self.session_index.setdefault(s.id, i)
        # forget-version turn positions and where each fact is stated (user or assistant)
        self.turn_pos: dict[str, TurnPos] = {}
        self.stated: dict[str, list[TurnPos]] = {}
        self.flat: list[tuple[TurnPos, Turn, str]] = []  # forget turns in order, with casefolded text
        for si, s in enumerate(instance.forget.sessions):
            for ti, t in enumerate(s.turns):
                pos = TurnPos(si, ti, len(self.flat))
                self.flat.append((pos, t, t.text.casefold()))
                self.turn_pos.setdefault(t.id, pos)
                for fid in t.annotations.facts:
                    self.stated.setdefault(fid, []).append(pos)

    def add(self, location: str, code: str, message: str) -> None:
        """Record one violation of this instance's file."""
        self.out.append(Violation(self.file, location, code, message))

    def turn(self, pos: TurnPos, version: Version = Version.FORGET) -> Turn:
        return self.inst.dialogue(version).sessions[pos.session].turns[pos.turn]

    @staticmethod
    def turn_loc(pos: TurnPos, version: Version = Version.FORGET) -> str:
        return f"$.{version.value}.sessions[{pos.session}].turns[{pos.turn}]"

    def target(self, fid: str) -> Fact | DerivedFact | None:
        return self.facts.get(fid) or self.derived.get(fid)
