"""Target resolution: which memory units a forget request means, searched over ALL memory.

Resolution never looks at a top-k list: every live unit is scored against the request
(BM25 over the whole index with k = its size, category membership, or timestamps), so a
fact mentioned once, sessions ago, is found as surely as one mentioned a minute ago.

It also decides the *value tokens* of each resolved unit — the words that carry what is
being forgotten and must vanish from every other store (assistant echoes, restatements):
the unit's least frequent non-generic tokens. "I'm allergic to penicillin" next to "I'm
also allergic to cats" gives {penicillin}: the attribute word shared with a neighbour is
not the value, so the neighbour survives.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache
from importlib import resources
from pathlib import Path

from bemula.index.base import SearchHit
from bemula.systems.erasemem.categories import (
    DRUG_SUFFIX,
    attribute_synonyms,
    categories_in,
    category_signal_words,
    concept_expansion,
)
from bemula.systems.erasemem.forms import MONEY_SPAN, code_keys, code_spans, date_keys, date_spans, sum_figures
from bemula.systems.erasemem.intent import CHANGE_CUE, JUST_SAID, ForgetIntent, ForgetKind, before_exception
from bemula.systems.erasemem.oldvalue import (
    CONTEXT_WEIGHT,
    OTHERS_VALUE_BEFORE,
    PART_JOIN,
    find_old_value,
    part_at,
    value_kind,
    value_stated,
    values_of_kind,
)
from bemula.systems.erasemem.owners import (
    KIN,
    KIN_WORDS,
    MY_THING,
    OTHER_PRONOUNS,
    PEOPLE_CATEGORIES,
    about_someone_else,
    ghost_owners,
    names_no_one,
    owned_by_someone_else,
    owners_of,
)
from bemula.systems.erasemem.semantic import CATEGORY_MIN_COSINE, SemanticMatcher
from bemula.systems.erasemem.store import MemoryStore, Unit
from bemula.systems.erasemem.textutil import BULLET, sentence_pieces, word_spans
from bemula.systems.erasemem.timeparse import TimeReference, parse_time_reference
from bemula.systems.erasemem.tokens import surface_forms, tokenize

#: words that frame a statement but never carry a value ("I really love my new job")
GENERIC = frozenset(
    tokenize(
        """also actually always usually never sometimes often every day days week weeks month
        months year years time times lot lots bit thing things stuff like love loves enjoy
        prefer think know want need make made go going went come take keep mind remember tell
        told say said mention mentioned good great nice new old big small little name one
        first last still now lately recently since ago way kind sort pretty quite much many
        people currently started start right sure maybe probably guess mean really definitely
        just well even though because something anything everything nothing someone anyone
        everyone today tomorrow yesterday morning evening night weekend usual lately fun
        favorite favourite get got getting let lets thing honestly basically literally kinda
        sorta gonna wanna thanks thank hello hi hey yes no okay ok sure oh ah um uh hmm wow
        cool awesome amazing interesting anyway anyways btw fyi by the way pretty much
        altogether total overall combined sum many much add adds per each
        hundred thousand million billion lakh lakhs crore crores grand quid euro euros pound
        pounds dollar dollars rupee rupees cent cents pence"""
    )
)
#: words of a request that describe the act, not the target
META = frozenset(
    tokenize(
        """fact facts detail details info information thing things stuff said told mention
        mentioned record records memory memories note notes forget delete remove erase wipe
        everything anything whatever all about regarding concerning related part bit entry
        line data piece keep store stored use using conclusion conclusions assumption
        assumptions inference inferences infer deduce draw drawn made make conclude assume
        guess anymore old previous former earlier one value"""
    )
)


@dataclass
class Resolution:
    """What one request removes (unit ids) and what it leaves behind (tombstone material)."""

    delete_units: list[str] = field(default_factory=list)
    value_tokens: set[str] = field(default_factory=set)  # purge from every other record
    by_meaning: int = 0  # targets found by embedding (``semantic``), not by their words
    unit_ghosts: list[tuple[str, ...]] = field(default_factory=list)  # tokens of deleted units
    #: tokens of the units an F5 window removed: they lose ties to what was kept
    window_ghosts: list[tuple[str, ...]] = field(default_factory=list)
    phrase_ghosts: list[tuple[str, ...]] = field(default_factory=list)  # tokens of the request
    value_ghosts: list[tuple[str, ...]] = field(default_factory=list)  # F6 old-value tokens
    code_keys: set[str] = field(default_factory=set)  # every spelling of a removed code (forms.py)
    #: a value the user said again word for word: its runs of tokens, blanked as one span
    phrases: set[tuple[str, ...]] = field(default_factory=set)
    ghost_heads: dict[tuple[str, ...], str | None] = field(default_factory=dict)  # phrase ghost -> head noun
    #: compound units that lose one part and keep the rest: unit id -> (removed part, kept text)
    trims: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: ghost tokens -> the named owners in the text they came from ("Jonas's number")
    ghost_owners: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)
    #: ghost tokens -> when the user said the deleted statement (what they said later is newer)
    ghost_said: dict[tuple[str, ...], datetime] = field(default_factory=dict)
    conclusion_tokens: set[str] = field(default_factory=set)  # F4: two of them suppress outright
    conclusion_heads: set[str] = field(default_factory=set)  # F4: with synonyms, a ranked tombstone
    redact_whole_turns: list[str] = field(default_factory=list)  # F5: assistant turns in window
    statements: list[str] = field(default_factory=list)  # clauses of the request to keep
    rewrites: list[str] = field(default_factory=list)  # F6: old statements with the new value
    method: str = "rules"


def _df(store: MemoryStore, token: str) -> int:
    return store.df(token)


#: a word in more live units than this is vocabulary, not a value (a value is stated a few times)
MAX_VALUE_DF = 3
#: a written name's word in more live units than this is the user's vocabulary ("Mum"), not
#: the value of one statement
MAX_NAME_DF = 8
#: at most this many units are one named fact (its statement and restatements)
MAX_PHRASE_MATCHES = 3
#: where a topic's description joins the things it names ("my ex and the breakup")
_TOPIC_PARTS = re.compile(r",|;|&|\band\b|\bplus\b", re.I)


def value_tokens_of(store: MemoryStore, unit: Unit, exclude: set[str] | None = None) -> set[str]:
    """The unit's least frequent non-generic tokens: what distinguishes it from neighbours."""
    # the words that are not the attribute's ("dentist" in "April 2 is when I'm next at the
    # dentist's" is what the request said; the value is what else is rare there)
    candidates = [t for t in unit.tokens if t not in GENERIC and (not exclude or t not in exclude)]
    if not candidates:
        return set()
    low = min(_df(store, t) for t in candidates)
    if low > MAX_VALUE_DF:
        return set()
    return {t for t in candidates if _df(store, t) <= max(low, 1)}


def written_name_values(store: MemoryStore, unit: Unit, exclude: set[str]) -> set[str]:
    """The words of the names ``unit`` writes, each run's rarest: a statement's value is often
    a name that is not its rarest word ("I'm a regular at The Gilded Turnip, and the staff
    know my order" says "staff" once and the restaurant twice). Of "Casa Azul Hotel" only
    "azul": "casa" is the other hotel's name too."""
    out: set[str] = set()
    for run in _written_name_runs(unit.text):
        words = [t for t in run if t not in GENERIC and t not in exclude and t not in _NEVER_A_NAME]
        if not words:
            continue
        low = min(_df(store, t) for t in words)
        if low <= MAX_NAME_DF:
            out |= {t for t in words if _df(store, t) <= max(low, 1)}
    return out


#: a currency or unit code beside a number ("NOK 12,000", "12 GBP")
_CODE_BY_NUMBER = re.compile(r"^[A-Z]{2,4}$")


def _written_name_runs(text: str) -> list[list[str]]:
    """The tokens of each name ``text`` writes (a capitalised run not opening a sentence),
    without a currency code written beside a number ("NOK 12,000") or a word that is
    capitalised by convention (``_NEVER_A_NAME``)."""
    out: list[list[str]] = []
    for m in _VALUE_RUN.finditer(text):
        run = m.group(0)
        if run[:1].isdigit():
            continue
        words = run.split()
        beside = text[m.end():m.end() + 2].strip()[:1].isdigit() or text[max(0, m.start() - 2):m.start()].strip()[-1:].isdigit()
        if beside and len(words) == 1 and _CODE_BY_NUMBER.match(words[0]):
            continue
        tokens = [t for said in map(tokenize, words) if said and said[0] not in _NEVER_A_NAME for t in said]
        if tokens:
            out.append(tokens)
    return out


def _phrase_tokens(phrase: str) -> list[str]:
    return [t for t in dict.fromkeys(tokenize(phrase)) if t not in META]


#: how much the last word of a multi-word target phrase counts beside the words before it:
#: in "the office address" the head noun names the kind of fact (shared by the home address,
#: the near miss), the modifiers name which one
HEAD_WEIGHT = 0.5
#: what a generic modifier counts ("favourite", "usual", "new"): it says which of the user's
#: things, not which kind, so "my favourite plant" is the unit about a plant, not "my
#: favourite teacher" (a rare word in memory would otherwise outweigh the head noun)
GENERIC_MODIFIER_WEIGHT = 0.25


_OF_HEAD = re.compile(r"\b([\w'’-]+)\s+(?:of|for)\s+", re.I)


#: where a noun phrase's modifiers after the head begin: a comma, a relative clause, a new
#: subject ("Jess's new tablets, the ones the GP put her on"; "the particulars I copied …")
_POST_HEAD = re.compile(r",|\s(?:that|which|who|whom|whose|where|when|from|i|you|we|he|she|they)\s", re.I)


def head_of(phrase: str) -> str | None:
    """The head noun's token: the last word before any clause that modifies it, or the word
    before "of" ("the number of my daughters" is about a number; "the name of my GP" about a
    name; "Jess's new tablets, the ones the GP put her on for her mood" about tablets)."""
    padded = f" {phrase.strip()} "
    cut = next((m.start() for m in _POST_HEAD.finditer(padded) if _phrase_tokens(padded[: m.start()])), None)
    core = padded[:cut] if cut is not None else phrase
    m = _OF_HEAD.search(core)
    if m and _phrase_tokens(m.group(1)):
        return _phrase_tokens(m.group(1))[-1]
    tokens = _phrase_tokens(core)
    return tokens[-1] if tokens else None


def phrase_weights(store: MemoryStore, tokens: list[str], head: str | None = None) -> dict[str, float]:
    """Each target word's weight: its rarity in memory (a word in many units identifies
    little), the head noun (``head``, by default the last word) discounted."""
    n = max(len(store.units), 1)
    head = head if head is not None else (tokens[-1] if tokens else None)
    weights: dict[str, float] = {}
    for token in tokens:
        df = _df(store, token)
        # a word no memory holds ("last week, the balance on my card") frames the request;
        # it can tell no unit from another, so it does not count against them
        idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5)) if df else 0.0
        is_head = len(tokens) >= 2 and token == head
        weights[token] = idf * (HEAD_WEIGHT if is_head else GENERIC_MODIFIER_WEIGHT if token in GENERIC else 1.0)
    if not any(weights.values()):
        return dict.fromkeys(weights, 1.0)
    return weights


#: where a compound sentence joins two facts: "…, but …", "… and her birthday is …",
#: "For the HR form: my emergency contact is …", "deadline 30 June, budget €80,000"
_PART_BREAK = re.compile(
    r"(?<=[?!])\s+|\s*(?:;|(?<!\d):(?!\d)|\s[—–-]\s)\s*|,?\s+(?:but|whereas|while)\s+(?!(?:with|without|for|in|on|at|not|"
    r"only|just|then|also)\b)|\s+and\s+(?=[A-Z][a-z]+(?:'s|’s)\s+(?:is|are|was|number|email|address|phone)\b)|,\s+(?:and|so)\s+|\s+and\s+(?=(?:her|his|my|their|our|"
    r"she|he|i|it|they|we)\b)|,\s+(?=(?:our|my|his|her|their|the|a|an)\s+[\w-]+\s+(?:of|at|for|in)\b|is\s|are\s|was\s|"
    r"[a-z]+\s+(?:\d|€|£|\$)|two\s|three\s|four\s|five\s|\d|[$€£])"
    # "the launch has been moved to 18 March | and the budget is now capped at €240,000"
    r"|\s+and\s+(?=the\s+(?:[\w-]+\s+){1,2}(?:is|are|was|were|has|have)\s)"
    # "He is reading Marine Biology at Aberdeen | and lives in Flat 3, 41 Crown Street": a
    # second thing the same person does
    r"|\s+and\s+(?=(?:lives|works|stays|studies|banks|teaches|lodges|rents)\s+(?:in|at|on|with|for|near)\b)",
    re.I,
)
#: a short label before a colon that opens a unit: "Hall: …", "Wifi password: …" (not a
#: phrase that sets the scene: "For the dinner: I don't eat lamb, but …")
_LABEL = re.compile(r"^\s*(?P<label>(?!(?:for|to|in|on|at|about|with|from|of|as|re)\b)"
                    r"(?:(?!(?:for|to|in|on|at|about|with|from|of)\b)[\w'’&-]+\s+){0,2}[\w'’&-]+)\s*:(?!\d)\s*\S", re.I)
#: a comma before another statement of a list: "The boiler is …, the water stopcock is under
#: the sink, the alarm code is 8204, and …" (a break only where there are two or more: one
#: such comma, "priya just moved, her new place is …", goes on about the same thing)
_STATEMENT_COMMA = re.compile(r",\s+(?=(?:our|my|his|her|their|the)\s+(?:[\w-]+\s+){1,3}(?:is|are|was|were)\s)", re.I)
#: a part must carry this many words of its own (not the request's) to be kept on its own
MIN_KEPT_WORDS = 2
#: … but "it is paid on the last working day" is a statement of its own about the subject
_PASSIVE_CLAUSE = re.compile(r"^\s*(?:it|that|which)(?:'s|’s|\s+is|\s+was)\s+(?:\w+ed|paid|due|held|sent|kept|made|done|set|"
                             r"spent|taken|given|run|built|sold|bought|paid)\b", re.I)
_PREDICATE = re.compile(r"^\s*(?:is|are|was|were|has|have|had|will\s+be|'s|(?:that|it|which)(?:'s|’s|\s+is|\s+was)|namely)\b", re.I)
_VALUE_LIKE = re.compile(r"\d|(?<!^)(?<![.!?]\s)\b[A-Z][\w'’-]+|[\w.+-]+@[\w-]+\.[\w.]+")


def _holds_value(part: str, request_words: set[str]) -> bool:
    """A part states a value of its own: a number, a name, or words beyond the request's
    ("I don't eat pork" is a value when the request says "pork"; "My dentist" is not)."""
    if _VALUE_LIKE.search(part.strip()):
        return True
    own = set(tokenize(part)) - GENERIC
    return bool(own) and own <= request_words and len(own) >= 2


#: head nouns of a target that is written as a code or number
_IDENTIFIER_HEADS = frozenset(tokenize("number numbers code codes id ids pin reference ref"))


def _trim(store: MemoryStore, unit: Unit, targets: list[str]) -> tuple[str, str] | None:
    """A compound unit whose target is one part of it: (that part, the rest), or ``None``
    when the target is the whole unit. The part is the one holding the request's head noun
    ("the Porto hotel" is the part about the hotel, not the train to Porto), else the one
    the request's words cover best."""
    parts = [p for p in _PART_BREAK.split(unit.text) if p and p.strip(" ,.;:")]
    label = _LABEL.match(unit.text)
    if label and len(parts) >= 2 and parts[0].strip() == label.group("label").strip():
        # "Hall: Little Greene Aquamarine Blue.": a label names the value after its colon,
        # it is no part of its own
        parts = [f"{parts[0]}: {parts[1]}", *parts[2:]]
    if len(_STATEMENT_COMMA.findall(unit.text)) >= 2:
        parts = [q for p in parts for q in _STATEMENT_COMMA.split(p) if q.strip(" ,.;:")]
    if len(parts) < 2:
        return _the_value_alone(unit, targets)
    tokens = [t for phrase in targets for t in _phrase_tokens(phrase)]
    # each target takes its own part: "the tax number and the number in my passport" are two
    # parts of "… my tax identification number, which is 47 036 892 815, and for the passport:
    # the number is C7HJ4R2K9"
    drop: list[int] = []
    for phrase in targets:
        # (whose it is says which unit, not which part: "Isla's address" is the part with the
        # address, not the one that names Isla)
        whose = {t for m in _POSSESSOR_WORD.finditer(phrase) for t in tokenize(m.group(1))}
        meant = [t for t in _phrase_tokens(phrase) if t not in whose] or _phrase_tokens(phrase)
        for i in _parts_meant(store, parts, meant, {h for h in [head_of(phrase)] if h}):
            if i not in drop:
                drop.append(i)
    if not drop:
        return None
    # a part that ends in a colon introduces its value: "… and for the licence: | the number is K4TR88Q2"
    ends, at = [], 0
    for part in parts:
        start = unit.text.find(part, at)
        at = start + len(part) if start >= 0 else at
        ends.append(at)
    for i in sorted(drop):
        if i + 1 < len(parts) and i + 1 not in drop and unit.text[ends[i]:].lstrip().startswith(":"):
            drop.append(i + 1)
    # a predicate goes with its subject: "My dentist, the one I see, | is Tandarts De Wit"
    for i in range(len(parts)):
        if i not in drop and _PREDICATE.match(parts[i]) and not _PASSIVE_CLAUSE.match(parts[i]) and any(j < i for j in drop):
            drop.append(i)
    # a bare number after a part that goes is that part's value: "… the Steuer-ID arrived by
    # post last week, | 57 392 048 161."
    # (and so is a verbless phrase with a number: "… at my cousin's bakery, | 7 till 12, bit of
    # extra cash." says when, of the part that goes)
    for i in range(1, len(parts)):
        tail = parts[i].strip(" ,;:.")
        if i not in drop and i - 1 in drop and (_BARE_VALUE.fullmatch(tail) or (
                re.search(r"\d", tail) and len(tail.split()) <= 8 and not _CLAUSE_WORD.search(tail))
                # "… lives in Flat 3, | 41 Crown Street, which is a short walk from the harbour": the
                # address goes on
                or re.match(r"\d+[a-z]?\s+(?-i:[A-Z])[\w'’-]+\s+(?:street|st|road|rd|avenue|ave|lane|drive|close|way|place|"
                            r"crescent|terrace|court|gardens|grove|park|square|row|hill|mews)\b", tail, re.I)):
            drop.append(i)
    kept = [p for i, p in enumerate(parts) if i not in drop]
    kept_words = set(tokenize(" ".join(kept))) - set(tokens) - GENERIC
    removed = " ".join(parts[i] for i in sorted(drop))
    # a part also holds the value when it holds every content word the request names, rare in
    # memory and written in lower case ("hes on apoquel for his itchy skin lol" for "the
    # apoquel thing"; not "aura" alone of "what I take when an aura starts")
    content = set(tokens) - _KIND_WORDS
    named_rare = {t for t in set(tokenize(removed)) & content - GENERIC if 0 < _df(store, t) <= MAX_VALUE_DF}
    named_rare = named_rare if named_rare == content else set()
    if len(kept_words) < MIN_KEPT_WORDS or not (_holds_value(removed, set(tokens)) or named_rare):
        return None  # the rest says nothing of its own, or the value is not in the part: all goes
    kept_text = _ungapped(", ".join(p.strip(" ,;:") for p in kept).strip(), removed)
    return removed.strip(" ,;:"), kept_text if kept_text.endswith(("?", "!")) else kept_text.rstrip(".") + "."


