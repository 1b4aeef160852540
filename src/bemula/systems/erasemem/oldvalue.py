"""F6's old value when the request does not name it ("… ended up being Fenwick Savings Bank;
whatever you had before is out of date").

The change statement names the *attribute* ("which bank I use", "my eating plan", "the days
I lift") and the *new value*; the old value is an earlier statement of the same attribute
holding a value of the same kind as the new one: a name for a name ("Harbourline Bank" for
"Fenwick Savings Bank"), days of the week for days of the week. So the candidates are the
units that hold a value of the new value's kind, scored by how much of the attribute they
(or the sentence before them, in the same turn) say; the best one's value is the old value.

Only the old value's own words are purged then — never the attribute's ("bank"), never the
new value's — so "Harbourline Bank" goes everywhere while "the bank holiday" stays.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from bemula.systems.erasemem.categories import attribute_synonyms, unit_categories
from bemula.systems.erasemem.forms import MONEY_SPAN, date_spans, sum_figures
from bemula.systems.erasemem.owners import about_someone_else
from bemula.systems.erasemem.store import MemoryStore, Unit
from bemula.systems.erasemem.textutil import one_typo_apart, sentence_pieces
from bemula.systems.erasemem.tokens import tokenize

_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
#: a run of weekdays: "Mondays and Thursdays", "Tue, Thu" is not matched (names only)
_WEEKDAYS = re.compile(rf"\b{_WEEKDAY}(?:\s*(?:,|and|&|or|plus)\s*{_WEEKDAY})*\b", re.I)
#: one word of a name: capitalised ("Harbourline"), or letters with digits ("1Password", "840")
_NAME_WORD = r"(?:[A-Z](?:[\w'’&-]|\.(?=\w))*|\w*\d\w*)"
#: a name: name words, with the small words names carry inside ("Bank of Ireland", "Rue de la Paix")
_NAME = re.compile(rf"(?<![\w'’]){_NAME_WORD}(?:\s+(?:(?:of|de|da|del|du|la|le|van|von|the|&)\s+)*{_NAME_WORD})*")
#: capitalised words that are not names when they stand alone
_NOT_NAMES = frozenset(
    """i i'm i've i'd i'll im ive id the a an my our your his her their it its this that these those
    there here what which who when where why how and but so or if ok okay yes no hi hey hello thanks
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays
    saturdays sundays january february march april may june july august september october november
    december mr mrs ms dr""".split()
)
#: words of a request that say a change happened or the old value is void, not which attribute
_CHANGE_TALK = frozenset(tokenize(
    """changed change changing switched switch swapped moved went gone over shifted shift turned ended
    end up being became become finally recently earlier before previous old outdated version around
    value answer figure thing things everything whatever while back ago ages took time saga spare
    update updated news now instead these days nowadays going forward here on today longer hold holds
    told said rely use using used keep kept bother relevant dead date wrong done want need
    please pls forget delete remove erase scrap drop wipe let go away record records notes note one ones
    since monday tuesday wednesday thursday friday saturday sunday week weekend month year"""
))
#: how much the sentence before a unit (same turn) counts toward it: "Two: butter." then
#: "Beurrerie Gauvin, good quality, …" states one fact across two sentences
CONTEXT_WEIGHT = 0.5
#: "my budgeting app", "my work laptop": the attribute as the user's own
_MY_WORDS = re.compile(r"\bmy\s+((?:[\w'’-]+\s+){0,2}[\w'’-]+)", re.I)
#: how much a lower-case word of the new value counts as an attribute word
NEW_VALUE_WORD_WEIGHT = 0.5
#: how much an attribute word counts in a sentence that does not say it but is of its life area
LIFE_AREA_WEIGHT = 0.25


@dataclass
class OldValue:
    """The units that state the replaced value, and the value's own tokens (to purge)."""

    units: list[Unit]
    value: str
    anchors: set[str]


#: an email address: a kind of its own, written in lower case
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def value_kind(new_value: str) -> str | None:
    """``weekdays``, ``email``, ``date``, ``money`` or ``name``, or None when the new value has no kind we can look
    for ("halal", "watercolour painting": a lower-case value is found by its attribute only)."""
    if _WEEKDAYS.search(new_value):
        return "weekdays"
    if _EMAIL.search(new_value):
        return "email"
    if date_spans(new_value) and len(new_value.split()) <= 5:
        return "date"  # "It is May 5 now": the old value is the date said of the same thing
    if MONEY_SPAN.fullmatch(new_value.strip()):
        return "money"  # "The monthly payment is now £389": the sum said beside the payment's words
    if not re.search(r"[A-Za-z]{2}", new_value):
        return None  # a number ("2093", "S$250k"): the same-shape number is found elsewhere
    if any(_is_name(m.group(0), initial=False) for m in _NAME.finditer(new_value)):
        return "name"
    return None


