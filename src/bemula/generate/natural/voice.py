"""Personas: how a synthetic user types (edition 2).

A bank line is written once, in a neutral register; the persona's :class:`Voice` then
renders it the way this person would type it — lower-case texting with abbreviations, a
formal writer who spells contractions out, a terse executive, a non-native writer who drops
articles, dictated run-on text, exclamations — with that person's own rate of slips (swapped,
dropped or doubled letters). Every user turn goes through the voice, requests included, so a
memory system cannot rely on clean spelling to find what to forget.

Values are protected: the caller passes the value strings in the text and the voice never
changes them (a gold answer must still be the value as written). The removal words a
validator or reader needs to see a request as a request are protected from typos too (a
request is still recognisable, but can be lower-cased, abbreviated or run on).
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bemula.validate.context import REMOVAL_WORDS

PERSONAS_FILE = Path(__file__).resolve().parent.parent / "banks" / "personas.toml"

_CONTRACTIONS = {
    "don't": "do not", "doesn't": "does not", "didn't": "did not", "can't": "cannot", "won't": "will not",
    "isn't": "is not", "aren't": "are not", "wasn't": "was not", "weren't": "were not", "I'm": "I am",
    "I've": "I have", "I'll": "I will", "I'd": "I would", "it's": "it is", "that's": "that is",
    "you're": "you are", "we're": "we are", "they're": "they are", "there's": "there is",
    "haven't": "have not", "hasn't": "has not", "wouldn't": "would not", "couldn't": "could not",
    "shouldn't": "should not", "you've": "you have", "we've": "we have", "what's": "what is",
}
_ABBREVIATIONS = {
    "you": "u", "your": "ur", "please": "pls", "thanks": "thx", "because": "bc", "really": "rly",
    "people": "ppl", "something": "smth", "tomorrow": "tmrw", "though": "tho", "probably": "prob",
    "okay": "ok", "are": "r", "with": "w/", "before": "b4", "about": "abt", "don't know": "dunno",
    "I don't know": "idk", "to be honest": "tbh", "by the way": "btw", "right now": "rn",
    "at the moment": "atm", "going to": "gonna", "want to": "wanna", "message": "msg",
}
#: never given a typo, so a request stays a request
_KEEP_SPELLING = re.compile(r"^(forget|forgetting|delete|erase|remove|wipe|drop|discard|scrap|scratch|bin|"
                            r"ditch|keep|keeping|store|storing|hold|hang|clear|purge|scrub|stop|record|notes)$",
                            re.I)
#: a sentence that already opens with a joiner is run on with a comma ("…, and then"), not "and and"
_JOINERS = {"and", "but", "so", "or", "then", "also", "plus"}
_MASK = re.compile(r"\uE000(\d+)\uE001")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'\uE000])")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*")
_FULL_STOP_BREAK = re.compile(r"\.\s+([A-Z][a-z']*)")


def _soft_lower(word: str) -> str:
    """Lower-case a sentence's first word unless it is "I" or "I'm"-like."""
    return word if word == "I" or word.startswith("I'") else word[0].lower() + word[1:]


@dataclass(frozen=True)
class Persona:
    id: str
    register: str
    lowercase: float = 0.0
    typo_rate: float = 0.0
    abbreviate: float = 0.0
    drop_final: float = 0.0
    expand: bool = False
    articles_drop: float = 0.0
    no_apostrophe: float = 0.0
    exclaim: float = 0.0
    run_on: float = 0.0
    terse: int = 0
    open: tuple[str, ...] = field(default=())
    close: tuple[str, ...] = field(default=())
    open_rate: float = 0.0
    close_rate: float = 0.0