_AMOUNT_WORDS = frozenset(tokenize("much amount amounts cost costs price figure sum total fee fees"))
#: the words that ask for a date
_DATE_ASKED = frozenset(tokenize("date dates when day deadline birthday"))


def _the_value_alone(unit: Unit, targets: list[str]) -> tuple[str, str] | None:
    """A one-clause unit that writes the one sum or date the request asks for beside another
    fact: (the value, the rest). "My maternal uncle, khalo Samir, who lives in Alexandria, has
    kindly lent me EGP 350,000" loses the amount for "the amount he gave me"; where the uncle
    lives stays. ``None`` when the rest names nothing of its own ("I promised to return it by
    30 June 2027": the date is what the sentence is for, so all of it goes)."""
    asked = {t for phrase in targets for t in _phrase_tokens(phrase)}
    if not all(set(_phrase_tokens(phrase)) & (_AMOUNT_WORDS | _DATE_ASKED) for phrase in targets):
        return None  # ("the amount and the lender": the other fact may be the lender)
    if asked & _AMOUNT_WORDS:
        spans = [m.span() for m in MONEY_SPAN.finditer(unit.text)]
    elif asked & _DATE_ASKED:
        spans = [(at, at + len(said)) for at, said in date_spans(unit.text)]
    else:
        return None
    if len(spans) != 1:
        return None
    start, end = spans[0]
    rest = re.sub(r"\s{2,}", " ", f"{unit.text[:start]}{unit.text[end:]}").replace(" ,", ",").replace(" .", ".").strip()
    # (another fact: a name the request does not say, "khalo Samir", "Alexandria")
    names = [run for run in _written_name_runs(rest) if not set(run) & asked and not set(run) <= _CALENDAR_TOKENS]
    if not names:
        return None
    return unit.text[start:end], rest


def _parts_meant(store: MemoryStore, parts: list[str], tokens: list[str], heads: set[str]) -> list[int]:
    """The parts of a compound unit one target phrase covers best (none when it covers none)."""
    weights = phrase_weights(store, list(dict.fromkeys(tokens)))
    # "the number from my passport": the part that writes a number out ("My passport is
    # GK482913") is it, not the part that only names the kind ("… passport number and Steuer-ID?")
    wants_code = bool(heads & _IDENTIFIER_HEADS)
    # "how much the pension is": the part that writes the sum ("…, $3,412 after taxes")
    wants_amount = bool(set(tokens) & _AMOUNT_WORDS)
    coded = sum(1 for part in parts if code_keys(part)) if wants_code else 0
    groups = attribute_synonyms()
    # (a word memory never says weighs as much as the group word it does say, as in matching)
    said_instead = {t: sorted(groups[t] - {t}) for t in weights if not weights[t] and t in groups}
    said_instead.update({t: sorted(_drug_names(store)) for t in weights if not weights[t] and t in _MEDICATION_WORDS})
    if said_instead:
        alt_weights = phrase_weights(store, list(dict.fromkeys([*weights, *(a for alts in said_instead.values() for a in alts)])))
        for t, alts in said_instead.items():
            weights[t] = max(alt_weights.get(a, 0.0) for a in alts)
    scored = []
    for i, part in enumerate(parts):
        own = set(tokenize(part))
        if _NEGATION.search(part):
            own |= {"un" + t for t in own}  # "not available" says "unavailable"
        # (a word of the request's group counts for it: "lives in Flat 3" says the address)
        cover = sum(w for t, w in weights.items() if t in own or not groups.get(t, frozenset()).isdisjoint(own)
                    or (t in _MEDICATION_WORDS and any(DRUG_SUFFIX.match(o) for o in own)))
        # (the one part that writes a code is the number meant even when its words are others:
        # "his cell is 614-555-0187" for "Darnell's phone number")
        writes_code = (wants_code and bool(code_keys(part)) and (cover > 0 or coded == 1)) or (
            wants_amount and MONEY_SPAN.search(part) is not None)
        # "Please make a note regarding Project Kestrel: … the budget is now capped at
        # €240,000": the part that states a value goes, not the one that only names the subject
        states = cover > 0 and any(set(tokenize(m.group(0))).isdisjoint(tokens) for m in _VALUE_RUN.finditer(part))
        # (the head said by its group or, for a medicine, by a drug's name: "tablets" of "she's
        # started on sertraline")
        says_head = bool(own & heads) or any(not groups.get(h, frozenset()).isdisjoint(own) or (
            h in _MEDICATION_WORDS and any(DRUG_SUFFIX.match(o) for o in own)) for h in heads)
        scored.append((writes_code, says_head, states, cover, i))
    best = max(scored)
    if best[3] <= 0 and not (best[0] and any(c > 0 for *_, c, _ in scored)):
        return []
    return [i for w, h, v, c, i in scored if (w, h, v, c) == best[:4]]


#: "Zsofi's email is …": whose, and the noun the next clause leaves out
_POSSESSED_NOUN = re.compile(r"\b[\w-]+['’]s\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)\s+(?:is|are|was|were)\b")
#: "… and Graham's is …": a possessive straight before its verb, the noun left out
_GAPPED = re.compile(r"^([\w-]+['’]s)\s+(?=(?:is|are|was|were)\b)")


def _ungapped(kept: str, removed: str) -> str:
    """The kept part with the noun it shared with the removed one put back: "Zsofi's email is
    … and Graham's is g.pike@…" keeps "Graham's email is g.pike@…", which a question about
    Graham's email still finds."""
    gap = _GAPPED.match(kept)
    noun = _POSSESSED_NOUN.search(removed)
    if gap is not None and noun is not None:
        return f"{gap.group(1)} {noun.group(1)} {kept[gap.end():]}"
    # "For years my dentist was Dr Thorsby at Smile Studio, | but … I switched to Dr Navarro":
    # the change the kept part tells is of the removed part's subject, which it no longer says
    subject = _MY_SUBJECT.search(removed)
    if subject is not None and CHANGE_CUE.search(kept) and set(tokenize(subject.group(1))).isdisjoint(tokenize(kept)):
        return f"My {subject.group(1)}: {kept}"
    return kept


#: "my dentist was …", "my energy supplier has been …": the user's thing a sentence is about
#: (in lower case: "my Toyota Yaris was …" names the value, which must not come back)
_MY_SUBJECT = re.compile(r"\b(?i:my)\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)\s+(?:is|was|are|were|has\s+been|had\s+been)\b")


#: nouns that name a kind of fact, never its value ("bin that number")
_KIND_WORDS = frozenset(tokenize("""number numbers code codes address addresses name names email phone mobile
landline date dates details detail info password pin id reference"""))
#: a part that is only a number or code, no word: "57 392 048 161", "+44 7700 900123"
_BARE_VALUE = re.compile(r"[^A-Za-z]*\d[^A-Za-z]*")
#: a word that makes a part a clause of its own: a subject or a finite verb
_CLAUSE_WORD = re.compile(r"\b(?:i|i'm|i’m|i've|my|we|our|he|she|they|his|her|their|it's|it’s|is|are|was|were|has|have|"
                          r"had|do|does|did|will|can|goes|go|went|gets|got|pays?|paid|costs?|starts?|ends?)\b", re.I)


#: a target that is only a value: capitalised words and codes ("Dr Thorsby", "Smile Studio")
_NAMED_VALUE_PHRASE = re.compile(r"(?![Mm]y\b|[Oo]ur\b|[Hh]is\b|[Hh]er\b|[Tt]heir\b|[Yy]our\b|[Tt]he\s+[a-z])(?:[Tt]he\s+)?"
                                 r"(?:(?:[A-Z][\w'’.&-]*|[\w-]*\d[\w-]*)(?:\s+|$))+")
#: modifiers that say which of the user's things, never a value: "my new tablets"
_FRAME_MODIFIERS = frozenset(tokenize("new old current previous former first last latest usual other"))


def _possessors(phrase: str) -> set[str]:
    """The tokens of whose things a phrase names ("Jess's new tablets" -> jess)."""
    return {t for m in _POSSESSOR_WORD.finditer(phrase) for t in tokenize(m.group(1))}


#: months as tokens: part of a date (which goes by its date key), never a value on their own
#: (a weekday is: "not available on Mondays")
_CALENDAR_TOKENS = frozenset(tokenize("""january february march april may june july august september october november
december"""))
#: the ends of e-mail domains, shared by many addresses: never the value
_MAIL_SUFFIXES = frozenset(tokenize("com org net io ie uk co ac de fr es it nl edu gov info biz me"))
#: titles before a name, shared by every name with one
_TITLES = frozenset(tokenize("dr mr mrs ms miss mx prof sir dame"))


def _attribute_words(phrase: str) -> set[str]:
    """A target phrase's lower-case words: capitalised words and codes name values (an
    acronym does not: "my dad's GP details", "my IBAN" name the kind of fact)."""
    return {t for word in phrase.split()
            if _ACRONYM.fullmatch(word.strip(".,;:!?'’s")) or not (word[:1].isupper() or any(ch.isdigit() for ch in word))
            for t in _phrase_tokens(word)}


#: an acronym naming a kind of fact: "GP", "PIN", "IBAN", "NHS" (two to five capitals)
_ACRONYM = re.compile(r"[A-Z]{2,5}")


_EXCEPT = re.compile(r"^(?:but\s+)?not\s+(?P<aside>[^,.;!?—–]+)"  # "NOT the triptan, keep that one" (an item's bracket)
                     r"|\b(?:except(?:\s+for)?|apart\s+from|other\s+than|but\s+not|besides|save\s+for|"
                     r"(?:but|though)\s+(?:please\s+)?keep(?:\s+only)?|the\s+(?:one\s+|only\s+)?exception\s+(?:is|being))"
                     r"\s+(?P<x>[^.;!?—–]+)"
                     # "forget EDF and Bulb, just keep Octopus"
                     r"|,\s*(?:(?:and|just|only|please)\s+)+keep(?:\s+(?:only|just))?\s+(?P<kept>[^.;!?—–]+)"
                     # "…, the chair one's still live"
                     r"|,\s+(?:but\s+)?(?P<still>(?:the|my)\s+[^,.;!?]+?)(?:'s|’s|\s+is|\s+are)\s+(?:still\s+\w+|fine|staying|current)\b",
                     re.I)
_KEEP_STATEMENT = re.compile(r"^\W*(?:exceptions?\s*:\s*)?(?:but\s+|just\s+|please\s+|(?:you|u)\s+(?:can|could|may|should|must)\s+(?:still\s+|also\s+)?)*"
                             r"keep\s+(?:only\s+|just\s+)?(?P<x>[^,.;!?]+)", re.I)


def _one_named(phrase: str, targets: list[str]) -> str:
    """"The new one" beside a request for "the old landlord name" is the new landlord."""
    m = re.match(r"\s*(?:the\s+|my\s+)?(new|current|latest|present)\s+ones?\b", phrase, re.I)
    heads = [h for t in targets if re.search(r"\b(?:old|previous|former|earlier)\b", t, re.I)
             for h in [_attribute_words(re.sub(r"\b(?:old|previous|former|earlier|name|number|details?)\b", " ", t, flags=re.I))]
             if h]
    if not m or not heads:
        return phrase
    return f"the {m.group(1).lower()} {' '.join(sorted(heads[0]))}"


def exceptions_of(intent: ForgetIntent) -> list[str]:
    """What a request keeps out of what it removes ("except the onsite date", "Keep only the
    payment date, because …")."""
    out = [(m.group("x") or m.group("kept") or m.group("still") or m.group("aside")).strip()
           for t in [*intent.targets, *intent.directives, *intent.statements] for m in _EXCEPT.finditer(t)]
    for statement in intent.statements:
        for pattern in (_KEEP_STATEMENT, _EXCEPTION_IS, _YOU_CAN_KEEP, _STILL_NEED, _JUST_THIS, _ONE_THING_KEPT):
            m = pattern.match(statement)
            if m and not re.match(r"^(?:it|that|this|them|those|these|everything|anything|all)\b",
                                  m.group("x").strip(), re.I):
                out.append(m.group("x").strip())
    # ("except the policy number, that's literally the only bit I'll need": a comment on it)
    out = [re.split(r",\s*(?:keep|i\s+still|i\s+need|that's|that’s|that\s+is|it's|it’s|which)\b", x, flags=re.I)[0]
           for x in out]
    # "you can keep the allergy tho bc that's actually useful": why is no part of what stays
    out = [re.split(r"\s+(?:tho|though|bc|because|cos|cause|since|as\s+i|so\s+that)\b", x, flags=re.I)[0] for x in out]
    # "Keep Gran's and the rest of the list": the rest is what the request did not name
    out = [re.sub(r"\s*(?:,\s*)?(?:and\s+)?(?:all\s+)?(?:the\s+rest(?:\s+of\s+[^,.;!?]+)?|everything\s+else|the\s+others?)\s*$",
                  "", x, flags=re.I) for x in out]
    # "The date, the fridge story, the follow-up, all that you can keep": each item is kept
    out = [item.strip() for x in out for item in (re.split(r",\s*(?:and\s+)?|\s+and\s+", x)
                                                  if x.count(",") >= 2 and _ALL_ITEMS.match(x) else [x])
           if not re.fullmatch(r"(?:and\s+)?(?:all|all\s+of)\s+(?:that|this|those|it)|everything(?:\s+else)?", item.strip(), re.I)]
    return [x for x in out if _phrase_tokens(x)]


#: a list whose items each name a thing: "The date, the fridge story, the follow-up, all that"
_ALL_ITEMS = re.compile(r"^(?:(?:the|my|our|his|her|their)\s+[^,]+|(?:and\s+)?all\s+(?:of\s+)?(?:that|this|those))"
                        r"(?:,\s*(?:and\s+)?(?:(?:the|my|our|his|her|their)\s+[^,]+|all\s+(?:of\s+)?(?:that|this|those)))+\s*$", re.I)
_STILL_NEED = re.compile(r"^\W*(?:the\s+)?(?:only|one)\s+thing\b[^.;!?]*?\b(?:i\s+(?:still\s+)?(?:need|want)|worth\s+keeping)"
                         r"\s+is\s+(?P<x>[^,.;!?]+)", re.I)
_EXCEPTION_IS = re.compile(r"^\W*the\s+(?:one|only)\s+exception\s+(?:is|being)\s+(?P<x>[^.;!?]+)", re.I)
#: "Just the cholesterol one on my list from now on.": what stays, said as all that is left
_JUST_THIS = re.compile(r"^\W*(?:just|only)\s+(?P<x>(?:the|my)\s+[^,.;!?]+?)(?:\s+(?:from\s+now\s+on|now|going\s+"
                        r"forward|please|then|thanks))?\s*[.!]?$", re.I)
_YOU_CAN_KEEP = re.compile(r"^\W*(?:(?:one|the\s+only|only\s+one)\s+exception\s*:\s*)?(?:(?:only|just)\s+)?(?P<x>(?:the|my|(?-i:[A-Z][\w-]+)['’]s)\s+[^.;!?]+?)\s+(?:(?:of\s+course\s+)?(?:you\s+can|can\s+you|"
                           r"please|you\s+should|you\s+may|you\s+must|you)\s+keep\b"
                           # "(the bit where Dev and i sorted the condo fees can stay, …)"
                           r"|(?:can|may|should|must|gets\s+to)\s+(?:stay|remain)\b)", re.I)
#: "Only one thing please keep: that I visit her on Sundays", "only thing keep is the friday pickup"
_ONE_THING_KEPT = re.compile(r"^\W*(?:the\s+)?(?:only\s+)?(?:one\s+)?thing\s+(?:(?:please|to|you\s+can|i\s+want\s+you\s+to)\s+)?"
                             r"keep(?:\s+is\b|\s*:)\s*(?:that\s+(?=(?:i|my|we|our)\b))?(?P<x>[^.;!?]+)", re.I)


#: words of a time reference that name when, not what happened
_WHEN_WORDS = frozenset(tokenize(
    """monday tuesday wednesday thursday friday saturday sunday morning afternoon evening night
    tonight today yesterday week weekend month day time last previous earlier ago after before
    during conversation chat session talk told said wrote mentioned shared messaged thing stuff
    everything anything all that this those"""
))
#: how much of an event's description a session must hold to be the one meant
EVENT_COVERAGE = 0.5


def _event_session(store: MemoryStore, phrase: str, current: str) -> str | None:
    """The earlier session a window described by an event took place in: the one whose user
    turns hold most of the event's words ("the Thursday shift", "the toast")."""
    words = _event_words(phrase)
    m = _EVENT_AFTER_TIME.search(phrase)
    if m and len(_event_words(m.group("event"))) >= 2:
        # "what I wrote to you the night I came back from the council meeting": the event is
        # what follows the time, not how the user feels about what they wrote
        words = _event_words(m.group("event"))
    if len(words) < 2:
        return None
    weights = phrase_weights(store, words)
    total = sum(weights.values()) or 1.0
    held: dict[str, set[str]] = {}
    for unit in store.units.values():
        if unit.session_id != current:
            held.setdefault(unit.session_id, set()).update(unit.tokens & set(words))
    most = max((len(ws) for ws in held.values()), default=0)
    # (of the sessions holding most of its words, one that says two of them side by side, as
    # the event's name does — "the council meeting" — beats one that says them apart)
    scored = sorted(((len(ws), _pairs_said(store, sid, words) if len(ws) == most else 0,
                      sum(weights[t] for t in ws) / total, sid) for sid, ws in held.items()), reverse=True)
    if not scored:
        return None
    best, runner = scored[0], scored[1] if len(scored) > 1 else (0, 0, 0.0, "")
    # the most of the event's words, and at least two of them or half their weight
    if best[:2] > runner[:2] and (best[0] >= 2 or best[2] >= EVENT_COVERAGE):
        return best[3]
    return None


#: "the night I came back from the council meeting", "the day of the move": a time, then the event
_EVENT_AFTER_TIME = re.compile(r"\b(?:the|that)\s+(?:night|day|evening|morning|afternoon|weekend|(?:mon|tues|wednes|thurs|fri|"
                               r"satur|sun)day)\s+(?:(?:of|after|before|when|that)\s+)?(?P<event>\w.*)$", re.I)
#: words that say someone came or went, which every event has: the event is where they went
_COMING_AND_GOING = frozenset(tokenize("came come coming got get getting back home went go gone returned return"))


def _event_words(phrase: str) -> list[str]:
    """The words of an event's description that can tell one conversation from another."""
    return [t for t in dict.fromkeys(tokenize(phrase))
            if t not in _WHEN_WORDS and t not in GENERIC and t not in META and t not in _COMING_AND_GOING]


def _pairs_said(store: MemoryStore, session_id: str, words: list[str]) -> int:
    """How many pairs of neighbouring event ``words`` a session's user turns say side by side."""
    pairs = set(zip(words, words[1:]))
    said: set[tuple[str, str]] = set()
    for turn in store.turns.values():
        if turn.session_id == session_id and turn.role == "user":
            tokens = tokenize(turn.text)
            said |= pairs & set(zip(tokens, tokens[1:]))
    return len(said)


def units_spelling(store: MemoryStore, keys: frozenset[str] | set[str], exclude_turn: str | None = None) -> list[Unit]:
    """Units that write one of the code ``keys`` in any spelling ("SV-5520-781" for "SV5520781")."""
    if not keys:
        return []
    return [u for u in store.units.values() if u.turn_id != exclude_turn and code_spans(u.text, keys)]




_NEGATION = re.compile(r"\b(?:not|never|no)\b|n['’]t\b", re.I)


#: how many weeks back a weekday with no conversation on it is looked for
MAX_WEEKS_BACK = 8
_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.I)