def _is_name(span: str, initial: bool) -> bool:
    words = span.split()
    if not re.search(r"[A-Za-z]{2}", span):
        return False  # "8", "7": a number is not a name
    if all(w.lower().strip(".,") in _NOT_NAMES for w in words):
        return False
    # "Staying with …": a capital that only starts the sentence is no sign of a name
    return not (initial and len(words) == 1 and not re.search(r"\d|\w[A-Z]", span))


def values_of_kind(text: str, kind: str) -> list[tuple[int, str]]:
    """(position, span) of every value of ``kind`` in ``text``."""
    if kind == "weekdays":
        return [(m.start(), m.group(0)) for m in _WEEKDAYS.finditer(text)]
    if kind == "email":
        return [(m.start(), m.group(0).rstrip(".")) for m in _EMAIL.finditer(text)]
    if kind == "date":
        return date_spans(text)
    if kind == "money":
        return [(m.start(), m.group(0)) for m in MONEY_SPAN.finditer(text)]
    out: list[tuple[int, str]] = []
    for m in _NAME.finditer(text):
        # words that are never names ("I", "The", "Now I") split a run into names
        run: list[tuple[int, str]] = []
        for w in re.finditer(r"\S+", m.group(0)):
            word = w.group(0).rstrip(".’'")
            if word.lower().strip(".,") in _NOT_NAMES:
                run.append((-1, ""))
            else:
                run.append((m.start() + w.start(), word))
        pieces: list[list[tuple[int, str]]] = [[]]
        for pos, word in run:
            if pos < 0:
                pieces.append([])
            else:
                pieces[-1].append((pos, word))
        for piece in pieces:
            if not piece:
                continue
            start = piece[0][0]
            span = text[start: piece[-1][0] + len(piece[-1][1])]
            initial = _starts_sentence(text[:start])
            if _is_name(span, initial):
                out.append((start, span))
    return out


#: titles whose full stop does not end the sentence ("Rent goes to Mr. Delacroix")
_TITLES = frozenset({"Mr", "Mrs", "Ms", "Dr", "St", "Prof", "Mt"})


#: what people type before a sentence without a full stop: "um so Found my old bike …",
#: "okay so Veg gets lobbed …" (the capital after it opens the sentence; it is no name)
_FILLER_ONLY = re.compile(r"^\W*(?:(?:u+m+|u+h+|e+r+m*|ok(?:ay)?|right|so|well|oh|ah|hey|hi|yeah|yes|hmm+|anyway)\W+){1,3}$",
                          re.I)


def _starts_sentence(before: str) -> bool:
    """Whether a word after ``before`` opens a sentence (its capital says nothing)."""
    if not before.strip(" \t\n\"'“‘(-—–*") or _FILLER_ONLY.match(before):
        return True
    m = re.search(r"(\w*)([.!?:])[\s\"'”’)]*$", before)
    if m is None:
        return False
    return not (m.group(2) == "." and m.group(1) in _TITLES)


_EMAIL_OR_NUMBER = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+?\d[\d ()./-]{2,}\d")


def value_stated(statements: list[str], change_cue: re.Pattern[str]) -> str | None:
    """The value an update states when no phrasing we know introduces it ("… I'm with
    Octopus Energy these days", "Octopus it is"): the first name, email, number or run of
    weekdays in the statements that tell the change (else in any statement)."""
    told = [st for st in statements if change_cue.search(st)]
    for statement in told or statements:
        found: list[tuple[int, str]] = [(m.start(), m.group(0)) for m in _EMAIL_OR_NUMBER.finditer(statement)]
        found += [(pos, span) for pos, span in values_of_kind(statement, "weekdays")]
        found += [(pos, span) for pos, span in values_of_kind(statement, "name")
                  if not any(p <= pos < p + len(v) for p, v in found)]
        if found:
            return min(found)[1].strip(" .,;:")
    return None


#: "my game console is …", "my dog's called …": a sentence that names its own attribute
_MY_ATTRIBUTE_IS = re.compile(r"\bmy\s+((?:[\w'’-]+\s+){0,2}?[\w'’-]+)\s+(?:is|are|was|were|'s)\b", re.I)


def _names_its_own_attribute(sentence: str, attribute: set[str]) -> bool:
    """The sentence says "my X is …" with none of ``attribute``'s words in X."""
    return any(set(tokenize(m.group(1))).isdisjoint(attribute) and tokenize(m.group(1))
               for m in _MY_ATTRIBUTE_IS.finditer(sentence))