@lru_cache(maxsize=1)
def load_personas(path: Path = PERSONAS_FILE) -> tuple[Persona, ...]:
    """The persona file, checked: unknown fields or a rate outside [0, 1] name the entry."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    known = set(Persona.__dataclass_fields__)
    out: list[Persona] = []
    for i, raw in enumerate(data.get("persona", [])):
        where = f"{path}: persona[{i}]"
        extra = set(raw) - known
        if extra:
            raise ValueError(f"{where}: unknown field(s) {sorted(extra)}")
        for key in ("lowercase", "typo_rate", "abbreviate", "drop_final", "articles_drop", "no_apostrophe",
                    "exclaim", "run_on", "open_rate", "close_rate"):
            if not 0.0 <= float(raw.get(key, 0.0)) <= 1.0:
                raise ValueError(f"{where}: {key} must be within [0, 1]")
        out.append(Persona(**{**raw, "open": tuple(raw.get("open", ())), "close": tuple(raw.get("close", ()))}))
    if len({p.id for p in out}) != len(out):
        raise ValueError(f"{path}: persona ids must be unique")
    return tuple(out)


def _typo(rng: random.Random, word: str) -> str:
    i = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(3)
    if kind == 0:  # swap two neighbours
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == 1:  # drop one
        return word[:i] + word[i + 1:]
    return word[:i] + word[i] + word[i:]  # double one


class Voice:
    """One persona's typing, driven by the instance's random stream (so output is seeded)."""

    def __init__(self, persona: Persona, rng: random.Random) -> None:
        self.persona = persona
        self.rng = rng

    def shorten(self, text: str) -> str:
        """A terse writer keeps only the first sentences of a long message."""
        n = self.persona.terse
        if n <= 0:
            return text
        parts = _SENTENCE_END.split(text)
        return " ".join(parts[:n]) if len(parts) > n else text

    def apply(self, text: str, protect: Sequence[str] = (), *, edges: bool = True) -> str:
        """``text`` as this persona types it; every string in ``protect`` is left exactly as is."""
        p, rng = self.persona, self.rng
        masked, kept = _mask(text, protect)
        if p.expand:
            masked = _sub_words(masked, _CONTRACTIONS, 1.0, rng)
        if p.run_on and rng.random() < p.run_on:
            # "It broke. Then I…" -> "it broke and then I…" (questions keep their mark)
            masked = _FULL_STOP_BREAK.sub(lambda m: (", " if m.group(1).lower() in _JOINERS
                                                     else rng.choice((", ", " and ", ", "))) + _soft_lower(m.group(1)),
                                          masked)
        if p.exclaim:
            masked = re.sub(r"\.(?=\s|$)", lambda m: rng.choice(("!", "!!")) if rng.random() < p.exclaim else ".",
                            masked)
        if p.articles_drop:
            masked = re.sub(r"\b(the|a) (?=[a-z])", lambda m: "" if rng.random() < p.articles_drop else m.group(0),
                            masked)
        if p.abbreviate:
            masked = _sub_words(masked, _ABBREVIATIONS, p.abbreviate, rng)
        if p.no_apostrophe and rng.random() < p.no_apostrophe:
            masked = re.sub(r"(?<=[A-Za-z])'(?=[a-z])", "", masked)
        if p.typo_rate:
            # the words that make a request a request keep their spelling (the validator's lexicon)
            spans = [m.span() for m in REMOVAL_WORDS.finditer(masked)]
            masked = _WORD.sub(lambda m: m.group(0) if any(a <= m.start() < b for a, b in spans)
                               else _maybe_typo(rng, m.group(0), p.typo_rate), masked)
        if edges and p.open and rng.random() < p.open_rate:
            masked = f"{rng.choice(p.open)} {masked}"
        if edges and p.close and rng.random() < p.close_rate:
            masked = f"{masked} {rng.choice(p.close)}"
        if p.lowercase and rng.random() < p.lowercase:
            masked = masked.lower()
        if p.drop_final and rng.random() < p.drop_final:
            masked = re.sub(r"\.\s*$", "", masked)
        return _MASK.sub(lambda m: kept[int(m.group(1))], masked)


def _mask(text: str, protect: Sequence[str]) -> tuple[str, list[str]]:
    """Protected strings replaced by tokens; found case-insensitively (a value that opens a
    sentence has been capitalised) and kept as written in ``text``."""
    kept: list[str] = []
    for s in sorted({s for s in protect if s}, key=len, reverse=True):
        start = 0
        while (i := text.lower().find(s.lower(), start)) >= 0:
            token = f"\uE000{len(kept)}\uE001"
            kept.append(text[i:i + len(s)])
            text = text[:i] + token + text[i + len(s):]
            start = i + len(token)
    return text, kept


def _sub_words(text: str, table: dict[str, str], rate: float, rng: random.Random) -> str:
    keys = sorted(table, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w'])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w'])", re.I)

    def repl(m: re.Match[str]) -> str:
        if rng.random() >= rate:
            return m.group(0)
        key = next((k for k in keys if k.lower() == m.group(0).lower()), m.group(0))
        out = table.get(key, m.group(0))
        return out[0].upper() + out[1:] if m.group(0)[0].isupper() and out[0].islower() else out

    return pattern.sub(repl, text)


def _maybe_typo(rng: random.Random, word: str, rate: float) -> str:
    if len(word) < 4 or "'" in word or _KEEP_SPELLING.match(word) or rng.random() >= rate:
        return word
    return _typo(rng, word)