#: a part of the day a request names, and the hours a conversation must start in to be in it
_PARTS_OF_DAY = {"night": (21, 5), "evening": (17, 24), "morning": (5, 12), "afternoon": (12, 17)}
_PART_OF_DAY = re.compile(r"\b(night|evening|morning|afternoon)\b", re.I)


def _at_part_of_day(store: MemoryStore, sessions: set[str], phrase: str) -> set[str]:
    """The ``sessions`` that start in the part of the day ``phrase`` names (empty: none named,
    or none does)."""
    m = _PART_OF_DAY.search(phrase)
    if m is None:
        return set()
    start, end = _PARTS_OF_DAY[m.group(1).lower()]
    out: set[str] = set()
    for sid in sessions:
        first = min((t.timestamp for t in store.turns.values() if t.session_id == sid), default=None)
        if first is not None and ((start <= first.hour < end) if start < end else (first.hour >= start or first.hour < end)):
            out.add(sid)
    return out


#: how far past midnight a day's conversation still belongs to that day
SMALL_HOURS = timedelta(hours=5)
#: an hour in the small hours: "at like 3am", "at 2 a.m.", "1am"
_SMALL_HOUR = re.compile(r"\b(?:at\s+(?:like\s+|about\s+|around\s+)?)?[1-4]\s*(?:am|a\.m\.)(?!\w)", re.I)


def _with_its_small_hours(ref: TimeReference) -> TimeReference:
    """A day's window reaching into the small hours after it: "last saturday … whatever i typed
    at like 1am after that party" was typed at 01:24 on the Sunday."""
    if (ref.start is not None and ref.end is not None and (ref.start.hour, ref.start.minute) == (0, 0)
            and timedelta(hours=20) <= ref.end - ref.start <= timedelta(days=1)):
        return TimeReference(ref.start, ref.end + SMALL_HOURS, ref.sessions_back, ref.phrase)
    return ref


def _sessions_in(store: MemoryStore, ref: TimeReference, request_turn_id: str | None,
                 session_id: str | None) -> set[str]:
    """Sessions with a turn inside ``ref``'s window (not the request's own)."""
    hit = {t.session_id for t in store.turns.values() if ref.contains(t.timestamp) and t.id != request_turn_id}
    hit.discard(session_id)
    return hit


#: heads that name everything said about their modifier ("the Halden details")
_DETAILS_PHRASE = re.compile(r"\w\s+(?:details?|info|information|particulars|stuff|data)\s*$", re.I)
#: a possessor in a target: "Rafael's", "the lamp's", "Greg's girlfriend's"
_POSSESSOR_WORD = re.compile(r"\b(?!(?:it|that|what|there|here|who|he|she|let|where|how|one|today|tomorrow|"
                             r"yesterday|year|week|month|day|night|everyone|everybody)(?:'s|’s))([A-Za-z]{3,})(?:'s|’s)\b",
                             re.I)


#: words for a medicine in general, which memory says by the drug's own name
_MEDICATION_WORDS = frozenset(tokenize("medication medications medicine medicines meds tablet tablets pill pills drug drugs"))


def _drug_names(store: MemoryStore) -> frozenset[str]:
    """The words memory says that are drug names by their ending ("bisoprolol", "sertraline")."""
    return frozenset(t for t in store.doc_freq if DRUG_SUFFIX.match(t))


def match_phrase(store: MemoryStore, phrase: str, exclude_turn: str | None = None, every: bool = False,
                 valued: bool = False) -> list[Unit]:
    """Units that state what ``phrase`` names: best BM25 over the whole index, with coverage.
    When no unit holds the phrase's own words, each word may be said by another of its group
    ("who looks after my teeth" -> "dentist"; ``data/attribute_synonyms.txt``). ``every``: a
    topic ("anything about my ex"), so every unit that covers it best, not the best few.
    ``valued``: a fact to remove, whose statement writes its value (see ``_match_tokens``)."""
    tokens = _phrase_tokens(phrase)
    ordinal = _ORDINAL.match(phrase.strip())
    if ordinal:
        # ("the first dentist" is a dentist said first, not a sentence that says "first")
        tokens = [t for t in tokens if t not in tokenize(ordinal.group(1))] or tokens
    if not tokens:
        return []
    groups = attribute_synonyms()
    alternatives = {t: groups[t] - {t} for t in tokens if t in groups and groups[t] - {t}}
    for t in tokens:
        if t in _MEDICATION_WORDS and not _df(store, t) and (drugs := _drug_names(store)):
            # "what medication he's on": the drug memory names ("put on bisoprolol")
            alternatives[t] = alternatives.get(t, frozenset()) | drugs
    # a word memory never says ("teeth") is looked for as its group at once: otherwise the
    # phrase's other words ("looks after") alone would pick a unit
    unsaid = {t: alts for t, alts in alternatives.items() if not _df(store, t)}
    # … and so is a word typed one letter off ("where my placce is"): the word memory says
    for token in tokens:
        if token not in alternatives and not _df(store, token):
            meant = _typo_of(store, token)
            if meant:
                alternatives[token] = unsaid[token] = meant
    found = _match_tokens(store, phrase, tokens, exclude_turn, unsaid, every, valued)
    if found or not alternatives or alternatives == unsaid:
        return found
    return _match_tokens(store, phrase, tokens, exclude_turn, alternatives, every, valued)


#: the shortest word a typo is looked for in (shorter ones are one letter from too many)
MIN_TYPO_LENGTH = 5


def _typo_of(store: MemoryStore, token: str) -> frozenset[str]:
    """The words memory says that ``token``, which it never says, is one typo from (not one
    that only adds or drops a last letter: "manage" and "manager" are two words)."""
    if len(token) < MIN_TYPO_LENGTH or token.isdigit():
        return frozenset()
    said = store.doc_freq
    # every word one edit away, looked up (a few hundred lookups, not a pass over memory's words)
    splits = [(token[:i], token[i:]) for i in range(len(token) + 1)]
    edits = {a + b[1:] for a, b in splits if b}
    edits |= {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    edits |= {a + c + b for a, b in splits for c in _LETTERS}
    return frozenset(word for word in edits if word in said and word != token and word not in GENERIC
                     and len(word) >= MIN_TYPO_LENGTH and not word.startswith(token) and not token.startswith(word))


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


_ADDRESS_HEADS = frozenset(tokenize("address addresses postcode zip live"))
_DIGIT = re.compile(r"\d")
_EMAIL_WORDS = frozenset(tokenize("email emails mail"))
_EMAIL_VALUE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


def _match_tokens(store: MemoryStore, phrase: str, tokens: list[str], exclude_turn: str | None,
                  alternatives: dict[str, frozenset[str]], every: bool = False, valued: bool = False) -> list[Unit]:
    """``match_phrase`` for ``tokens``, each also found as one of its ``alternatives``."""
    # "the day I'm unavailable" is said "I'm not available on Mondays": a word memory never
    # says, with "un", is its stem beside a negation
    negated = {t: t[2:] for t in tokens if t.startswith("un") and len(t) > 5 and not _df(store, t) and _df(store, t[2:])}
    alternatives = {**alternatives, **{t: frozenset({stem}) for t, stem in negated.items()}}
    searched = [*tokens, *(a for t in tokens for a in sorted(alternatives.get(t, ())))]
    hits = store.index.search_tokens(phrase, searched, k=max(len(store.index), 1))
    head = head_of(phrase)
    # "Rafael's blood type" is about Rafael: a unit that says nothing of him (nor does the
    # sentence before it) is someone else's blood type, most likely the user's own; "the
    # lamp's tracking number" is not the desk chair's
    # (the nearest possessor owns it: "Greg's girlfriend's name" is the girlfriend's, not Greg's)
    possessors = [m.group(1) for m in _POSSESSOR_WORD.finditer(phrase)]
    named_owners = set(tokenize(possessors[-1])) if possessors else owners_of(phrase)
    weights = phrase_weights(store, tokens, head)
    if alternatives:
        # a word memory never says ("teeth") weighs as much as its rarest alternative does
        alt_weights = phrase_weights(store, searched, head)
        for t, alts in alternatives.items():
            weights[t] = max([weights[t], *(alt_weights.get(a, 0.0) for a in alts)])
    # a word for a kind of value that memory writes out but never names ("score" of "MoCA
    # 19/30", "amount" of "£1,642.18 a month", "date" of "booked for 3/11"): a unit that writes
    # such a value says the word (``says``), and the word weighs as much as the phrase's
    # weightiest; a unit that writes a score is a candidate even when it says no other word
    shapes = {word: writes for words, writes in _VALUE_SHAPES for word in words & set(tokens)
              if not (head in _IDENTIFIER_HEADS and words is _AMOUNT_WORDS)}
    written = {word: [u for u in store.units.values() if writes(u.text)] for word, writes in shapes.items()}
    top = max(weights.values(), default=0.0)
    weights.update({word: top for word, units in written.items() if units and not weights.get(word)})
    seen = {hit.id for hit in hits}
    best_hit = max((hit.score for hit in hits), default=1.0)
    hits = [*hits, *(SearchHit(u.id, best_hit) for word in shapes if word in _SCORE_WORDS
                     for u in written[word] if u.id not in seen)]
    total = sum(weights.values()) or 1.0

    # "the number from my passport": a unit that writes a code says the number ("My passport
    # is GK482913") as much as one that only names the kind ("… passport number and Steuer-ID?")
    wants_code = head in _IDENTIFIER_HEADS
    # "Harold's email address": a unit that writes an address with an @ says "email address"
    # ("… had his own, h.ashworth1939@btinternet.com")
    email_words = _EMAIL_WORDS & set(tokens) and (_EMAIL_WORDS | {"address"}) & set(tokens)
    # "how much I lent him": a unit that writes a sum says "how much" ("I sent him $7,500")
    wants_amount = not wants_code and bool(set(tokens) & _AMOUNT_WORDS)

    def says(unit: Unit, token: str) -> bool:
        if token in negated:
            return negated[token] in unit.tokens and _NEGATION.search(unit.text) is not None
        if wants_code and token == head and token not in unit.tokens and code_keys(unit.text):
            return True
        if token in shapes and token not in unit.tokens and shapes[token](unit.text):
            return True
        if email_words and token in email_words and _EMAIL_VALUE.search(unit.text):
            return True
        return token in unit.tokens or not alternatives.get(token, frozenset()).isdisjoint(unit.tokens)

    # the head noun names the kind of fact ("number"), its modifiers which one ("passport"):
    # a unit with the head alone ("The file number they gave me") is a neighbour, not it
    # (a generic one, "day", "favourite", says which of the user's things, not which kind)
    modifiers = {t for t, w in weights.items() if t != head and w > 0 and t not in GENERIC} if len(tokens) >= 2 else set()
    # "Greg's girlfriend's name": Greg says whose girlfriend, not which fact; a unit that only
    # speaks of Greg ("Greg and I separated in November") is none of hers
    # ("what Greg's girlfriend does": the girlfriend's, whom Greg only says which)
    related = _RELATIVE_OF.search(phrase)
    outer = set(tokenize(" ".join(possessors[:-1] if len(possessors) >= 2 else possessors if related else [])))
    if outer:
        relative = set(tokenize(related.group(0))) - {"new", "ex"} if related else set()
        inner = {t for t in tokens if t != head and t not in GENERIC and t not in outer} | relative
        if any(not _df(store, t) and t not in alternatives for t in relative) or (
                inner and not any(weights.get(t, 0.0) > 0 or t in alternatives for t in inner)):
            return []  # memory never calls her "Greg's girlfriend": her fact is not found by Greg
        modifiers -= outer
    # a word memory never says but whose synonym it does ("teeth" -> "dentist") is the one
    # that names the fact: a unit must say it, and then it is enough
    # (only a thing called the user's own outright, "my teeth"; "my father's occupation" is
    # named by "father" as much)
    own_words = {w for m in re.finditer(r"\b(?:my|our)\s+([\w-]+)\b(?!['’])", phrase, re.I) for w in tokenize(m.group(1))}
    required = {t for t in alternatives if not _df(store, t) and t in own_words}
    if head in _MEDICATION_WORDS and head in alternatives and not _df(store, head):
        # ("Priya's new tablets, the ones the GP put her on": memory never says "tablets" but
        # names drugs; the fact is one of those, not "the GP has put her on Ferrous Fumarate")
        required.add(head)
    scored: list[tuple[float, float, Unit]] = []
    for hit in hits:
        unit = store.units.get(hit.id)
        if unit is None or unit.turn_id == exclude_turn:
            continue  # a tombstone, or the request's own turn
        if required:
            if not all(says(unit, t) for t in required):
                continue
        said = sum(w for t, w in weights.items() if says(unit, t))
        if not required and said <= 0:
            continue  # the sentence before cannot make a unit that says none of it the fact
        before = store.said_before(unit)  # (looked up only for units that may count)
        if not required and modifiers and not any(says(unit, t) for t in modifiers) and not (
                named_owners and before is not None and any(says(before, t) for t in modifiers & named_owners)) and not (
                modifiers <= named_owners and _named_just_before(store, unit, named_owners)):
            continue  # (an owner may be named in the sentence before: "Ines … Her mobile is …", or atop the list)
        if (named_owners and named_owners.isdisjoint(unit.tokens) and (before is None or named_owners.isdisjoint(before.tokens))
                and not OTHER_PRONOUNS.search(unit.text) and not _named_just_before(store, unit, named_owners)):
            continue  # ("His National Insurance number is …" may be Emeka's: a pronoun passes)
        if required:
            coverage = 1.0
        else:
            # a word the unit leaves to the sentence before it counts for less: "My husband
            # Rafael's is O+" after "my blood type is O negative" states Rafael's blood type
            context = sum(w for t, w in weights.items() if before is not None and not says(unit, t) and says(before, t))
            coverage = (said + CONTEXT_WEIGHT * context) / total
        if _asks_assistant(unit):
            # "the nickname from when I was little" is not "Could you warm it up a little?";
            # "Can you store a couple of phone numbers for me?" is, by the sentence after it
            # that writes one ("My mum's landline is 0161 496 0733.")
            after = _value_said_after(store, unit)
            if after is None:
                continue
            unit = after
        elif wants_code and not code_keys(unit.text):
            # "the wage bill is killing me. Every month it is €46,300 gross": the number asked
            # for is written in the next sentence, which goes on about what this one names
            # ("it is"; not "BP 131/84.", which names a thing of its own)
            after = _value_said_after(store, unit)
            if (after is not None and code_keys(after.text) and _next_to(store, unit, after)
                    and _GOES_ON_WITH_IT.search(after.text)):
                unit = after
        elif wants_amount and not MONEY_SPAN.search(unit.text):
            # "Kelvin Ho, friend since UBC, asked for help. I sent him $7,500 …": the sum is
            # written in the next sentence, which goes on about whom this one names
            after = _value_said_after(store, unit)
            if (after is not None and MONEY_SPAN.search(after.text) and _next_to(store, unit, after)
                    and (_GOES_ON_WITH_IT.search(after.text) or OTHER_PRONOUNS.search(after.text))):
                unit = after
        scored.append((hit.score, coverage, unit))
    if not scored:
        return []
    need = 0.5 if len(set(tokens)) >= 2 else 1.0
    scored = [s for s in scored if s[1] >= need]
    if not scored:
        return []
    owned_by_me = {t for m in MY_THING.finditer(phrase) for t in tokenize(m.group(1))}
    if owned_by_me:
        # "my GP" is not "my mum's GP": drop units where someone else owns what the request
        # says is the user's, even when nothing else is left
        mine = [x for x in scored if not owned_by_someone_else(x[2].text, owned_by_me)]
        if not mine:
            return []  # only a friend's birthday says "birthday": "my birthday" is not it
        scored = mine
    elif _THIRD_PARTY_OWNER.search(phrase):
        # "her doctor's details" is not "My GP's Dr Okafor …": a sentence about the user's own
        # thing is not someone else's, when a sentence that is not the user's own also fits
        theirs = [x for x in scored if not _MY_OWN_SUBJECT.match(x[2].text)]
        scored = theirs or scored
    best_cov = max(c for _, c, _ in scored)
    if wants_code and any(c == best_cov and code_keys(u.text) for _, c, u in scored):
        # … and of the two, the one that writes it is the number
        scored = [x for x in scored if x[1] < best_cov or code_keys(x[2].text)]
    for writes in dict.fromkeys(shapes.values()):
        if any(c == best_cov and writes(u.text) for _, c, u in scored):
            # (… and of those, the one that writes it: the sum is the amount, "19/30" the score)
            scored = [x for x in scored if x[1] < best_cov or writes(x[2].text)]
    # "my home address": "My home is in Mangwon-dong, 23 Poeun-ro …", not "The chair is for
    # home." — a sentence that writes no name or number states no value of it (and of an
    # address or a number, none without a digit: "Home delivery is Saturday morning")
    # (a number said in words is a value too: "for twenty-three hundred quid")
    writes = ((lambda text: _DIGIT.search(text) is not None) if head in _ADDRESS_HEADS
              else (lambda text: _writes_value(text) or bool(code_keys(text))))
    if valued and any(c == best_cov and writes(u.text) for _, c, u in scored):
        # (one that names the same thing again stays: "The call with my mentor ran long" beside
        # "I have a Thursday call with my mentor" — it shares a word beyond the request's)
        stating = [u for _, c, u in scored if c == best_cov and writes(u.text)]
        beyond = set().union(*(u.tokens for u in stating)) - set(searched) - GENERIC
        scored = [x for x in scored if x[1] < best_cov or writes(x[2].text) or not beyond.isdisjoint(x[2].tokens)]
        # (and the statements that write it are meant however a shorter mention scores)
        best_score = max(s for s, c, u in scored if c == best_cov and writes(u.text))
        scored = [x for x in scored if x[1] < best_cov or x[0] >= 0.8 * best_score or writes(x[2].text)]
    best_score = max(s for s, c, _ in scored if c == best_cov)
    # "the Halden details": every statement about Halden is meant, the long one with the
    # sort code as much as the short "The Halden account closes next month."
    whole = every or _DETAILS_PHRASE.search(phrase) is not None
    found = [(s, u) for s, c, u in scored if c >= best_cov and (whole or s >= 0.8 * best_score)]
    found.sort(key=lambda x: -x[0])
    if every:  # a topic: everything said about it
        return [u for _, u in found]
    ordinal = _ORDINAL.match(phrase.strip())
    if ordinal and len(found) >= 2:
        # "that second PNR I gave you": of the statements that fit, the one said second
        order = {uid: n for n, uid in enumerate(store.units)}
        in_order = sorted((u for _, u in found), key=lambda u: order.get(u.id, 0))
        nth = _ORDINALS[ordinal.group(1).lower()]
        if nth < len(in_order):
            return _statements_for(store, phrase, tokens, [in_order[nth]])
    # a fact is stated a few times; a phrase that fits many units equally ("This might be
    # silly", a speaker's filler) names none of them: keep only the best few
    return _statements_for(store, phrase, tokens, [u for _, u in found[:MAX_PHRASE_MATCHES]])


#: a phrase naming whose thing by a third-person possessive: "her doctor's details", "Omar's
#: address", "my mum's GP"
_THIRD_PARTY_OWNER = re.compile(r"\b(?:his|her|their)\s+\w|\b(?:my\s+)?" + KIN_WORDS + r"(?:'s|’s)\s+\w"
                                r"|\b(?-i:[A-Z][a-z]+)(?:'s|’s)\s+\w", re.I)
#: a sentence whose subject is the user's own thing: "My GP's Dr Okafor …" (not "My mum's GP …")
_MY_OWN_SUBJECT = re.compile(r"^\W*(?:(?:and|also|oh|so|ok|but|plus)\W+)*(?:my|our)\s+(?!(?:\w+\s+)?" + KIN_WORDS + r"\b)", re.I)
#: "the second PNR", "that first dentist I told you about": the n-th of the things said
_ORDINAL = re.compile(r"^(?:(?:the|that|this|my|our)\s+)?(first|second|third|1st|2nd|3rd)\s+\w", re.I)
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}