#: the adjective of a sum's period ("£412 every month" is "monthly")
_PERIODIC = {"month": "monthly", "week": "weekly", "year": "yearly", "hour": "hourly", "day": "daily"}


def _close(a: str, b: str) -> bool:
    """Equal, or one typo apart in a longer word ("podccast" for "podcast")."""
    return one_typo_apart(a, b, min_length=5)


def attribute_words(phrases: list[str], new_value: str, ignore: frozenset[str] = frozenset()) -> dict[str, float]:
    """The words that name the attribute in the request's change statements and targets,
    each with how much it counts: 1, or 0.5 for a lower-case word of the new value itself
    ("Georgian *food*", "Urbana *card*": the kind of thing, shared by the old value)."""
    new_tokens = set(tokenize(new_value))
    skip = _CHANGE_TALK | ignore
    # lower-case words: a name in a change statement is a value ("cancelled PureGym"), never
    # the attribute's word
    words = {t for p in phrases for w in p.split() if not w[:1].isupper() for t in tokenize(w)} - skip
    # the new value's words name it, not the attribute — unless the statement says them
    # outside it too ("which bank I use ended up being Fenwick Savings Bank")
    outside = {t for p in phrases for t in tokenize(p.replace(new_value, " "))}
    out = {t: 1.0 for t in words if t not in new_tokens or t in outside}
    for word in new_value.split():
        if word[:1].islower():
            for t in tokenize(word):
                if t not in skip:
                    out.setdefault(t, NEW_VALUE_WORD_WEIGHT)
    return out


#: the words just before a value that make it someone else's: "… her number is 614-555-0129",
#: "Jaz's number is …" (the user's own sentence may still say "my" elsewhere)
OTHERS_VALUE_BEFORE = re.compile(
    r"\b(?:(?:her|his|their)\s+(?:[\w-]+\s+){0,2}?|(?!(?:it|that|what|there|here|who|he|she|let)(?:'s|’s))[A-Za-z]+(?:'s|’s)\s+"
    # (a possessive needs its noun: "Code's 4471" is "the code is 4471")
    r"(?:[\w-]+\s+){1,2}?)(?:is|was|are|were|:|=)?\s*$", re.I)


PART_JOIN = re.compile(r",\s+(?:and|but)\s+|;\s+|\s+but\s+")


def part_at(sentence: str, pos: int) -> str:
    """The part of a compound sentence (joined by ", and", ", but", ";") that holds ``pos``."""
    start = 0
    for m in PART_JOIN.finditer(sentence):
        if m.start() >= pos:
            return sentence[start: m.start()]
        start = m.end()
    return sentence[start:]