#: the user speaking of themselves, in any case ("ok i also work w/ two contractors")
_SPEAKS_OF_SELF = re.compile(r"\b(?:i|i'm|im|i’m|i've|ive|i’ve|i'd|i’d|my|me|mine|we|our|us)\b", re.I)


def _discloses(unit: Unit) -> bool:
    """The unit tells something of the user's life: it writes a value (a name, a number), or
    it is a statement in the first person. A question to the assistant that only shares a
    category word ("How do I take better photos with just my phone?", "what reheats well
    at work?") discloses nothing a category request could mean; one that writes a name does
    ("I promised Anselm, my brother, I'd help with his CV. One page?"). Of the units the dev
    benchmark's category requests took, 216 of 223 questions and 93 of 97 sentences with
    neither a value nor "I"/"my" held no value of the category's facts."""
    if _writes_value(unit.text):
        return True
    return not _asks_assistant(unit) and _SPEAKS_OF_SELF.search(unit.text) is not None


#: a sentence that goes on about a person already named: "he still owes me $1,400"
_GOES_ON_ABOUT = re.compile(r"\b(?:he|she|him|her|his|hers|he's|she's)\b", re.I)
#: a sentence that only goes on with the one before it: "… and shes referring me to a GI"
_GOES_ON = re.compile(r"^\W*(?:and|plus|which|so\s+(?:she|he|they|i)|and\s+then)\b", re.I)


#: a description that names whose area it is: "my mother's situation", "Javi's family", "his parents"
_OWNED_DESCRIPTION = re.compile(r"^\W*(?:(?:my|our)\s+(?P<kin>" + KIN_WORDS + r")(?:'s|’s)\s+\w"
                                r"|(?P<name>(?-i:[A-Z][a-z]+))(?:'s|’s)\s+\w|(?P<pronoun>his|her|their)\s+\w)", re.I)
#: the user's own relative: "my mother", "mi madre", "my mum's birthday"
_MY_OWN_KIN = re.compile(r"\b(?:my|mi)\s+(?:own\s+)?(?:" + KIN_WORDS + r"|madre|padre)\b", re.I)


def _owner_words(store: MemoryStore, description: str, intent: ForgetIntent) -> set[str]:
    """The words memory names the owner of an owned description by: the kin word and the
    names said beside it ("My mother, Hildegard, …"), a name, or the person a pronoun points
    at in the request ("Javi and I had a long talk … his family")."""
    m = _OWNED_DESCRIPTION.match(description)
    if m is None:
        return set()
    if m.group("kin"):
        kin = m.group("kin").lower()
        words = set(tokenize(kin))
        for unit in store.user_units():
            for named in re.finditer(rf"\b(?:my|our)\s+{re.escape(kin)}(?:'s|’s)?,?\s+(?-i:([A-Z][a-z]+))\b", unit.text, re.I):
                if named.group(1).lower() not in _NOT_A_NAME:
                    words |= set(tokenize(named.group(1)))
        return words
    if m.group("name"):
        return set(tokenize(m.group("name"))) if _df(store, tokenize(m.group("name"))[0]) else set()
    person = without_pronoun(f"{m.group('pronoun')} things", intent.statements, intent.directives, store, intent.text)
    owner = _POSSESSOR_NAME.match(person)
    return set(tokenize(owner.group(1))) if owner and _df(store, tokenize(owner.group(1))[0]) else set()


def _next_turn_about(store: MemoryStore, unit: Unit) -> list[Unit]:
    """The user's next turn of the session when it goes on about the person ``unit`` named by
    pronoun ("My mother, Hildegard, lives … in a care home." then "She has vascular dementia;
    …"): its sentences up to where it stops speaking of them."""
    turn = store.turns[unit.turn_id]
    later = sorted((t for t in store.turns.values() if t.session_id == turn.session_id and t.role == "user"
                    and t.timestamp > turn.timestamp), key=lambda t: t.timestamp)
    if not later:
        return []
    units = [store.units[i] for i in later[0].unit_ids if i in store.units]
    if not units or not re.match(r"^\W*(?:she|he|they|her|his|their)\b", units[0].text, re.I):
        return []
    return [units[0], *_told_on(store, units[0], _GOES_ON_ABOUT)]


_POSSESSOR_NAME = re.compile(r"^(?-i:([A-Z][a-z]+))(?:'s|’s)\s")


def _told_on(store: MemoryStore, unit: Unit, goes_on: re.Pattern[str] = _GOES_ON) -> list[Unit]:
    """The sentences after ``unit`` in its turn that go on telling what it began: the list it
    introduces ("… context:" then "- Marcus and I were together 3 years"), else those right
    after it that ``goes_on`` matches — by default a clause split from it ("… and shes
    referring me to a GI at mount sinai"); for a topic, the sentences about the person it
    spoke of (``_GOES_ON_ABOUT``: "he still owes me $1,400")."""
    order = [i for i in store.turns[unit.turn_id].unit_ids if i in store.units]
    later = [store.units[i] for i in order[order.index(unit.id) + 1:]] if unit.id in order else []
    out: list[Unit] = []
    introduces_list = unit.text.rstrip().endswith(":")
    for nxt in later:
        continues = (BULLET.match(nxt.text) is not None if introduces_list
                     else goes_on.search(nxt.text) is not None and not _asks_assistant(nxt))
        if not continues:
            break
        out.append(nxt)
    return out


#: a person named as the subject of a target's clause: "(the tablets) Maya has started on"
_SUBJECT_NAME = re.compile(r"(?<=\s)((?-i:[A-Z][a-z]+))\s+(?:has|have|had|is|was|takes|took|started|gets|got|sold|bought|uses|"
                           r"used|sees|saw|gave|lent|owes)\b")
#: units of measure, which many values share
_MEASURE_UNITS = frozenset(tokenize("mg mcg ml kg km cm mm lb lbs oz iu bpm mmhg kcal cal hr hrs min mins"))
_SCORE_WORDS = frozenset(tokenize("score scores"))
#: a score as written: "19/30", "22 out of 30" (not a date: what it is out of is ten or more)
_SCORE = re.compile(r"\b\d{1,3}\s*/\s*[1-9]\d{1,2}\b|\b\d{1,3}\s+out\s+of\s+\d{1,3}\b", re.I)
_DATE_WORDS = frozenset(tokenize("date dates"))


def _writes_money(text: str) -> bool:
    return MONEY_SPAN.search(text) is not None


def _writes_score(text: str) -> bool:
    return _SCORE.search(text) is not None


def _writes_date(text: str) -> bool:
    return bool(date_spans(text))


#: the words for a kind of value, and how a text writes one
_VALUE_SHAPES: tuple[tuple[frozenset[str], Callable[[str], bool]], ...] = (
    (_AMOUNT_WORDS, _writes_money), (_SCORE_WORDS, _writes_score), (_DATE_WORDS, _writes_date))


def _named_just_before(store: MemoryStore, unit: Unit, owners: set[str]) -> bool:
    """A sentence of ``unit``'s turn before it names one of ``owners``: a list the user writes
    about someone names them once ("took dad to the memory clinic … - MoCA 19/30."). A
    sentence that says "she"/"he" may have them named in the exchange just before ("how's Jess
    doing?" … "she saw Dr Haddad … she's started on sertraline")."""
    for uid in store.turns[unit.turn_id].unit_ids:
        if uid == unit.id:
            break
        earlier = store.units.get(uid)
        if earlier is not None and not owners.isdisjoint(earlier.tokens):
            return True
    if not OTHER_PRONOUNS.search(unit.text):
        return False
    # (the exchange just before: "how's Jess doing?" … "she's started on sertraline")
    number = int(unit.turn_id[1:])
    for k in range(number - 1, max(number - 3, -1), -1):
        turn = store.turns.get(f"t{k:06d}")
        if turn is not None and turn.session_id == unit.session_id and not owners.isdisjoint(tokenize(turn.text)):
            return True
    return False


def _people_in(text: str) -> set[str]:
    """The tokens of the people ``text`` names by kin word or possessive ("Mom's diabetes")."""
    return set(tokenize(" ".join(m.group(0) for m in KIN.finditer(text)))) | owners_of(text)


def _someone_elses(store: MemoryStore, unit: Unit, kept_people: set[str]) -> bool:
    """``unit`` is about another person: by its own words, or, when it names no one, by the
    sentences before it in its turn naming a person whose things the request keeps ("keep Mom's
    diabetes" … "B. Mom. IRCC requested her immigration medical. | Booked with the panel
    physician in Guangzhou on March 12." is Mom's medical). Only for such a person: a terse
    line after "My sister came over." may well be the user's own news."""
    if about_someone_else(unit.text):
        return True
    if not kept_people or not names_no_one(unit.text):
        return False
    order = [i for i in store.turns[unit.turn_id].unit_ids if i in store.units]
    at = order.index(unit.id) if unit.id in order else 0
    # back through the sentences that name no one or say "her"/"his" of someone before them
    for previous in reversed(order[max(0, at - 3):at]):
        text = store.units[previous].text
        people = _people_in(text) - _PRONOUN_OWNERS
        # (by a person named outright: "She prescribed …" is the doctor's act on the user)
        if people & kept_people and about_someone_else(text):
            return True
        if people or not names_no_one(OTHER_PRONOUNS.sub(" ", text)):
            return False
    return False


_PRONOUN_OWNERS = frozenset(tokenize("her his their him she he they them"))


def _says_some_of(store: MemoryStore, unit: Unit, phrase: str) -> bool:
    """``unit`` says one of the content words of ``phrase``, or a word of its synonym group,
    or writes the kind of value it names (a sum for "how much", ``_VALUE_SHAPES``); a phrase
    none of whose words memory says is said by any unit."""
    words = {t for t in _phrase_tokens(phrase) if t not in GENERIC or t in _AMOUNT_WORDS}
    if not any(_df(store, t) for t in words):
        return True  # (memory says the thing in other words, "her job" as "works at Tesco": the names find it)
    groups = attribute_synonyms()
    said = set().union(words, *(groups.get(t, frozenset()) for t in words))
    return bool(unit.tokens & said) or any(words & kind and writes(unit.text) for kind, writes in _VALUE_SHAPES)


def _value_said_after(store: MemoryStore, unit: Unit) -> Unit | None:
    """The first live sentence after ``unit`` in its turn that writes a value, if any."""
    order = [i for i in store.turns[unit.turn_id].unit_ids if i in store.units]
    later = order[order.index(unit.id) + 1:] if unit.id in order else []
    return next((store.units[i] for i in later if _writes_value(store.units[i].text)), None)


#: a sentence whose subject is the one before's: "Every month it is …", "That's 1,340 now"
_GOES_ON_WITH_IT = re.compile(r"\b(?:it|that|this)(?:'s|’s|\s+(?:is|was|comes?|came|runs?|ran|costs?|cost|works?\s+out|"
                              r"goes|went|adds?\s+up))\b", re.I)


def _next_to(store: MemoryStore, unit: Unit, other: Unit) -> bool:
    """``other`` is the live sentence right after ``unit`` in their turn."""
    order = [i for i in store.turns[unit.turn_id].unit_ids if i in store.units]
    return unit.id in order and other.id in order and order.index(other.id) == order.index(unit.id) + 1


def _writes_value(text: str) -> bool:
    """A name or a number in ``text`` (not a capitalised "How" or "I'm" after a filler)."""
    return any(tokenize(m.group(0)) for m in _VALUE_WORD.finditer(text))


def _asks_assistant(unit: Unit) -> bool:
    """A question to the assistant that writes no value of its own ("Could you warm it up a
    little?", "Is there any wiggle room, or is it the same wake-up time?"): no fact of the
    user's is stated there for a request to mean."""
    text = unit.text.rstrip()
    # (a question may come first in the unit: "What should I pay a guy with zero experience?
    # I don't wanna lowball nobody.")
    question = text[: text.find("?") + 1] if "?" in text else ""
    return bool(question) and _ASKING_START.match(question) is not None and not _writes_value(text)


#: how a question to the assistant opens (after a filler): "How do I …", "um so can you …";
#: a sentence that opens otherwise and ends with "?" states something first ("on my business
#: cards it just says structural engineer, too formal?")
_ASKING_START = re.compile(
    r"\W*(?:(?:um+|uh+|so|right|ok|okay|oh|hey|hi|also|and|but|well|quick\s+q(?:uestion)?|last\s+one)\W+)*"
    r"(?:how|what|what's|whats|which|who|whom|whose|where|when|why|is|are|was|were|am|do|does|did|can|could|"
    r"would|will|should|shall|may|might|must|any|anything|is\s+there|tips|ideas|thoughts)\b",
    re.I,
)


def _own_value(unit: Unit, phrase_tokens: list[str]) -> bool:
    """The unit writes a value the request does not: a number or a name of its own."""
    said = set(phrase_tokens)
    return any(not set(tokenize(m.group(0))) <= said for m in _VALUE_WORD.finditer(unit.text))


_YEAR = re.compile(r"(?:19|20)\d\d")


def _own_groups(store: MemoryStore, keys: set[str], removed: set[str], texts: list[str]) -> set[str]:
    """The digit groups (four digits or more, not a year) of the removed numbers written in
    ``texts`` that no other number in memory shares: "48213" of "WSC-II-S.6151.48213.2025"
    beside "WSC-II-S.6151.48290.2025" (whose "6151" and "2025" are both numbers')."""
    if not keys:
        return set()
    groups = {g for text in texts for start, end in code_spans(text, keys) for g in re.findall(r"\d{4,}", text[start:end])
              if not _YEAR.fullmatch(g)}
    return {g for g in groups
            if not any(g in key and not any(key in k for k in keys) for u in store.units_containing({g})
                       if u.id not in removed for key in code_keys(u.text))}


#: a word that writes a value: one with a digit, or a capitalised word not opening a sentence
_NUMBER_WORD = r"[^\s,;]*\d[^\s,;]*"
_CAPITALISED_WORD = r"(?<!^)(?<![.!?:]\s)\b[A-Z][\w'’-]+"
_VALUE_WORD = re.compile(f"{_NUMBER_WORD}|{_CAPITALISED_WORD}")
#: … and a value written out as a run of them ("Project Kestrel" is one run, so it names the
#: subject when the request says "Kestrel")
_VALUE_RUN = re.compile(f"{_NUMBER_WORD}|{_CAPITALISED_WORD}(?:\\s+[A-Z][\\w'’-]+)*")


def _statements_for(store: MemoryStore, phrase: str, tokens: list[str], units: list[Unit]) -> list[Unit]:
    """A unit that only names the request's subject ("Kicking off Project Heron next week.")
    gives way to the sentences of its turn that state the request's attribute with a value
    ("Client is Lindqvist Logistics, deadline 30 June, budget €80,000 all in."): "the
    Project Heron budget figure" is the budget, said in the next sentence. So does one that
    names only whose fact it is: "Ines's mobile" is not "My colleague Ines covers for me on
    Fridays." but the next sentence, "Her mobile is 0612 334 556."."""
    attribute = {t for t in _attribute_words(phrase) if store.df(t)}
    owned = bool(owners_of(phrase))
    if not attribute:
        return units
    out: list[Unit] = []
    for unit in units:
        if attribute.isdisjoint(unit.tokens) and (not _own_value(unit, tokens) or owned):
            siblings = [store.units[i] for i in store.turns[unit.turn_id].unit_ids if i in store.units and i != unit.id]
            stating = [v for v in siblings if not attribute.isdisjoint(v.tokens) and _own_value(v, tokens)]
        else:
            stating = []
        if stating:
            out += [v for v in stating if v not in out]
        elif unit not in out:
            out.append(unit)
    return out


#: where a target says which conversation it was said in: "… that I brought up in our chat on
#: X", "… (I dropped it into the conversation about X)", "… the time we were discussing X"
_TOLD_IN = (
    re.compile(r"\s*[(,]?\s*(?:(?:that|which)\s+)?(?:i|we)\s+(?:\w+\s+)?(?:brought\s+up|mentioned|said|told\s+you|"
               r"dropped|shared|raised|gave\s+you|let\s+slip|put)(?:\s+it)?\s+(?:in|into|during|on)\s+"
               r"(?:our|the|that|a)\s+(?:chat|conversation|talk|session|discussion|exchange)\s+"
               r"(?:on|about|regarding|around|over)\s+(?P<topic>[^)]+?)\)?\s*$", re.I),
    re.compile(r"\s*[(,]?\s*(?:from|in|during)\s+(?:our|the|that)\s+(?:chat|conversation|talk|session|discussion)\s+"
               r"(?:on|about|regarding|around|over)\s+(?P<topic>[^)]+?)\)?\s*$", re.I),
    re.compile(r"\s*[(,]?\s*(?:the\s+time|back\s+when|when|while)\s+we\s+(?:were\s+)?(?:discuss|talk|chat|went|go)\w*"
               r"\s+(?:about\s+|over\s+|through\s+)?(?P<topic>[^)]+?)\)?\s*$", re.I),
    re.compile(r"\s*[(,]?\s*(?:the\s+time|back\s+when|when|while)\s+you\s+were\s+(?:helping|giving|walking|talking)\s+"
               r"(?:me\s+)?(?:with|through|about|on)\s+(?P<topic>[^)]+?)\)?\s*$", re.I),
    re.compile(r"\s*[(,]?\s*in\s+the\s+middle\s+of\s+(?:our|the|that)\s+(?:chat|conversation|talk|session|discussion)\s+"
               r"(?:on|about|regarding|around|over)\s+(?P<topic>[^)]+?)\)?\s*$", re.I),
)


#: a target qualified as what a change left behind: "the cancelled flight", "the old number"
_LEFT_BEHIND = re.compile(r"\b(?:cancell?ed|old|previous|former|original|earlier|first)\s+", re.I)


def _contains_run(tokens: tuple[str, ...], run: tuple[str, ...]) -> bool:
    """``run`` occurs in ``tokens`` as consecutive tokens."""
    n = len(run)
    return any(tokens[i:i + n] == run for i in range(len(tokens) - n + 1)) if n else False


def _before_the_change(store: MemoryStore, phrase: str, found: list[Unit],
                       request_turn_id: str) -> tuple[list[Unit], list[Unit]]:
    """"Forget the cancelled flight" after "easyJet cancelled my flight and rebooked me on
    EZY6245": the statement the words match best is the change, which holds the new value;
    the thing meant is the one stated before it ("The flight is easyJet EZY6241 …").
    Returns the units meant and the change statements, which stay."""
    if not _LEFT_BEHIND.search(phrase):
        return found, []
    changes = [u for u in found if CHANGE_CUE.search(u.text)]
    if not changes:
        return found, []
    first_change = min(u.timestamp for u in changes)
    bare = _LEFT_BEHIND.sub("", phrase)
    earlier = [u for u in match_phrase(store, bare, exclude_turn=request_turn_id)
               if u.timestamp < first_change and not CHANGE_CUE.search(u.text)]
    return (earlier, changes) if earlier else (found, [])


def split_told_in(phrase: str) -> tuple[str, str | None]:
    """(the thing a target names, the topic of the conversation it was said in, if given)."""
    for pattern in _TOLD_IN:
        m = pattern.search(phrase)
        if m and m.start() > 0 and _phrase_tokens(phrase[: m.start()]):
            return phrase[: m.start()].strip(" ,("), m.group("topic").strip()
    return phrase, None


#: a sentence about the user: a first-person word, a name inside the sentence, or a number
#: (only the pronouns ignore case: with re.I every word would look like a name)
_PERSONAL = re.compile(r"(?i:\b(?:my|i|i'm|i’m|i've|i’ve|me|mine|we|our)\b)|(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+|\d")
#: how far back "what I just told you" may reach: the user's last turn, at most this long ago
JUST_SAID_WINDOW_TURNS = 4


def just_said_units(store: MemoryStore, phrase: str, request_turn_id: str) -> list[tuple[Unit, tuple[str, str] | None]]:
    """The units of the user's turn before the request that the phrase means: the ones its
    other words name ("the address I just gave you"), else the statements that say
    something of the user's — a question asked in the same message is not what was shared,
    so a unit holding both keeps the question (the trim: the part that goes, the rest)."""
    order = list(store.turns)
    here = order.index(request_turn_id) if request_turn_id in order else len(order)
    session = store.turns[request_turn_id].session_id if request_turn_id in store.turns else None
    previous = None
    for tid in reversed(order[max(0, here - JUST_SAID_WINDOW_TURNS):here]):
        turn = store.turns[tid]
        if turn.role == "user" and turn.session_id == session:
            previous = turn
            break
    if previous is None:
        return []
    units = [store.units[u] for u in previous.unit_ids if u in store.units]
    words = set(_phrase_tokens(JUST_SAID.sub(" ", phrase))) - GENERIC - _FRAMING

    split = [(unit, sentence_pieces(unit.text)) for unit in units]
    # the statements about the user, if the turn has any: "they are sitting in a jar" is not
    # what was shared when "If anyone calls me Sprocket at the wedding" is in the same turn
    personal_somewhere = any(_PERSONAL.search(x) for _, sentences in split for x in sentences
                             if not x.rstrip().endswith("?"))

    def chosen_in(sentences: list[str], by_words: bool) -> list[str]:
        if by_words:
            return [x for x in sentences if set(tokenize(x)) & words]
        statements = [x for x in sentences if not x.rstrip().endswith("?")]
        personal = [x for x in statements if _PERSONAL.search(x)]
        return personal if personal or personal_somewhere else statements

    # the sentences the phrase's own words name, else the ones about the user
    by_words = bool(words) and any(chosen_in(sentences, True) for _, sentences in split)
    out: list[tuple[Unit, tuple[str, str] | None]] = []
    for unit, sentences in split:
        chosen = chosen_in(sentences, by_words)
        if not chosen:
            continue
        kept = [x for x in sentences if x not in chosen]
        if kept and len(set(tokenize(" ".join(kept))) - GENERIC) >= MIN_KEPT_WORDS:
            out.append((unit, (" ".join(chosen), " ".join(kept))))
        else:
            out.append((unit, None))
    return out


#: words of a back-reference that frame it, not name a thing ("the personal detail in my last message")
_FRAMING = frozenset(tokenize("personal detail details bit part piece info information private message msg "
                              "text reply share shared sharing mean meant slip slipped"))


#: how many leading letters two words must share to be one word in two forms
#: ("allergy" / "allergic", "vaccination" / "vaccinated")
SHARED_STEM = 6


def kept_by_exception(store: MemoryStore, phrase: str, request_turn_id: str) -> list[Unit]:
    """The units an exception keeps ("… except the allergy (and the emergency kit)"): each
    thing it names, matched by its words, or failing that by its words' other forms."""
    out: list[Unit] = []
    for part in re.split(r"\s*\(\s*(?:and\s+)?|\)\s*|,\s*and\s+|\s+and\s+(?=the|my)\b", phrase):
        if not _phrase_tokens(part):
            continue
        out.extend(match_phrase(store, part, exclude_turn=request_turn_id))
        # an exception is what the user wants kept: the same word in another form counts too
        words = [t for t in _phrase_tokens(part) if t not in GENERIC and len(t) >= SHARED_STEM]
        if words:
            out.extend([u for u in store.units.values() if u.turn_id != request_turn_id
                        and all(any(len(w) >= SHARED_STEM and w[:SHARED_STEM] == t[:SHARED_STEM] and w != t
                                    for w in u.tokens) or t in u.tokens for t in words)][:MAX_PHRASE_MATCHES])
        # … and so does a word of its kind: "the dental booking" is "I've got the dentist on
        # April 2 at 15:15" (its other words, "booking", need not be said), however many other
        # units say "dental"
        synonyms = attribute_synonyms()
        kinds = [synonyms[t] for t in _phrase_tokens(part) if t in synonyms]
        if kinds:
            out.extend([u for u in store.units.values() if u.turn_id != request_turn_id
                        and all(kind & u.tokens for kind in kinds)][:MAX_PHRASE_MATCHES])
    return out


_PRONOUN_OWNER = re.compile(r"\b(?:his|her|hers|its|their|them|him)\b", re.I)
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,})\b")
#: a pronoun standing for a person or a thing, in a target ("her name", "what she does for
#: work", "its tracking number")
#: (not an object pronoun: "the money I lent him" is said "I lent him ₹6 lakh" where it was stated)
_PRONOUN = re.compile(r"\b(?P<possessive>his|its|their|her(?=\s+(?!(?:and|or|to|for|from|about|at|in|on|with|ok|okay|"
                      r"please|anymore|again|too|back)\b)[a-z]))\b|\b(?P<subject>she|he|they)\b", re.I)
#: who a pronoun can point back to: "Greg's girlfriend", "my husband Rafael", "my sister",
#: "Rafael" (a name is checked against memory: it must be written capitalised mid-sentence)
_PERSON_REFERENCE = re.compile(
    rf"\b(?P<owned>[A-Z][a-z]+(?:'s|’s)\s+(?i:(?:(?:new|old|current|ex|ex-)\s*)?{KIN_WORDS}))\b"
    rf"|\b(?i:my\s+(?:(?:new|old|current|ex|ex-|little|big|older|younger)\s*)?{KIN_WORDS})(?:\s+(?P<named>[A-Z][a-z]+))?\b"
    r"|\b(?P<name>[A-Z][a-z]{2,})\b")
#: a thing the user says is ending, for "its": "I'm closing the savings account … forget its number"
#: "… for it", "… of it" closing a target: the thing is named elsewhere in the request
_FOR_IT = re.compile(r"\s+(for|of|about|on)\s+it\s*$", re.I)
#: a thing whose plans changed: "they've postponed the op", "we moved the wedding"
_CHANGED_THING = re.compile(
    r"\b(?:postponed|postponing|moved|moving|rescheduled|rescheduling|cancel+ed|cancel+ing|called\s+off|pushed\s+back|"
    r"delayed|brought\s+forward)\s+(?P<thing>(?:the|my|our|his|her)\s+(?:[\w-]+\s+){0,2}?[\w-]+?)(?=\s*[,.;:!?]|\s+(?:to|till|"
    r"until|again|and|but|so|because)\b|\s*$)", re.I)
_ENDED_THING = re.compile(
    r"\b(?:closing|closed|cancel+ing|cancel+ed|sold|selling|ended|ending|stopped|stopping|returned|returning|"
    r"shut(?:ting)?|quit(?:ting)?|leaving|left|scrapped|scrapping)\s+(?:down\s+)?"
    r"(?P<thing>(?:the|my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+?)(?=\s+(?:next|last|this|today|tomorrow|on|in|at|soon|"
    r"now|because|so|and|but)\b|\s*[,.;:!?]|\s*$)", re.I)
#: a thing's possessive, for "its": "lamp's here, you don't need its tracking number"
_THING_POSSESSIVE = re.compile(r"\b(?:the\s+)?(?P<thing>[a-z]{3,})(?:'s|’s)\b")


#: capitalised words that name a day or a month, not whose thing it is
_CALENDAR = frozenset("""monday tuesday wednesday thursday friday saturday sunday january february march april
may june july august september october november december""".split())
#: capitalised by convention, not as a name: months (a date goes by its date key), titles,
#: "St." ("St. Charles" is a street). A weekday is a value often enough to stay one: "choir
#: on Sunday at 4 pm"
_NEVER_A_NAME = _CALENDAR_TOKENS | _TITLES | frozenset(tokenize("st saint"))
#: capitalised words that open sentences and are no one's name
_NOT_A_NAME = frozenset(tokenize("""i the my she he they it we you good hi hey hello thanks sorry okay ok yes no
please also actually so but and well oh ah anyway just maybe sure right""")) | _CALENDAR


def _is_name_in(store: MemoryStore, word: str) -> bool:
    """A capitalised word memory writes capitalised mid-sentence: a name, not "Good"."""
    token = tokenize(word)
    if not token or token[0] in _NOT_A_NAME or not store.df(token[0]):
        return False
    mid = re.compile(rf"(?<![.!?]\s)(?<!^)\b{re.escape(word)}\b|\b(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+{re.escape(word)}\b|"
                     rf"\b{re.escape(word)}(?:'s|’s)\s|"
                     # a sentence that opens with a person doing something: "Chloe, on the other
                     # hand, IS coming", "Liam says he will ring"
                     rf"^{re.escape(word)}(?:,\s+(?:on\s+the\s+other\s+hand|though|however|meanwhile|bless\s+(?:her|him))\b|"
                     rf"\s+(?i:is|was|has|had|says|said|will|won't|rang|called|came|comes|went|goes|lives|works|"
                     rf"isn't|wasn't|can't|cannot)\b)")
    return any(mid.search(u.text) for u in store.units_containing({token[0]}) if token[0] in u.tokens)


def _antecedent(phrase: str, statements: list[str], directives: list[str], store: MemoryStore | None,
                text: str = "") -> str | None:
    """What the phrase's pronoun points back to, in the request's sentences (the last one
    named wins): a person for "her"/"she"; for "its", a thing's possessive in the sentence
    that asks ("lamp's here so you don't need its tracking number anymore")."""
    pronouns = [m for m in _PRONOUN.finditer(phrase)]
    if not pronouns:
        return None
    if all(m.group(0).lower() == "its" for m in pronouns):
        things = [f"the {m.group('thing')}" for st in directives for m in _THING_POSSESSIVE.finditer(st)
                  if m.group("thing") not in ("that", "it", "what", "there", "here", "who", "let", "he", "she")]
        # "I'm closing the savings account next week. Please forget its number."
        things = things or [m.group("thing") for st in statements for m in _ENDED_THING.finditer(st)]
        return things[-1] if things else None
    # "his" is not Gran, "her" not Mr. Doyle: a reference whose gender is marked must agree
    said = {m.group(0).lower() for m in pronouns}
    wanted = "m" if said & {"his", "he"} else "f" if said & {"her", "she"} else None
    found: list[str] = []
    # the people named before the request's first directive, when its text is known ("Zsofi
    # is on leave … forget her completely. Graham stays": her is Zsofi, not Graham)
    start = text.find(directives[0][:40]) if text and directives else -1
    pieces = [text[:start]] if start > 0 and any(_PERSON_REFERENCE.finditer(text[:start])) else [*statements, *directives]
    for statement in pieces:
        if store is not None:
            # texting writes names lower-case ("ana's cancelled so forget her flight number"):
            # a possessive memory writes capitalised is a name
            statement = _LOWER_POSSESSOR.sub(
                lambda m: m.group(0).capitalize() if _is_name_in(store, m.group(1).capitalize()) else m.group(0), statement)
        for m in _PERSON_REFERENCE.finditer(statement):
            if m.group("owned"):
                candidate = m.group("owned")
            elif m.group("named") or (m.group("name") is None):
                candidate = m.group("named") or m.group(0)
            elif store is not None and m.group("name") and _is_name_in(store, m.group("name")):
                candidate = m.group("name")
            else:
                continue
            marked = _gender(m.group(0), statement[: m.start()])
            if wanted is None or marked is None or marked == wanted:
                found.append(candidate)
    return found[-1] if found else None


_FEMALE = frozenset("""mum mom mother sister wife daughter grandma grandmother gran granny nan nana aunt niece
girlfriend""".split())
_MALE = frozenset("dad father brother husband son grandpa grandfather grandad uncle nephew boyfriend".split())


def _gender(reference: str, before: str) -> str | None:
    """"m" or "f" when the words mark it ("my sister", "Gran", "Mr. Doyle"), else None."""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", reference)}
    title = re.search(r"\b(Mr|Mrs|Ms|Miss)\.?\s*$", before)
    if words & _FEMALE or (title and title.group(1) != "Mr"):
        return "f"
    if words & _MALE or (title and title.group(1) == "Mr"):
        return "m"
    return None


def without_pronoun(phrase: str, statements: list[str], directives: list[str], store: MemoryStore | None = None,
                    text: str = "") -> str:
    """A target that names its owner by pronoun, said with what the pronoun points at in the
    request's other sentences: "her name" after "I went on about Greg's girlfriend" is
    "Greg's girlfriend's name", "what she does for work" is "what Greg's girlfriend does for
    work", "its tracking number" after "lamp's here" is "the lamp's tracking number"."""
    alone = PERSON_ALONE.fullmatch(phrase.strip())
    thing_it = _FOR_IT.search(phrase)
    if thing_it and not _PRONOUN.search(phrase):
        # "the date I gave you for it" after "they've postponed the op": the thing whose plans
        # changed, named in the request's other sentences
        things = [m.group("thing") for st in statements for m in (*_ENDED_THING.finditer(st), *_CHANGED_THING.finditer(st))]
        return phrase[: thing_it.start()] + f" {thing_it.group(1)} {things[-1]}" if things else phrase
    if not _PRONOUN.search(phrase) and not alone:
        return phrase
    # a person by object pronoun alone is looked for as its subject form ("her" -> "she")
    asked = {"her": "she", "him": "he"}.get(alone.group(0).lower(), "they") if alone else phrase
    antecedent = _antecedent(asked, statements, directives, store, text)
    if antecedent is None:
        return phrase
    if alone:
        return antecedent  # "forget her completely": the person
    return _PRONOUN.sub(lambda m: f"{antecedent}'s" if m.group("possessive") else antecedent, phrase)


#: a lower-case possessive that may be a name: "ana's"
_LOWER_POSSESSOR = re.compile(r"\b([a-z]{3,})(?='s\b|’s\b)")
#: a target that is a person by object pronoun alone: "forget her completely"
PERSON_ALONE = re.compile(r"her|him|them", re.I)


def with_context(phrase: str, statements: list[str]) -> str:
    """A phrase that still names its owner by pronoun (no antecedent found), or a bare noun
    ("that plate"), with the names the rest of the request gives ("her registration" … "a
    permit for the Clio"; "Dev sold the Fiat … don't keep that plate")."""
    if not _PRONOUN_OWNER.search(phrase) and len(_phrase_tokens(phrase)) != 1:
        return phrase
    # (not a name that only says whose relative: "Greg's girlfriend" is not Greg)
    names = [m.group(1) for st in statements for m in _NAME.finditer(st.strip())
             if m.group(1) not in ("I", "The", "My", "She", "He", "They", "It") and m.group(1).lower() not in _CALENDAR
             and not _RELATIVE_OF.match(st.strip()[m.end():])]
    # "I told you too much about the loan. The amount, the rate, …": what it is about, too
    topics = [m.group("topic") for st in statements for pattern in (_TOLD_ABOUT, _STUFF_TOLD) for m in pattern.finditer(st)]
    return " ".join([*names, *topics, phrase]) if names or topics else phrase


#: … said the other way round: "the rent stuff I told you — the amount and the landlord's name"
_STUFF_TOLD = re.compile(r"\b(?:the|my|our|all\s+(?:the|that))\s+(?P<topic>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+"
                         r"(?:stuff|things?|business|situation|details?)\s+(?:(?:that\s+)?i(?:'ve|’ve|\s+have)?\s+)?"
                         r"(?:told\s+you|said|shared|mentioned)\b", re.I)
#: what follows a name that only says whose relative someone is: "Greg's girlfriend"
_RELATIVE_OF = re.compile(r"(?:'s|’s)\s+(?:new\s+|ex[- ]?)?" + KIN_WORDS + r"\b", re.I)
#: a statement that says what the request is about: "I told you too much about the loan",
#: "what I said about my pension"
_TOLD_ABOUT = re.compile(r"\b(?:told\s+you|said|shared|mentioned|talked)\b[^.;!?]*?\babout\s+(?:the|my|our)\s+"
                         r"(?P<topic>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?=\s*(?:[,.;!?]|and\b|$))", re.I)