def find_old_value(
    store: MemoryStore,
    new_value: str,
    phrases: list[str],
    request_turn_id: str,
    ignore: frozenset[str] = frozenset(),
) -> OldValue | None:
    """The earlier statement of the attribute ``phrases`` describe whose value has the kind of
    ``new_value``; None when no unit holds such a value beside an attribute word."""
    kind = value_kind(new_value)
    if kind is None:
        return None
    counts = attribute_words(phrases, new_value, ignore)
    if not counts:
        return None
    # "the model of my work computer" is said "My work laptop is the HP EliteBook 840": a word
    # of the attribute's synonym group counts as the word, at its weight
    groups = attribute_synonyms()
    counts = {**{alt: c for a, c in counts.items() for alt in groups.get(a, ()) if alt not in counts}, **counts}
    attribute = set(counts)
    new_tokens = set(tokenize(new_value))
    n = max(len(store.units), 1)
    weights = {a: c * math.log(1.0 + (n + 0.5) / (store.df(a) + 0.5)) for a, c in counts.items()}

    # "my favourite airline" said "most of my flights end up being with Icelandair": an
    # attribute word counts a little in a sentence of its life area (the F3 lexicon's)
    areas = {a: unit_categories(a) for a in counts}
    any_area = any(areas.values())

    def said(tokens: set[str] | frozenset[str]) -> float:
        return sum(w for a, w in weights.items() if any(_close(a, t) for t in tokens))

    def mine(sentence: str) -> float:
        """Attribute words the user calls theirs ("My budgeting app is …") count again."""
        return sum(w for m in _MY_WORDS.finditer(sentence) for a, w in weights.items()
                   if any(_close(a, t) for t in tokenize(m.group(1))))

    # "my car model": the last attribute word says which kind of thing, the ones before it whose
    heads: set[str] = set()
    modifiers: set[str] = set()
    for phrase in phrases:
        for m in _MY_WORDS.finditer(phrase):
            named = [t for t in tokenize(m.group(1)) if t in attribute]
            if len(named) >= 2:
                heads.add(named[-1])
                modifiers.update(named[:-1])

    def another_attribute(sentence: str) -> bool:
        """"My phone model is the Pixel 8a" states the phone's model, not the car's: the
        user's phrase ends in the attribute's head word with none of its modifiers."""
        if not modifiers:
            return False
        for m in _MY_WORDS.finditer(sentence):
            words = tokenize(m.group(1))
            for i, t in enumerate(words):
                if i and any(_close(h, t) for h in heads) and not set(words[:i]) & modifiers:
                    return True
        return False

    # a change to someone else's thing ("Dad's GP changed to …") may look in their sentences
    others = any(about_someone_else(p) for p in phrases)
    # sentence by sentence, in the order they were said (a unit may hold several)
    scored: list[tuple[float, int, Unit, str]] = []
    unnamed: list[tuple[Unit, str]] = []  # emails said without the attribute's words
    previous: dict[str, str] = {}  # turn id -> its last sentence so far
    for unit in sorted(store.user_units(), key=lambda u: u.id):
        if unit.turn_id == request_turn_id:
            continue
        for sentence in sentence_pieces(unit.text):
            before = previous.get(unit.turn_id, "")
            previous[unit.turn_id] = sentence
            spans = [(pos, s) for pos, s in values_of_kind(sentence, kind)
                     if set(tokenize(s)) - new_tokens - attribute
                     and (others or not OTHERS_VALUE_BEFORE.search(sentence[max(0, pos - 40):pos]))]
            if spans and not others and about_someone_else(sentence):
                # "My sister Ottilie banks with Corvin Mutual": her bank, not the user's — but in
                # "my sister's hen do is on 10 June, and the theory test is on 14 June" only the
                # first part is hers
                spans = [(pos, s) for pos, s in spans if not about_someone_else(part_at(sentence, pos))]
            if not spans or another_attribute(sentence):
                continue
            own = set(tokenize(sentence))
            if kind == "money":
                # "£412 every month" is the monthly payment: a sum's period says which sum it is
                own |= {_PERIODIC[t] for _pos, s in spans for t in tokenize(s) if t in _PERIODIC}
            score = said(own) + mine(sentence) + CONTEXT_WEIGHT * said(set(tokenize(before)) - own)
            if any_area and not (score <= 0 and _names_its_own_attribute(sentence, attribute)):
                # (a sentence of the life area counts, unless it says which attribute it is
                # and that is another: "my game console is the Steam Deck" is no podcast)
                score += LIFE_AREA_WEIGHT * sum(w for a, w in weights.items() if areas.get(a) and not any(
                    _close(a, t) for t in own) and areas[a] & unit.categories)
            if score <= 0:
                if kind == "email":
                    unnamed.append((unit, spans[0][1]))
                continue
            # the value nearest the attribute's words ("My work laptop is the HP EliteBook 840")
            where = [m.start() for m in re.finditer(r"\w+", sentence)
                     if any(_close(a, t) for a in attribute for t in tokenize(m.group(0)))]
            # (measured from the value's nearer end: "EUR 42,000 a year base plus EUR 9,000")
            _pos, span = min(spans, key=lambda ps: min((min(abs(ps[0] - w), abs(ps[0] + len(ps[1]) - w)) for w in where),
                                                       default=0))
            scored.append((score, -len(own), unit, span))
    if not scored and len({span.lower() for _, span in unnamed}) == 1:
        # "I went with tamsin.vale@gmx.net, so that is my personal inbox sorted": an address
        # is its own kind; the one other address the user gave is the one it replaces
        scored = [(0.0, 0, unit, span) for unit, span in unnamed[:1]]
    if not scored:
        return None
    scored.sort(key=lambda x: (x[0], x[1]), reverse=True)
    best_score = scored[0][0]
    if len(scored) > 1 and scored[1][0] == best_score and scored[1][3] != scored[0][3]:
        return None  # two different values say the attribute equally: which one is unknown
    span = scored[0][3]
    span_tokens = set(tokenize(span))
    anchors = (span_tokens - attribute - new_tokens) or (span_tokens - new_tokens)
    if kind == "money":
        # the sum's leading figures, not its period ("every month" is every other monthly sum's too)
        anchors = sum_figures(span)
    holders = [u for u in store.units_containing(anchors) if u.turn_id != request_turn_id and anchors <= u.tokens]
    return OldValue(units=holders or [scored[0][2]], value=span, anchors=anchors)