def resolve(
    intent: ForgetIntent,
    store: MemoryStore,
    now: datetime,
    session_id: str,
    request_turn_id: str,
    semantic: SemanticMatcher | None = None,
) -> Resolution:
    """The units ``intent`` means and how to purge them. ``semantic``: when a named target
    matches no unit by its words, the nearest unit by meaning (``-o semantic=true``)."""
    res = Resolution()
    if intent.kind in (ForgetKind.FACT, ForgetKind.FACTS, ForgetKind.CATEGORY):
        # "remove his blood type", "everything about her coming and her train": whose, from
        # the request's other sentences
        said_as = {without_pronoun(p, intent.statements, intent.directives, store, intent.text): p for p in intent.targets}
        intent = replace(intent, targets=list(said_as))
    selected: dict[str, Unit] = {}
    preset_trims: dict[str, tuple[str, str]] = {}  # unit id -> (part that goes, the rest), decided already
    _ = store.doc_freq  # value words are chosen by frequency: know every unit's tokens once
    # what the request keeps ("except the onsite date", "Keep only the payment date", "though
    # please keep my passport number"): found once, taken out wherever units are chosen
    kept_units = []
    for phrase in exceptions_of(intent):
        kept_phrase = _one_named(phrase, intent.targets)
        kept = kept_by_exception(store, kept_phrase, request_turn_id)
        if kept_phrase != phrase:  # "the new landlord": the statement of the new one, not the old
            kept = [u for u in kept if re.search(r"\b(?:new|now|current|currently)\b", u.text, re.I)]
        kept_units += kept

    if intent.kind in (ForgetKind.FACT, ForgetKind.FACTS):
        for phrase in intent.targets:
            if JUST_SAID.search(phrase):
                # "what I just told you", "the address in my last message": the user's last
                # turn before this one, its statement that names the thing (or its personal ones)
                just = just_said_units(store, phrase, request_turn_id)
                if just:
                    for unit, trim in just:
                        selected[unit.id] = unit
                        if trim is not None:
                            preset_trims[unit.id] = trim
                    continue
            # "the number on my passport that I brought up in our chat on my slow phone": the
            # thing, and the conversation it was said in (which of its mentions is meant)
            as_said = split_told_in(said_as.get(phrase, phrase))[0]
            phrase, topic = split_told_in(phrase)
            keys = code_keys(phrase) | date_keys(phrase)
            by_code = units_spelling(store, keys, exclude_turn=request_turn_id)
            res.code_keys |= keys
            in_context = with_context(phrase, intent.statements)
            found = by_code or match_phrase(store, in_context, exclude_turn=request_turn_id, valued=True)
            added = in_context[: len(in_context) - len(phrase)].split()
            if not by_code and added and all(w[:1].isupper() for w in added):
                # the names the rest of the message gives say whose, not what: "Kelvin what the
                # money was for" is not "Kelvin Ho, friend since UBC, asked for help", which
                # says nothing of money (a topic it gives does say what: "the mortgage stuff
                # … the lender")
                found = [u for u in found if _says_some_of(store, u, phrase)] or match_phrase(
                    store, phrase, exclude_turn=request_turn_id, valued=True)  # ("Dovecot", whose names led elsewhere)
            if not found and as_said != phrase and (in_context := with_context(as_said, intent.statements)) != as_said:
                # the statement may use the pronoun too ("what she does: teaches Pilates"), with
                # whom the request names beside it; a bare "her name" names nothing to look for
                found = match_phrase(store, in_context, exclude_turn=request_turn_id, valued=True)
            if topic and len(found) > 1:
                there = _event_session(store, topic, session_id)
                found = [u for u in found if u.session_id == there] or found
            if not found and semantic is not None:
                live = [u for u in store.units.values() if u.turn_id != request_turn_id]
                nearest = semantic.nearest(phrase, live)
                found = [nearest] if nearest is not None else []
                res.by_meaning += len(found)
            found, change = _before_the_change(store, phrase, found, request_turn_id)
            kept_units += change  # the change keeps its words ("still on 6 May") and its new value
            for unit in found:
                selected[unit.id] = unit
            tokens = tuple(_phrase_tokens(phrase))
            if tokens:
                res.phrase_ghosts.append(tokens)
                res.ghost_heads[tokens] = head_of(phrase)
                res.ghost_owners[tokens] = ghost_owners(phrase)
        res.statements = list(intent.statements)

    elif intent.kind == ForgetKind.CATEGORY:
        # the categories of what is described, not of its exception ("my relatives, apart from
        # my father's occupation" is not about work)
        cats = set(intent.categories) or set(categories_in(before_exception(" ".join(intent.targets))))
        category_text = " ".join(intent.targets)
        # categories that are about other people (family, relationships, contacts, pets) keep
        # them; a request about the user's own health or money does not reach Dad's
        others_too = bool(cats & PEOPLE_CATEGORIES or owners_of(category_text) or OTHER_PRONOUNS.search(category_text)
                          or KIN.search(category_text))
        # "everything about my mother's situation: her illness, the home, …", "his family, his
        # parents, his brother": the area of one person, who memory names by their kin word or
        # their name — not the user's own health, nor the user's own mother
        owner_words = _owner_words(store, category_text, intent)
        people_area = bool(cats & PEOPLE_CATEGORIES)
        by_owner = bool(owner_words) and not people_area
        if by_owner:
            for unit in store.user_units():
                # (a statement about the owner discloses them by naming them: "Chloe, on the
                # other hand, IS coming, bless her.")
                if unit.turn_id != request_turn_id and unit.tokens & owner_words and not _asks_assistant(unit):
                    for goes_on in [unit, *_told_on(store, unit, _GOES_ON_ABOUT), *_next_turn_about(store, unit)]:
                        selected[goes_on.id] = goes_on
            cats = set()
        # every user unit, not only those holding a lexicon word: a unit can belong to a
        # category by a pattern alone ("starting metformin" is health by its drug-name stem)
        kept_people = set().union(set(), *(_people_in(phrase) for phrase in exceptions_of(intent)))
        for unit in store.user_units():
            if unit.categories & cats and (others_too or not _someone_elses(store, unit, kept_people)) and _discloses(unit):
                if owner_words and _MY_OWN_KIN.search(unit.text) and not unit.tokens & owner_words:
                    continue  # "his family": my own mother's birthday is none of it
                for goes_on in [unit, *_told_on(store, unit)]:
                    selected[goes_on.id] = goes_on
        if semantic is not None:
            # by meaning too: what the user described ("my musical instruments and gear")
            # reaches "I play a Fender Rhodes", which no category word marks; an exception
            # its words do not find keeps its nearest unit
            live = [u for u in store.user_units() if u.turn_id != request_turn_id]
            description = before_exception(category_text)
            for unit in semantic.near(description, live, CATEGORY_MIN_COSINE):
                if others_too or not about_someone_else(unit.text):
                    selected[unit.id] = unit
            for phrase in exceptions_of(intent):
                if not match_phrase(store, phrase, exclude_turn=request_turn_id):  # its words win
                    nearest = semantic.nearest(phrase, live)
                    if nearest is not None:
                        selected.pop(nearest.id, None)
        if not cats and not by_owner:  # a topic, not a category: everything said about each thing it names
            for phrase in intent.targets:  # ("my ex and the breakup": the ex, and the breakup)
                for part in _TOPIC_PARTS.split(before_exception(phrase)):
                    # (by the words memory says: "what I pay" is the rent, not the salary its
                    # synonym would find; "the penicillin mix-up" is what is said of penicillin)
                    said_words = [w for w in re.findall(r"[\w'’-]+", part)
                                  if (word_tokens := _phrase_tokens(w)) and all(_df(store, t) for t in word_tokens)]
                    if said_words:
                        for about in match_phrase(store, " ".join(said_words), exclude_turn=request_turn_id, every=True):
                            if not _asks_assistant(about):
                                for goes_on in [about, *_told_on(store, about, _GOES_ON_ABOUT)]:
                                    selected[goes_on.id] = goes_on
        # "all the health stuff except the hep B date", "… Keep only the payment date"
        for unit in kept_units:
            selected.pop(unit.id, None)
        res.statements = list(intent.statements)

    elif intent.kind == ForgetKind.TIME_WINDOW:
        ref = parse_time_reference(intent.time_phrase, now)
        pieces = sentence_pieces(intent.time_phrase)
        if len(pieces) > 1:
            # "Better today. That Sunday night. Late.": the sentence that names a past time
            # with a conversation in it, the nearest to the request first
            for piece in reversed(pieces):
                piece_ref = parse_time_reference(piece, now)
                if piece_ref is not None and piece_ref.sessions_back is None and _sessions_in(
                        store, _with_its_small_hours(piece_ref), request_turn_id, session_id):
                    ref = piece_ref
                    break
        turn_ids: set[str] = set()
        if ref is not None and ref.sessions_back is not None:
            order = list(store.sessions)
            here = order.index(session_id) if session_id in order else len(order)
            pick = here - ref.sessions_back
            if 0 <= pick < len(order):
                target_session = order[pick]
                turn_ids = {t.id for t in store.turns.values() if t.session_id == target_session}
        elif ref is not None:
            ref = _with_its_small_hours(ref)
            # "that conversation": every session with a turn in the window, whole
            hit_sessions = _sessions_in(store, ref, request_turn_id, session_id)
            if not hit_sessions and ref.start and ref.end and _WEEKDAY.search(intent.time_phrase):
                # "the friday, like 3am, a few weeks back": the same weekday and hour in an
                # earlier week, the nearest one that has a conversation
                for weeks in range(1, MAX_WEEKS_BACK + 1):
                    shifted = TimeReference(ref.start - timedelta(weeks=weeks), ref.end - timedelta(weeks=weeks))
                    if hit_sessions := _sessions_in(store, shifted, request_turn_id, session_id):
                        break
            if len(hit_sessions) > 1 and ref.start and ref.end and ref.end - ref.start > timedelta(days=1):
                # "that night in February when I could not sleep": of the month's conversations,
                # the ones held at night (not the evening ones of the same month)
                hit_sessions = _at_part_of_day(store, set(hit_sessions), intent.time_phrase) or hit_sessions
            turn_ids = {t.id for t in store.turns.values() if t.session_id in hit_sessions}
        if not turn_ids and _SMALL_HOUR.search(intent.time_phrase):
            # "that night I wrote you at like 3am after Inés's birthday": the one conversation
            # held in the small hours (none is picked when there are several). The hour comes
            # before the event's words: the conversation before the party says "Inés's
            # birthday" too
            small = {sid for sid in store.sessions if sid != session_id
                     and (first := min((t.timestamp for t in store.turns.values() if t.session_id == sid), default=None))
                     is not None and first < now and first.hour < SMALL_HOURS.seconds // 3600}
            if len(small) == 1:
                turn_ids = {t.id for t in store.turns.values() if t.session_id in small}
        if not turn_ids:  # "after that awful Thursday shift, the morning with the toast": by what happened
            event = _event_session(store, intent.time_phrase, session_id)
            if event is not None:
                turn_ids = {t.id for t in store.turns.values() if t.session_id == event}
        if not turn_ids:
            # "About Thursday night. Whisky talking. Everything I wrote after the cooperation
            # talk …": the time another sentence of the message names, the nearest first
            for statement in reversed(intent.statements):
                named_time = parse_time_reference(statement, now)
                if named_time is None or named_time.sessions_back is not None:
                    continue
                hit_sessions = _sessions_in(store, _with_its_small_hours(named_time), request_turn_id, session_id)
                if len(hit_sessions) > 1:
                    hit_sessions = _at_part_of_day(store, set(hit_sessions), statement) or hit_sessions
                if hit_sessions:
                    turn_ids = {t.id for t in store.turns.values() if t.session_id in hit_sessions}
                    break
        for tid in sorted(turn_ids):
            turn = store.turns[tid]
            if turn.role == "assistant":
                res.redact_whole_turns.append(tid)
            for uid in turn.unit_ids:
                if uid in store.units:
                    selected[uid] = store.units[uid]
        # "… the only thing from that night I still need is the studio session, keep that one"
        for unit in kept_units:
            selected.pop(unit.id, None)
        res.statements = list(intent.statements)

    elif intent.kind == ForgetKind.CONCLUSION:
        for phrase in intent.targets:
            res.conclusion_tokens |= {t for t in _phrase_tokens(phrase) if t not in GENERIC}
        res.conclusion_heads = concept_expansion(res.conclusion_tokens) | res.conclusion_tokens
        res.statements = list(intent.statements)
        return res  # sources stay; the conclusion is suppressed at retrieval

    elif intent.kind == ForgetKind.REPLACEMENT:
        new_value = (intent.new_value or new_value_of(intent.statements, set())
                     or value_stated(intent.statements, CHANGE_CUE))
        new_tokens = set(tokenize(new_value)) if new_value else set()
        anchors: set[str] = set()
        found_by_kind = False
        spelled: set[str] = set()  # every word of an old value found by its kind, month names too
        by_shape = False  # the old value found by the new one's digit shape only ("2417" of an address)
        old_named = old_value_of(intent.statements)
        if old_named and new_value and value_kind(new_value) is not None and not re.search(r"[A-Z\d@]", old_named):
            # "it is 10 minutes walking instead of two trams … his school is now Szkoła Podstawowa
            # nr 85": what the new name replaces is a name too, not the commute it improves on
            old_named = None
        targets = list(intent.targets)
        if old_named and (
            not any({t for t in _phrase_tokens(p) if t not in GENERIC} - new_tokens for p in targets)
            or all(_OLD_ONE.search(p) for p in targets)
        ):
            # "… cancelled PureGym …, so forget the old gym": PureGym; "it's May 7 now, not
            # April 23 — scrap the old date": April 23
            targets = [old_named]
        named_outright = targets == [old_named]
        if named_outright and old_named:
            res.code_keys |= date_keys(old_named)  # "not April 23": "4/23" in the calendar list too
        # the statements that tell the change ("which bank I use ended up being …") name
        # the attribute; the rest of the message does not
        told = [st for st in intent.statements if CHANGE_CUE.search(st) or (new_value and new_value in st)]
        # "I've deferred MRCP Part 1. I'm now sitting it on 12 August.": what "it" is was said
        # in the sentence before
        told += [intent.statements[i - 1] for i, st in enumerate(intent.statements)
                 if i and st in told and re.search(r"\b(?:it|its|it's|it’s)\b", st, re.I) and intent.statements[i - 1] not in told]
        # "new address is 1814 Bayou Road … you don't need that address": the words the
        # statement of the new value says beside it name the attribute, not the old value
        beside_new = {t for st in intent.statements if new_value and new_value in st
                      for t in tokenize(st.replace(new_value, " "))}
        for phrase in targets:
            named = {t for t in _phrase_tokens(phrase) if t not in GENERIC} - new_tokens
            if not named_outright and not re.search(r"\d|(?<!^)\b[A-Z]", phrase.strip()):
                named -= beside_new
            if new_value and not named_outright and _OLD_ONE.search(phrase):
                # "the old one", "the old value for my favourite airline": the earlier
                # statement of the attribute whose value has the new value's kind
                old = find_old_value(store, new_value, [phrase, *told], request_turn_id, ignore=GENERIC | META)
                if old is not None:
                    for unit in old.units:
                        selected[unit.id] = unit
                    # (a date goes by its date key in every spelling; "april" alone is every April date)
                    anchors |= old.anchors - (_CALENDAR_TOKENS if date_keys(old.value) else frozenset())
                    spelled |= old.anchors  # (the restatement replaces all of it: "Surgery is May 5.")
                    res.code_keys |= date_keys(old.value) | (code_keys(old.value) if MONEY_SPAN.fullmatch(old.value) else frozenset())
                    found_by_kind = True
                    continue
                if value_kind(new_value) not in (None, "money"):
                    # (a sum is still looked for by its digits' shape, below)
                    # no earlier value of that kind beside the attribute's words, or two
                    # equally near: deleting a neighbour that merely shares a word would
                    # lose a kept fact and still leave the old value
                    continue
            if named and any(_df(store, t) for t in named):
                # the old value is named: every unit stating all of it
                holders = [u for u in store.units_containing(named)
                           if u.turn_id != request_turn_id and named <= u.tokens]
                for unit in holders or match_phrase(store, phrase, exclude_turn=request_turn_id):
                    selected[unit.id] = unit
                anchors |= {t for t in named if _df(store, t)}
            else:  # "delete the old one": find the statement of the attribute being replaced
                same_kind = _same_kind_holders(store, new_value, intent.statements, new_tokens, request_turn_id)
                if same_kind:
                    # "the keysafe code changed. It's 2093 now": the unit with the code's word
                    # and a number of 2093's shape ("Code's 4471")
                    for unit in same_kind:
                        selected[unit.id] = unit
                    by_shape = True
                    shape = len(re.sub(r"\D", "", new_value or ""))
                    anchors |= {t for u in same_kind for t in u.tokens
                                if t.isdigit() and len(t) == shape and t not in new_tokens}
                    continue
                my_phrases = [m.group(1) for st in intent.statements for m in _MY_PHRASE.finditer(st)]
                probes = my_phrases + [" ".join(t for t in tokenize(st) if t not in new_tokens and t not in GENERIC)
                                       for st in intent.statements]
                for probe in probes:
                    # one word is enough only when the user called it "my <word>" ("my diet")
                    if len(set(tokenize(probe)) - GENERIC - new_tokens) < 2 and probe not in my_phrases[:1]:
                        continue
                    found = match_phrase(store, probe, exclude_turn=request_turn_id)[:2]
                    if found:
                        for unit in found:
                            selected[unit.id] = unit
                        break
        # "… stop keeping my pin. the alarm code for work u can keep tho": what it keeps stays
        for unit in kept_units:
            if selected.pop(unit.id, None) is not None:
                anchors -= unit.tokens
        res.value_tokens |= anchors
        # the old statement's own distinctive words (other forms of the old value: "a flat
        # white" beside "coffee") go too — never the new value's words nor the attribute's
        told_words = {t for st in told for t in tokenize(st)} - new_tokens
        attribute = (attribute_tokens(intent.statements) | told_words) - anchors
        for unit in list(selected.values()):
            if (named_outright or found_by_kind) and anchors:
                break  # the request wrote the old value out: its words are the value, not the unit's others
            values = value_tokens_of(store, unit, exclude=new_tokens)
            res.value_tokens |= (values - attribute) or values
        old_tokens = res.value_tokens
        if new_value:
            # the unit that states the attribute is restated ("I keep all my logins in
            # 1Password"), not the latest that merely mentions the old value ("1Password
            # filled in the wrong account again"): most words the request uses for the
            # attribute, then said in the first person, then the latest
            said = {t for st in intent.statements for t in tokenize(st)} - new_tokens - GENERIC
            best = sorted(selected.values(), key=lambda u: (len(u.tokens & said), _FIRST_PERSON.search(u.text) is not None,
                                                            u.timestamp), reverse=True)[:1]
            # an old value found by its shape alone ("2417" of the old address) is only part of
            # it: the restatement replaces every word of the old statement's value
            named = ((old_tokens - attribute) or anchors) if by_shape else anchors | spelled
            for unit in best:
                text = unit.text
                # (where the old value stands: by its own words, not a month every date has)
                marks = (named - _CALENDAR_TOKENS) or named
                at = next((start for start, _end, toks in word_spans(text) if toks & marks), None) if marks else None
                part = part_at(text, at) if at is not None and PART_JOIN.search(text) else text
                if part != text and (part.strip(" ,;") and not about_someone_else(part)):
                    # "my sister's hen do is on 10 June, and the theory test is on 14 June": only
                    # the test's part changes; the sister's stays as it was said
                    rest = " ".join(p for p in PART_JOIN.split(text) if p != part).strip()
                    selected.pop(unit.id, None)
                    res.trims[unit.id] = (part, rest)
                    res.unit_ghosts.append(tuple(tokenize(part)))
                    text = part
                res.rewrites.append(rewrite_with(text, intent.statements, old_tokens, named, new_value))
        # the tombstone holds the old value only (its incidental neighbours — "I *follow* a
        # pescatarian diet" — would shadow the new statement for "what diet do I follow?")
        ghost = anchors or old_tokens
        if ghost:
            res.value_ghosts.append(tuple(sorted(ghost)))
        res.statements = list(intent.statements)
        res.delete_units = sorted(selected)
        return res

    # the request's words that name the attribute ("my pet food brand"), not a value it names
    # outright ("the Fiesta", "SV5520781"): those must go everywhere like any value word
    described = set().union(*(_attribute_words(p) for p in intent.targets)) if intent.targets else set()
    # whose thing it is ("Jess's new tablets") is no value either: Jess stays in every other memory
    described |= {t for p in intent.targets for m in re.finditer(r"\b([A-Z][\w-]+)['’]s\b", p) for t in tokenize(m.group(1))}
    # … nor who did it: "the tablets Maya has started on" keeps Maya everywhere else
    described |= {t for p in intent.targets for m in _SUBJECT_NAME.finditer(p) for t in tokenize(m.group(1))}
    # the values a request names outright, every word a name or a code ("Dr Thorsby", "Smile
    # Studio", "SV5520781"), without a title ("Dr" is also Dr Okonjo's)
    # (a number's digit groups are not: "07700" of "07700 914382" is also the electrician's
    # "07700 958210"; the number goes in every spelling by its code key)
    named_values = {t for p in intent.targets if _NAMED_VALUE_PHRASE.fullmatch(p.strip())
                    for t in tokenize(p) if t not in _TITLES and not (t.isdigit() and code_keys(p))}
    named_code = any(_NAMED_VALUE_PHRASE.fullmatch(p.strip()) and code_keys(p) for p in intent.targets)
    if intent.kind in (ForgetKind.FACT, ForgetKind.FACTS):
        # a kept fact in the same sentence as the target ("the launch has been moved to 18 March
        # and the budget is now capped at €240,000" … "the launch date should remain") stays as
        # the rest of that sentence when the target's part is trimmed out, not as a reason to
        # keep the whole sentence
        trimmed_too = {u.id for u in kept_units if u.id in selected and (preset_trims.get(u.id) or _trim(store, u, intent.targets))}
        kept_units = [u for u in kept_units if u.id not in trimmed_too]
        # "… don't hold on to that one. Keep the cholesterol one": what the request keeps stays
        for unit in kept_units:
            selected.pop(unit.id, None)
        for uid, unit in list(selected.items()):
            trim = preset_trims.get(uid) or _trim(store, unit, intent.targets)
            if trim is not None:
                del selected[uid]
                res.trims[uid] = trim
                part_tokens = set(tokenize(trim[0]))
                named_here = named_values & part_tokens
                # "the penicillin business": a head memory never says frames the request, and
                # the one word memory holds is the value, not an attribute to keep
                framed = {t for p in intent.targets if (h := head_of(p)) and not _df(store, h)
                          for t in _attribute_words(p) - _possessors(p) - GENERIC - _FRAME_MODIFIERS
                          if _df(store, t)} & part_tokens
                if framed and not named_here:
                    named_here = framed
                if code_keys(trim[0]) and any(head_of(p) in _IDENTIFIER_HEADS for p in intent.targets):
                    # "my own case number" in "They write my case number WSC-II-S.6151.48213.2025":
                    # the number goes by its code key; the part's other words ("write", and the
                    # "WSC-II-S" every such number opens with) are no value of it
                    values = named_here
                elif (sums := [m.group(0) for m in MONEY_SPAN.finditer(trim[0])]) and any(
                        set(_phrase_tokens(p)) & _AMOUNT_WORDS for p in intent.targets):
                    # "the amount of my pension" from "The pension comes to £1,642.18 a month after
                    # tax": the sum's leading figures (and its code key), not "pension" or "tax"
                    values = set().union(*map(sum_figures, sums))
                elif named_here or (named_code and code_keys(trim[0])):
                    # "forget Dr Thorsby and Smile Studio": the request names the values; the
                    # part's other words ("my dentist was …") say what they were
                    values = named_here
                else:
                    values = {t for t in value_tokens_of(store, unit) if t in part_tokens} or (part_tokens - described - GENERIC)
                    # the part that goes is one fact: every rare word of it is its value ("not
                    # available on Mondays because of childcare": Mondays as well as childcare)
                    # (not a month: "12 March" goes by its date key, "5 March" stays)
                    values |= {t for t in part_tokens - described - GENERIC - META - _CALENDAR_TOKENS
                               if 0 < _df(store, t) <= MAX_VALUE_DF}
                if "@" in trim[0]:
                    values -= _MAIL_SUFFIXES  # "…@kestrelmail.ie": "ie" is every Irish address's
                # (nor a word of the attribute's group: "staying" of "he's staying at Flat B-702"
                # says the address, it is no part of it)
                groups = attribute_synonyms()
                values -= set().union(set(), *(groups.get(t, frozenset()) for t in described))
                res.value_tokens |= (values - described) or values
                res.code_keys |= code_keys(trim[0]) | date_keys(trim[0])
                res.unit_ghosts.append(tuple(tokenize(trim[0])))
                res.ghost_owners[res.unit_ghosts[-1]] = ghost_owners(trim[0])
                res.ghost_said[res.unit_ghosts[-1]] = unit.timestamp
    # a window ("what I told you that night") covers what was said then, not the same words
    # said on other days: its units go whole, nothing is chased into other sessions
    window = intent.kind == ForgetKind.TIME_WINDOW
    # "bin that number": when the request asks for a number or code, a unit that writes one
    # loses it (in every spelling, by its code key), not its other words ("mum", "landline"
    # of "My mum's landline is 0161 496 0733" stay in every other memory)
    wants_code = any(head_of(p) in _IDENTIFIER_HEADS for p in intent.targets)
    synonym_groups = attribute_synonyms()
    described_groups = described.union(*(synonym_groups.get(t, frozenset()) for t in described))
    for unit in selected.values():
        if not window:
            own = code_keys(unit.text)
            # one code (and its phone tail): its other spellings go everywhere; two when the
            # request asks for numbers ("My passport is GK482913 and the Steuer-ID … 57 392 048 161")
            if len(own) <= (4 if wants_code else 2):
                res.code_keys |= own
            if not (wants_code and own and len(own) <= 4):
                # "delete my pet food brand": the request's words name the attribute, not the value
                # (and so do the words of their groups: "internet" for "the website")
                values = value_tokens_of(store, unit, exclude=described_groups) or value_tokens_of(store, unit)
                # a name the request gives outright is a value however often memory says it
                # ("Sandy … wipe him": "sandy" is in three sentences, so no rare word)
                res.value_tokens |= values | (named_values & unit.tokens)
        ghosts = res.window_ghosts if window else res.unit_ghosts
        ghosts.append(tuple(tokenize(unit.text)))
        res.ghost_owners[ghosts[-1]] = ghost_owners(unit.text)
        res.ghost_said[ghosts[-1]] = unit.timestamp
    # a name or handle the deleted statement shares with another of the user's statements
    # ("lumen_drift", "Lindqvist Retirement Fund") is the value, said again: it is blanked
    # wherever it stands (only blanked: the other statements are not deleted for it). So for
    # a category: "it was Mr. Oduya" went with the education, "a note Mr. Oduya wrote" keeps
    # its words but not the name (a value's rarest words are often not its name)
    restated: set[str] = set()
    if intent.kind in (ForgetKind.FACT, ForgetKind.FACTS, ForgetKind.CATEGORY):
        parts = [u.text for u in selected.values()] + [t[0] for t in res.trims.values()]
        for text in parts:
            for span_tokens in _restated_names(store, text, set(selected) | set(res.trims)):
                restated |= span_tokens - described  # "Lindqvist Retirement Fund" for "my retirement savings"
            res.phrases |= _restated_phrases(store, text, set(selected) | set(res.trims), described)
    # the digit groups of a removed number ("01632", "960" of "01632 960 452") go with the
    # number, by its code key in every spelling; alone they are other numbers' too ("01632
    # 960 118", a kept phone number with the same area code, is no restatement of it)
    res.value_tokens -= {t for t in res.value_tokens if t.isdigit() and any(t in key for key in res.code_keys)}
    # … but a long group no other number in memory has is how the user says the number again
    # ("yours ends in 48213", "Dotyczy sprawy 48213"): it goes wherever it stands
    removed_texts = [u.text for u in selected.values()] + [t[0] for t in res.trims.values()]
    res.value_tokens |= _own_groups(store, res.code_keys, set(selected) | set(res.trims), removed_texts)
    # … nor is a run said again that ends in one: "WSC-II-S.6151" opens Danylo's case number too
    res.phrases = {p for p in res.phrases if not any(t.isdigit() and any(t in key for key in res.code_keys) for t in p)}
    # the names the deleted statements write are blanked wherever they stand, but do not make
    # another statement a restatement to delete: "Skyvale" of my frequent flyer number is in
    # "My partner Jonas flies Skyvale too, his number is SV-6613-205", which stays
    names_written: set[str] = set()
    if intent.kind in (ForgetKind.FACT, ForgetKind.FACTS, ForgetKind.CATEGORY):
        names_written = set().union(set(), *(written_name_values(store, u, described) for u in selected.values()))
    # a category's statements are removed whole, so every word they share with a few other
    # units is a value said again there ("my dog's a pure whippet" and "the whippet owners'
    # forums"), not only their rarest: blanked too, never a reason to delete. The category's
    # own vocabulary ("dog") and what the request says are not values
    # A value is said again in the same form: "six direct reports" is not restated by "I'll
    # report back"
    category_words: set[str] = set()
    if intent.kind == ForgetKind.CATEGORY:
        signals = category_signal_words()
        written: dict[str, set[str]] = {}  # candidate token -> the forms the statements write it in
        for unit in selected.values():
            forms = surface_forms(unit.text)
            for t in unit.tokens:
                if (t not in GENERIC and t not in signals and t not in described and not t.isdigit()
                        and 2 <= _df(store, t) <= 2 * MAX_VALUE_DF):
                    written.setdefault(t, set()).update(forms.get(t, ()))
        for other in store.units_containing(set(written)):
            if other.id in selected:
                continue
            shared = (other.tokens & written.keys()) - category_words
            if shared:
                forms = surface_forms(other.text)
                category_words |= {t for t in shared if written[t] & forms.get(t, set())}
    # other units holding a value token: restatements go, incidental mentions are blanked
    for unit in store.units_containing(res.value_tokens):
        if unit.id in selected or unit.id in res.trims:
            continue
        shared = unit.tokens & res.value_tokens
        if not shared:
            continue
        origin = [s for s in selected.values() if s.tokens & shared]
        values_of_origin = set().union(*(value_tokens_of(store, s) for s in origin)) if origin else set()
        # (a value from a trimmed part has no deleted statement to measure it by: one shared
        # word, "allergic" of "NOT allergic to penicillin", does not make "allergic to latex" it)
        if len(shared) >= (max(1, math.ceil(len(values_of_origin) / 2)) if origin else 2):
            selected[unit.id] = unit
            res.unit_ghosts.append(tuple(tokenize(unit.text)))
            res.ghost_owners[res.unit_ghosts[-1]] = ghost_owners(unit.text)
            res.ghost_said[res.unit_ghosts[-1]] = unit.timestamp
    # what the request keeps ("though please keep my passport number") keeps its value too:
    # another deleted statement that repeats it must not blank it in the kept one
    keep_values: set[str] = set()
    if kept_units:
        keep_values = set().union(*(value_tokens_of(store, u) | {t for t in u.tokens if any(c.isdigit() for c in t)}
                                    for u in kept_units))
        for unit in kept_units:
            selected.pop(unit.id, None)
        restated -= keep_values
        res.value_tokens -= keep_values
        res.code_keys -= set().union(*(code_keys(u.text) | date_keys(u.text) for u in kept_units))
        # … and a run of words it repeats ("still on 6 May, departing 13:15") is no restatement
        kept_tokens = [tuple(tokenize(u.text)) for u in kept_units]
        res.phrases = {p for p in res.phrases if not any(_contains_run(k, p) for k in kept_tokens)}
    # (a kept statement keeps all its words: "he'll say tram driver" is the excepted occupation)
    kept_words = set().union(set(), *(u.tokens for u in kept_units))
    res.value_tokens |= restated | (names_written - keep_values) | (category_words - keep_values - kept_words)
    # "forget Zsofi": "Zsófia Németh" is her too, the name the nickname shortens
    res.value_tokens |= _longer_names(store, named_values & res.value_tokens)
    # "my ex, Alexander Whitlock … goes by Sandy": the name and the one it goes by are one
    # (the names purged: named in the request, or written as names in a deleted statement)
    written_names = {t for u in selected.values() for r in _VALUE_RUN.finditer(u.text)
                     if r.start() > 0 and r.group(0)[:1].isupper() for t in tokenize(r.group(0))}
    if intent.kind == ForgetKind.CATEGORY and set(intent.categories) & PEOPLE_CATEGORIES:
        # "anything about my relatives": the people are what goes, so their names are values
        # however often memory says them ("my brother Hiroki" in four sentences: none rare)
        res.value_tokens |= {t for t in written_names if t not in GENERIC and not t.isdigit()} - keep_values
    res.value_tokens |= _alias_names(store, (named_values | written_names) & res.value_tokens)
    removed_dates = set().union(set(), *(date_keys(u.text) for u in selected.values()),
                                *(date_keys(t[0]) for t in res.trims.values())) - set().union(
        set(), *(date_keys(u.text) for u in kept_units))
    if intent.kind in (ForgetKind.FACT, ForgetKind.FACTS) and removed_dates:
        # "depo's set for April 7": the date goes by its date key in every spelling, not every
        # April in memory
        res.value_tokens -= _CALENDAR_TOKENS
        res.code_keys |= removed_dates
    if intent.kind in (ForgetKind.CATEGORY, ForgetKind.TIME_WINDOW):
        # a month or a weekday of a statement removed whole is no value to blank everywhere
        # ("The biopsy is on 24 February" would take every February): a category's dates go
        # by their date keys, in every spelling, and no other date of that month
        res.value_tokens -= _CALENDAR_TOKENS
        if intent.kind == ForgetKind.CATEGORY:
            kept_dates = set().union(set(), *(date_keys(u.text) for u in kept_units))
            res.code_keys |= set().union(set(), *(date_keys(u.text) for u in selected.values())) - kept_dates
    # a single letter or digit is no value to blank everywhere ("b" of "Flat B-702", "3" of
    # "3 Fernhill Court"): the value goes by its other words and its code key
    # … nor is a unit of measure ("mg" of "sertraline, 50 mg" is every dose's)
    res.value_tokens = {t for t in res.value_tokens if len(t) > 1 and t not in _MEASURE_UNITS}
    res.delete_units = sorted(selected)
    return res


#: a name given as another name's alias: "goes by Sandy", "aka Bess", "known as Mo",
#: "nicknamed Bear", "(Bess to everyone)", "Liz for short"
_ALIAS = re.compile(
    r"\b(?:goes\s+by|go\s+by|a\.?k\.?a\.?|known\s+as|nicknamed)\s+(?P<a>[A-Z][\w'’-]+)"
    r"|\((?P<b>[A-Z][\w'’-]+)\s+(?:to|for)\s+(?:everyone|everybody|friends|family|short|most\s+people)\)"
    r"|\b(?P<c>[A-Z][\w'’-]+)\s+for\s+short\b")


def _alias_names(store: MemoryStore, names: set[str]) -> set[str]:
    """Tokens of the names memory gives as aliases of ``names``, either way round: the
    alias of a full name named, and the full name of an alias named. The full name is the
    last capitalised run before the alias in its sentence, or in the sentence before."""
    if not names:
        return set()
    out: set[str] = set()
    for unit in store.units_containing(names) + [u for u in store.units.values() if _ALIAS.search(u.text)]:
        for m in _ALIAS.finditer(unit.text):
            alias = set(tokenize(m.group("a") or m.group("b") or m.group("c")))
            runs = [r.group(0) for r in _VALUE_RUN.finditer(unit.text[: m.start()]) if r.group(0)[:1].isupper()]
            before = store.said_before(unit)
            if not runs and before is not None:
                runs = [r.group(0) for r in _VALUE_RUN.finditer(before.text) if r.group(0)[:1].isupper()]
            full = set(tokenize(runs[-1])) - _TITLES - alias if runs else set()
            if alias & names:
                out |= full
            if full and full <= names | full and full & names:
                out |= alias
    return out - names


#: a nickname is at least this long, and the name it shortens at most this much longer
MIN_NICKNAME = 4
MAX_NAME_EXTRA = 2


def _longer_names(store: MemoryStore, names: set[str]) -> set[str]:
    """The full names in memory that ``names`` shorten, as tokens: "zsofi" -> "Zsófia
    Németh" -> {zsofia, nemeth}. The longer word must be written as a name (capitalised, not
    only opening a sentence: "Market" is no longer "Mark"), and a title is no part of it."""
    out: set[str] = set()
    for name in names:
        if len(name) < MIN_NICKNAME or name.isdigit():
            continue
        longer = {w for w in store.doc_freq if w != name and w.startswith(name) and len(w) - len(name) <= MAX_NAME_EXTRA}
        for word in longer:
            for unit in store.units_containing({word}):
                for run in _VALUE_RUN.finditer(unit.text):
                    tokens = tokenize(run.group(0))
                    if word in tokens and run.group(0)[:1].isupper():
                        out |= set(tokens) - _TITLES
    return out


#: a handle or code written in lower case ("lumen_drift", "quietfalcon42")
_HANDLE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+\d+[a-z0-9]*\b")


def _restated_names(store: MemoryStore, text: str, removed: set[str]) -> list[set[str]]:
    """The names and handles of ``text`` (not owners: "Tunde's") that another live unit
    also holds, as token sets."""
    spans = [span for _pos, span in values_of_kind(text, "name") if not re.search(r"['’]s$", span)]
    spans += _HANDLE.findall(text)
    out: list[set[str]] = []
    for span in spans:
        tokens = set(tokenize(span)) - GENERIC
        if not tokens or all(t.isdigit() for t in tokens):
            continue
        if any(u.id not in removed and tokens <= u.tokens for u in store.units_containing(tokens)):
            out.append(tokens)
    return out


#: a phrase said again word for word this long (content words) is a value, not chance
MIN_RESTATED_RUN = 3


def _restated_phrases(store: MemoryStore, text: str, removed: set[str], described: set[str]) -> set[tuple[str, ...]]:
    """The runs of ``text`` that another live unit says again in the same order (content
    words, at least ``MIN_RESTATED_RUN``, none of them vocabulary; said in a few units,
    as "coq au vin" is by a user who keeps coming back to it, not necessarily rare): "aisle
    seat near the front" of "the one thing I will pay extra for on a flight: aisle seat near
    the front", said again in "I checked in early to grab my usual (aisle seat near the
    front)". The deleted statement's rarest words ("extra", "pay") are not its value; what
    the user repeats is. A value in lower case has no capitals to find it by
    (``_restated_names``); as a run it is blanked as one span, never word by word ("near"
    stays in every other sentence). A run that is only the request's attribute words
    ("how I choose seats") is not a value, nor one said mostly before the statement's "is" or
    colon: "frequent flyer number" of "My frequent flyer number is SV-5520-781" is the
    attribute, which Jonas's number shares. Another person's sentence restates nothing of
    the user's."""
    sequence = tokenize(text)
    marker = _COPULA_OR_COLON.search(text)
    value_side = set(tokenize(text[marker.end():])) if marker else set(sequence)
    owners = owners_of(text)
    usable = [0 < _df(store, t) <= 2 * MAX_VALUE_DF and t not in GENERIC and t not in META for t in sequence]
    runs: list[list[str]] = []
    start = 0
    while start < len(sequence):
        end = start
        while end < len(sequence) and usable[end]:
            end += 1
        if end - start >= MIN_RESTATED_RUN:
            runs.append(sequence[start:end])
        start = end + 1
    out: set[tuple[str, ...]] = set()
    for run in runs:
        for phrase in _shared_runs(store, run, removed, owners):
            if not set(phrase) <= described and len(set(phrase) & value_side) >= 2:
                out.add(phrase)
    return out


#: where a statement's attribute ends and its value begins: "My X is …", "The one thing …: …"
_COPULA_OR_COLON = re.compile(r"\s(?:is|are|was|were)\s|(?<!\d):\s|\s[—–]\s", re.I)


def _shared_runs(store: MemoryStore, run: list[str], removed: set[str], owners: set[str]) -> set[tuple[str, ...]]:
    """The longest stretches of ``run`` (``MIN_RESTATED_RUN`` long or more) that a live unit
    not in ``removed`` and naming no owner but ``owners`` holds in the same order, word
    after word."""
    found: set[tuple[str, ...]] = set()
    for unit in store.units_containing(set(run)):
        if unit.id in removed or len(unit.tokens & set(run)) < MIN_RESTATED_RUN or owners_of(unit.text) - owners:
            continue
        other = tokenize(unit.text)
        # longest common runs by dynamic programming (both sides are one sentence long)
        longest = [[0] * (len(other) + 1) for _ in range(len(run) + 1)]
        for i in range(len(run)):
            for j in range(len(other)):
                if run[i] == other[j]:
                    longest[i + 1][j + 1] = longest[i][j] + 1
        for i in range(len(run)):
            for j in range(len(other)):
                n = longest[i + 1][j + 1]
                extends = i + 1 < len(run) and j + 1 < len(other) and run[i + 1] == other[j + 1]
                if n >= MIN_RESTATED_RUN and not extends:
                    found.add(tuple(run[i + 1 - n : i + 1]))
    return found


#: a value: words, digits, "99%", "+386 41 552 708", "juniper.rowe@proton.me" (a dot inside a word)
_V = r"(?P<v>(?:[^,;:!?—–()\s.]|\.(?=\w)|(?<=\d),(?=\d{3}\b)|[ \t])+)"
#: the same, as few words as the rest of the pattern allows ("use X for my airline from here on")
_V_SHORTEST = _V[:-1] + "?)"
_NEW_VALUE_PATTERNS = [
    # first: "it's X for my scooter these days" is X, not "X for my scooter"
    r"\b(?:use|go\s+with|it's|it’s|it\s+is|its)\s+" + _V_SHORTEST + r"\s+(?:for\s+[^,.;:!?]{1,60}?\s+)?"
    r"(?:from\s+here\s+on|going\s+forward|from\s+now\s+on|from\s+today|these\s+days|nowadays)\b",
    r"\b(?:switched|switching|changed|changing|moved|converted|swapped|upgraded|transitioned|"
    r"turned|shifted|relocated|migrated|migrating)\s+(?:(?:my\s+|the\s+|our\s+)?[a-z]+\s+)?(?:over\s+|back\s+)?"
    r"(?:(?:from|off)\s+.+?\s+)?to\s+" + _V,
    # ("went over to Monzo", "gone from BT to Sky"; "I went to the Greenway office" is a visit)
    r"\b(?:went|gone)\s+(?:over\s+|back\s+|(?:from|off)\s+.+?\s+)to\s+" + _V,
    # "my gp switched me off citalopram and onto sertraline 50mg"
    r"\boff\s+[^,.;:!?]{1,40}?\s+(?:and\s+)?(?:onto|on\s+to)\s+" + _V,
    # "swap which podcast I like over to 99% Invisible"
    r"\b(?:swap|swapped|swapping|switch|change|changed|move|moved)\s+(?:[\w'’]+\s+){1,5}?over\s+to\s+" + _V,
    # "New number: 07700 900123"
    r"\bnew\s+[a-z][\w\s]{0,30}?(?::|\s=)\s*" + _V,
    r"\bnew\s+(?:one|value|[\w\s]{1,30}?)\s+(?:is|are|will\s+be)\s+" + _V,
    # ("got cancelled" is a passive, no value got; "got married" is a status)
    r"\b(?:joined|picked\s+up|bought|got(?!\s+(?!married|engaged|divorced)[a-z]+ed\b)|signed\s+up\s+(?:with|for|at)|"
    r"went\s+with|started\s+(?:at|with|using))\s+" + _V + r"(?=\s+(?:on|in|at|instead|last|this|yesterday|today|now|so|and)\b|$|[,.;:!?])",
    r"\b(?:is|are|'s)\s+now\s+" + _V,
    # "my address is 1520 E Republican St, Apt 204 now": one comma may sit inside the value
    r"\bmy\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+\s+(?:is|are)\s+(?P<v>[^,;:!?—–()\n]+?(?:,\s*[^,;:!?—–()\n]+?)?)\s+"
    r"(?:now|these\s+days|nowadays|from\s+now\s+on)\b",
    r"\bnow\s+(?:it's|it is|i'm|i am|it’s|i’m)\s+" + _V,
    r"^(?:[^:]*:\s*)?" + _V + r"\s+(?:is|are)\s+(?:now\s+)?my\s+[^,.;:!?]+?\s+(?:from\s+now\s+on|now|these\s+days|"
    r"nowadays|instead)\b",
    r"\b(?:it's|it is|it’s|its|that's|that is)\s+" + _V + r"\s+(?:now|instead|these\s+days|nowadays|from\s+now\s+on)\b",
    # "it's penicillin, not amoxicillin"
    r"\b(?:it's|it is|it’s|its)\s+" + _V + r",\s+not\b",
    # "I'm at Halden Logistics now"
    r"\b(?:i'm|i am|im|we're|we are)\s+(?:(?:at|with|in|on)\s+)?" + _V + r"\s+now\b",
    r"\bnot\s+\w+(?:\s+\w+)?\s*,?\s+but\s+" + _V,
    # "rent went up to £1,150 a month", "salary's gone up to 52k"
    r"\b(?:up|down)\s+to\s+" + _V,
    # "I've gone vegan as of this month"
    r"\b(?:i've|i’ve|i\s+have|we've|we’ve|we\s+have|i|we)\s+(?:gone|become|became|turned)\s+(?!to\b|into\b|through\b|over\b|"
    r"back\b|out\b|away\b|home\b|off\b|on\b|up\b|down\b)" + _V_SHORTEST
    + r"(?=\s+(?:as\s+of|since|now|this|last|recently)\b|$|[,.;:!?])",
    # "my daughter goes to St Anne's now", "seeing Leo now", "the car's a Skoda Octavia now"
    r"\b(?:(?:goes|go|going|went|live|lives|living|work|works|working|bank|banks|banking|shop|shops|study|studies|"
    r"studying|based|i'm|i’m|im|we're|we’re)\s+(?:to|at|in|with|for|on)|seeing|dating|using|driving|(?<=\w)'s|(?<=\w)’s)\s+"
    + _V_SHORTEST + r"\s+now\b",
    # "new passport, number 561208774"
    r"\bnew\s+[a-z][\w\s]{0,30}?,\s*(?:(?:number|no\.?|num)\s+)?" + _V,
    r"^(?:[^:]*:\s*)?" + _V + r"\s+instead\s+of\b",
    r"\bnow\s+i\s+(?:\w+\s+)?" + _V,
    # "I'm now sitting it on 12 August", "we're now with Octopus"
    r"\b(?:i'm|i’m|i\s+am|im|we're|we’re|we\s+are|it's|it’s|it\s+is)\s+now\s+(?:[\w'’]+\s+){0,3}?(?:on|at|in|to|with|for|from)\s+"
    + _V,
    # "since yesterday, 1 April, the Lütte Deern is insured with Wehring & Wolfes"
    r"\bsince\s+(?:yesterday|today|this\s+\w+|last\s+\w+|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
    r"[^.;!?]{0,60}?\b(?:is|are|am)\s+(?:now\s+)?(?:[\w'’]+\s+)?(?:with|at|by|on)\s+" + _V,
    # "i grabbed a 1br in ravenna instead, 6520 latona ave ne #204": the value said after it
    r"\binstead\s*[,:]\s*(?=[^,.;!?]*\d)" + _V,
    r"\bended\s+up\s+(?:being|as|with)\s+" + _V,
    r"\b(?:prefer|use|drink|eat|play|drive|have|take|like|love|do)\s+" + _V + r"\s+"
    r"(?:now|instead|these\s+days|nowadays)\b",
]
_VALUE_TRIM = re.compile(
    r"^(?:a|an|the|my|to|some|bit|little|tad|kind\s+of|sort\s+of|so|very|really|quite|pretty|super|totally)\s+|\s+(?:now|instead|these\s+days|nowadays|anymore|any\s+more|full[- ]time|"
    r"as\s+well|recently|lately|yesterday|today|(?:last|this|next)\s+\w+|(?:a\s+)?(?:few|couple\s+of|\w+)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago|since\s+\w+|"
    # "Vancouver for her new post at the university": why is no part of the value
    r"(?-i:for|because|after|as)\s+(?:her|his|my|their|our|the|a|an|work)\b.*)$",
    re.I,
)


_MY_PHRASE = re.compile(r"\bmy\s+((?:[\w'’-]+\s+){0,3}?[\w'’-]+)(?=\s+(?:is|are|was|were|has|from|to|now)\b|[?.,;:!]|$)", re.I)


def attribute_tokens(statements: list[str]) -> set[str]:
    """Tokens of the "my <attribute>" phrases of a request's statements ("my favourite podcast")."""
    out: set[str] = set()
    for statement in statements:
        for m in _MY_PHRASE.finditer(statement):
            out |= set(tokenize(m.group(1)))
    return out


#: what a change statement says was left behind: "cancelled PureGym", "sold the Fiesta",
#: "switched from Barclays", "moved out of Flat 3"
_OLD_VALUE = re.compile(
    r"\b(?:cancell?ed|sold|left|quit|dropped|ditched|stopped\s+(?:going\s+to|using|seeing)|"
    r"moved\s+(?:out\s+of|away\s+from|on\s+from)|switched\s+(?:away\s+)?from|changed\s+from|"
    # "they've pulled me out of Somerset and sent me to Victoria Hospital"
    r"(?:pulled|taken|moved|transferred)\s+(?:me|us|him|her)\s+(?:out\s+of|off|from)|"
    r"no\s+longer\s+(?:at|with|use|using|go\s+to|see))\s+(?:the\s+|my\s+|our\s+)?" + _V_SHORTEST + r"(?=\s+(?:and|so|but|last|"
    r"this|yesterday|on|in|for|to)\b|$|[,.;:!?])",
    re.I,
)


#: a target that only points at the replaced value ("the old one", "the old date everywhere")
_OLD_ONE = re.compile(r"\b(?:old|previous|former|earlier|outdated)\b", re.I)


def _same_kind_holders(store: MemoryStore, new_value: str | None, statements: list[str], new_tokens: set[str],
                       request_turn_id: str) -> list[Unit]:
    """When the new value is a number ("It's 2093 now"), the units that state a number with
    as many digits, other than it, beside a word the change statement names ("keysafe",
    "code"): the old value of the same attribute. At most two; none when it is ambiguous."""
    digits = re.sub(r"\D", "", new_value or "")
    if len(digits) < 3:
        return []
    # the attribute is named where the change is told ("we've had the keysafe code changed",
    # "It's 2093 now"), not in the rest of the message
    told = [st for st in statements if CHANGE_CUE.search(st) or digits in re.sub(r"\D", "", st)]
    words = {t for st in told for t in tokenize(st) if not t.isdigit()} - GENERIC - new_tokens - _CHANGE_WORDS
    found = [
        u for u in store.units.values()
        if u.turn_id != request_turn_id and u.tokens & words
        and any(len(re.sub(r"\D", "", m.group(0))) == len(digits) and re.sub(r"\D", "", m.group(0)) != digits
                # ("… her number is 614-555-0129" is Jaz's number, not the user's old one)
                and not OTHERS_VALUE_BEFORE.search(u.text[max(0, m.start() - 40):m.start()])
                for m in re.finditer(r"\d[\d ,.-]*\d|\d", u.text))
    ]
    return found if 0 < len(found) <= 2 else []


#: words of a change statement that describe the change, not the attribute
_CHANGE_WORDS = frozenset(tokenize(
    "changed change changing switched switch moved new now old had have got get updated update replaced"
))


def old_value_of(statements: list[str]) -> str | None:
    """The old value a change statement names ("I've cancelled PureGym and …" -> PureGym;
    "it's May 7 now, not April 23" -> April 23)."""
    for statement in statements:
        for pattern in (_OLD_VALUE, *_NOT_THE_OLD):
            m = pattern.search(statement)
            if m:
                value = m.group("v").strip()
                # "I've ditched my accountant": what is left is named by its attribute, not its value
                named_by_attribute = (re.search(r"\b(?:my|our|the)\s+$", statement[: m.start("v")], re.I)
                                      and not re.search(r"[A-Z\d]", value))
                if value and len(value.split()) <= 5 and not named_by_attribute:
                    return value
    return None


#: the old value set against the new one: "it's May 7 now, not April 23", "2093 instead of 4471"
_NOT_THE_OLD = (
    re.compile(r",\s+(?:and\s+)?(?:not|no\s+longer)\s+(?:the\s+)?" + _V_SHORTEST
               + r"(?=\s*(?:[,.;:!?)]|$))", re.I),
    re.compile(r"\b(?:instead\s+of|rather\s+than|replacing)\s+(?:the\s+)?" + _V_SHORTEST
               + r"(?=\s*(?:[,.;:!?)]|$))", re.I),
)


_NEW_VALUE_RES = [re.compile(pattern, re.I) for pattern in _NEW_VALUE_PATTERNS]


@lru_cache(maxsize=1)
def _state_words() -> frozenset[str]:
    """``data/state_words.txt``: how a person feels, which no F6 value is."""
    path = Path(str(resources.files("bemula.systems.erasemem").joinpath("data", "state_words.txt")))
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w for line in lines if not line.lstrip().startswith("#") for w in line.lower().split())


def _is_state(value: str) -> bool:
    """"paranoid lol" (of "now I'm paranoid lol"), "wondering if …": a mood or an activity."""
    written = value.split()[0].strip(",.;:!?'’\"") if value.split() else ""
    first = written.lower()
    # ("Wehring & Wolfes" is a name: a capitalised word is not an activity)
    return first in _state_words() or (first.endswith("ing") and len(first) > 5 and not written[:1].isupper())


#: a written name at the start of a value: "Priya Raman" of "Priya Raman at Raman and Co …"
_LEADING_NAME = re.compile(r"(?-i:(?:Dr\.?\s+)?[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})(?=\s+(?-i:[a-z]))")


#: a person's possessive just before a value: "Dad's appointments", "Omar's flat"
_PERSON_POSSESSIVE_END = re.compile(r"\b(?!(?:it|that|there|here|what|he|she|who|where|how|let|this)(?:'s|’s))"
                                    r"(?:" + KIN_WORDS + r"|(?-i:[A-Z][a-z]+))(?:'s|’s)\s+$", re.I)


def new_value_of(statements: list[str], old_tokens: set[str]) -> str | None:
    """The new value an F6 request states ("I switched to green tea" -> "green tea"). The
    patterns are tried in order over all statements: "new address is 1814 Bayou Road" says it
    more surely than "got keys Friday" said before it. A value another pattern writes out in
    full is taken whole ("Bayou Road" of "use Bayou Road from now on" is "1814 Bayou Road")."""
    found: list[str] = []
    for compiled in _NEW_VALUE_RES:
        for statement in statements:
            start = 0
            # a match too long to be a value may hide a later one ("what I use on the bus and
            # use Urbana card instead"): look again after where it began
            while (m := compiled.search(statement, start)) is not None:
                value = m.group("v").strip()
                if value.islower() and _PERSON_POSSESSIVE_END.search(statement[: m.start("v")]):
                    # "My sister handles Dad's appointments now": whose, not "is"
                    start = m.start() + 1
                    continue
                previous = None
                while previous != value:
                    previous, value = value, _VALUE_TRIM.sub("", value).strip()
                if len(value.split()) > 6 and (named := _LEADING_NAME.match(value)):
                    # "new accountant is Priya Raman at Raman and Co in Northcote so swap her in":
                    # the name it opens with, not the sentence that goes on about it
                    value = named.group(0)
                tokens = set(tokenize(value))
                if tokens and not tokens & old_tokens and len(value.split()) <= 6 and not _is_state(value):
                    found.append(value)
                    break
                start = m.start() + 1
    if not found:
        return None
    fuller = [v for v in found if len(v) > len(found[0]) and v.lower().endswith(found[0].lower())]
    return max(fuller, key=len) if fuller else found[0]


#: what may sit between two words of one value ("555-0147", "jo.rowe@mail.net", "Rue des Lilas")
_JOINER = re.compile(r"[\s.@_+:/'’-]*|\s+(?:and|&|de|des|du|la|le|of|the|van|von|del|di|y)\s+", re.I)


#: a request's "my <attribute>": one or two words, no idiom ("on my mind", "my bad")
_REQUEST_ATTRIBUTE = re.compile(r"(?!(?:mind|head|end|bad|god|word|fault|life|own|part|side|opinion|view)\b)"
                                r"[\w'’-]+(?:\s+(?!(?:went|got|is|are|was|were)\b)[\w'’-]+)?", re.I)
#: … said as the subject of the change: "my work computer switched to …", "my diet is now …"
_STATED_AS_SUBJECT = re.compile(r"\s+(?:is|are|was|were|'s|’s|has|have|now|switched|changed|moved)\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:I|my|me|mine|I'm|I’m|I've|I’ve)\b")


def rewrite_with(old_text: str, statements: list[str], old_tokens: set[str], anchors: set[str],
                 new_value: str) -> str:
    """F6: the old statement, restated with the new value (what a memory UPDATE writes).

    "my <attribute> is <new value>." when the old statement or the request names the
    attribute; otherwise the old sentence with the new value where the old one stood.
    """
    for text in (old_text, *statements):
        for m in _MY_PHRASE.finditer(text):
            if text is not old_text and not (_REQUEST_ATTRIBUTE.fullmatch(m.group(1))
                                             and _STATED_AS_SUBJECT.match(text[m.end():])):
                continue  # "what I feed my pets went over to …", "it's been on my mind"
            words = set(tokenize(m.group(1)))
            # the old statement's "my <attribute>" is the attribute even when its words are
            # rare ("My car is a silver 2012 Ford Fiesta" -> "My car is a Kia Niro.")
            rare = old_tokens - anchors if text is not old_text else set()
            # … but only as the sentence's subject ("my car is …"), not in its predicate
            # ("coffee is basically my personality")
            subject = text is not old_text or re.match(r"\s+(?:is|are|was|were)\b", text[m.end():], re.I)
            if words and subject and not words & rare and not words & anchors:
                verb = "are" if re.match(r"\s+are\b", text[m.end():], re.I) else "is"
                return f"My {m.group(1)} {verb} {new_value}."
    # a new number stands where the old statement wrote its number ("can u save my number for
    # forms, its 07700 900146" -> "…, its 07700 900927"), not on the word "number"
    if len(re.findall(r"\d", new_value)) >= 5 and re.fullmatch(r"[\d\s+()./-]+", new_value.strip()):
        spans = [(a, b) for a, b in code_spans(old_text, code_keys(old_text))
                 if len(re.findall(r"\d", old_text[a:b])) >= 5]
        if len(spans) == 1:
            a, b = spans[0]
            return old_text[:a] + new_value + old_text[b:]
    # … and so does a new sum, where the old sum its figures begin stood ("Sadeem is offering AED
    # 42,000 per month as base, and … AED 8,000 per month as housing": only the base changes)
    if MONEY_SPAN.fullmatch(new_value.strip()):
        sums = [m for m in MONEY_SPAN.finditer(old_text) if set(tokenize(m.group(0))) & anchors]
        if len(sums) == 1:
            # (the old sum's period stays when the new one says none: "£298 every month")
            period = _SUM_PERIOD.search(sums[0].group(0))
            end = sums[0].start() + period.start() if period and not _SUM_PERIOD.search(new_value) else sums[0].end()
            return old_text[: sums[0].start()] + new_value + old_text[end:]
    # only the named old value is replaced: the old statement's other rare words may be its
    # attribute ("my favourite *cuisine*"), which the restatement needs to be found; the
    # price is that an unnamed other form of the old value ("a flat white" beside "coffee")
    # survives in the restatement (docs/erasemem.md, limits)
    return substitute(old_text, anchors or old_tokens, new_value)


_SUM_PERIOD = re.compile(r"\s+(?:a|per|each|every)\s+(?:month|week|year|hour|day|shift)$", re.I)


def substitute(text: str, old_tokens: set[str], new_value: str) -> str:
    """``text`` with its old-value words replaced once by ``new_value`` (others dropped)."""
    from bemula.systems.erasemem.textutil import word_spans

    pieces: list[str] = []
    last = 0
    placed = False
    previous_end = -1
    for start, end, toks in word_spans(text):
        if toks & old_tokens:
            gap = text[last:start]
            if previous_end == last and (_JOINER.fullmatch(gap) or _INSIDE_VALUE.fullmatch(gap)):
                last = end
            else:
                pieces.append(gap)
                if not placed:
                    if gap.endswith(new_value[:1]) and not new_value[:1].isalnum():
                        pieces[-1] = gap[:-1]  # "+33 ..." -> "+386 ...", not "++386"
                    pieces.append(new_value)
                    placed = True
                last = end
            previous_end = end
    pieces.append(text[last:])
    return re.sub(r"\s{2,}", " ", "".join(pieces)).strip()


#: a gap of a word or two between two words of the old value ("2417 St. Claude Avenue,
#: apartment B"): inside the value, so it goes with it
_INSIDE_VALUE = re.compile(r"[\s,]*(?:[A-Za-z]+\.?[\s,]+){1,2}")


_CONFIRMATION = re.compile(
    r"\b(?:forg[eo]t\w*|delet\w*|remov\w*|eras\w*|wip\w*|purg\w*|won't\s+(?:remember|keep|use)|"
    r"no\s+longer|not\s+(?:keep|store|remember|use)|scrubb?\w*|dropp?\w*|clear\w*|discard\w*|"
    r"let\s+go|gone|noted|done)\b",
    re.I,
)


def is_confirmation_sentence(sentence: str) -> bool:
    """An assistant sentence confirming a removal (it tends to restate what was removed)."""
    return bool(_CONFIRMATION.search(sentence))
