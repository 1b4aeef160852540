"""Small text helpers shared by the erasemem modules: sentences, content tokens, spans.

Tokens come from ``bemula.index.tokenize`` so that what we search, delete and hash is
exactly what the BM25 index sees (same lower-casing, stop words and light stemming).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from bemula.systems.erasemem.tokens import tokenize

# A sentence ends at . ! ? followed by space (memory units are sentences: a value and its
# other forms — "a flat white, coffee is my personality" — stay together).
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
# A clause also ends at ; or a dash used as a break, or ", and I ..." (intent works on clauses:
# "I no longer drink coffee — I switched to tea" is a statement and a change).
_CLAUSE_END = re.compile(
    r"(?<=[.!?;])\s+|\s+[—–]\s+|\s+-\s+|\n+"
    r"|,\s+(?:and|but|while|whereas|plus|so)\s+(?=(?:I|I'm|I’m|I've|my|My|we|our)\b)"
    r"|,\s+(?=(?:the|my|The|My)\s+(?:new|current|updated|correct|real)\b)|,\s+(?=(?:it's|it is|It's|It is)\b)"
    # "new email is sam@…, get rid of the hotmail one": an order after a comma is a clause
    r"|,\s+(?=(?:get\s+rid\s+of|delete|remove|erase|wipe|scrap|bin|ditch|forget|purge|chuck|nuke)\s+(?:the|my)\b)"
)
#: a word as written: letters of any script ("Zsófia", "Németh"), digits, inner ' and -
_WORD = re.compile(r"[^\W_](?:[^\W_]|['’\-])*")
#: a list item's marker at the start of a line or sentence: "- sertraline 50 mg", "2) the deposit"
BULLET = re.compile(r"^\s*(?:[-•*–]|\d{1,2}[.)])\s+")

REDACTED = "[removed]"


#: words that end with a dot without ending a sentence ("Dr. Okafor", "St. Mary's", "e.g.")
_ABBREVIATIONS = frozenset(
    "dr mr mrs ms mx prof st jr sr mt vs etc approx dept inc ltd ave e.g i.e".split()
)


def _ends_with_abbreviation(text: str) -> bool:
    """``text`` (ending with ".") ends with an abbreviation or an initial ("J."): a plain
    look at its last word, no regex (it runs on every sentence of every user turn)."""
    word = text[text.rfind(" ") + 1 : -1]
    if len(word) == 1:
        return word.isupper()  # an initial
    return word.lstrip("(\"'[").lower() in _ABBREVIATIONS


def _merge_abbreviations(parts: list[str]) -> list[str]:
    """Undo splits after "Dr." / "St." / initials: they end words, not sentences."""
    merged: list[str] = []
    for part in parts:
        last = merged[-1] if merged else ""
        if last.endswith(".") and _ends_with_abbreviation(last):
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return merged


def sentence_pieces(text: str) -> list[str]:
    """The sentences of ``text`` as written: split at end punctuation and line breaks, not
    after an abbreviation ("Mr. Delacroix"); a question stays apart from its answer."""
    return _merge_abbreviations([p.strip() for p in _SENTENCE_END.split(text) if p.strip()])


def split_sentences(text: str) -> list[str]:
    """Split a turn into sentences (what a memory unit holds).

    A question the speaker answers at once stays with its answer ("My gym days? That's
    Tuesdays." is one statement), so an attribute is never separated from its value. Only a
    question that is a bare "my …" phrase is one: a question to the assistant ("Split it or
    not?", "What should I look for?") is followed by a statement of its own. (Merging every
    question with the next sentence made 3,604 such pairs in the dev benchmark and the
    hand-written set; none was a question the user answered. The statement then went with
    the question's words: its rarest words were taken for its value.)
    """
    parts = sentence_pieces(text)
    if len(parts) == 1:
        return parts
    merged: list[str] = []
    for part in parts:
        if merged and (_SELF_QUESTION.match(merged[-1]) and not part.endswith("?") or _is_aside(part)):
            merged[-1] = f"{merged[-1]} {part}"
        else:
            merged.append(part)
    return merged


#: a question that only names one of the user's things, answered by the next sentence
_SELF_QUESTION = re.compile(r"(?:[\w'’]+,\s+)?(?:(?:and|so|oh|as for)\s+)?(?:my|our)\s+[\w'’-]+(?:\s+[\w'’-]+){0,3}\?$", re.I)


_ASIDE_WORDS = re.compile(r"[A-Za-z']+")
_LABELLED = re.compile(r":\s*\w")
_DIGIT = re.compile(r"\d")
_SELF_WORDS = frozenset(("my", "mine", "i'm", "me"))


def _is_aside(sentence: str) -> bool:
    """A short remark with no name, number or "my" in it ("Just keep that in mind.",
    "Anyway."): it belongs to the sentence before it, not in a memory unit of its own."""
    if len(sentence) > 48 or _LABELLED.search(sentence) or BULLET.match(sentence):
        return False  # (nor a label and its value, "Main topic: condo assignment.", nor a list's line)
    words = _ASIDE_WORDS.findall(sentence)
    if len(words) > 6 or _DIGIT.search(sentence):
        return False
    if not _SELF_WORDS.isdisjoint(w.lower() for w in words):
        return False
    return not any(w[0].isupper() for w in words[1:] if w not in ("I", "I'd", "I'm", "I've", "I'll"))


def split_clauses(text: str) -> list[str]:
    """Split a turn into clauses (what intent detection classifies one by one)."""
    parts = _merge_abbreviations([p.strip() for p in _CLAUSE_END.split(text) if p and p.strip()])
    return [p for p in parts if any(ch.isalnum() for ch in p)]


def content_tokens(text: str) -> list[str]:
    """The index's tokens for ``text`` (stop words dropped, lightly stemmed)."""
    return tokenize(text)


def token_set(text: str) -> set[str]:
    return set(tokenize(text))


def word_spans(text: str) -> list[tuple[int, int, set[str]]]:
    """(start, end, normalised tokens) for every word of ``text`` that has any token."""
    spans: list[tuple[int, int, set[str]]] = []
    for match in _WORD.finditer(text):
        toks = _word_tokens(match.group(0))
        if toks:
            spans.append((match.start(), match.end(), set(toks)))
    return spans


@lru_cache(maxsize=1 << 15)
def _word_tokens(word: str) -> frozenset[str]:
    """One word's tokens (cached: purges and scrubs re-read the same vocabulary)."""
    return frozenset(tokenize(word))


def redact_tokens(text: str, tokens: set[str] | frozenset[str],
                  beside_only: set[str] | frozenset[str] = frozenset()) -> tuple[str, int]:
    """Replace every word carrying a token in ``tokens`` by a marker; returns (text, count).

    Adjacent redacted words collapse into one marker so a removed multi-word value leaves
    no trace of its length. A token in ``beside_only`` (a word a removed name shares with a
    kept one: "Dental" of "Leith Walk Dental" beside "Portobello Family Dental") is blanked
    only next to a word of ``tokens`` that is not in it.
    """
    if not tokens:
        return text, 0
    spans = word_spans(text)
    hit = [bool(toks & tokens) for _, _, toks in spans]
    if beside_only:
        own = [bool(toks & tokens - beside_only) for _, _, toks in spans]
        for n in range(len(spans)):
            if hit[n] and not own[n]:
                hit[n] = (n > 0 and own[n - 1]) or (n + 1 < len(spans) and own[n + 1])
    pieces: list[str] = []
    last = 0
    count = 0
    previous_redacted_end = -1
    for (start, end, _), blank in zip(spans, hit, strict=True):
        if blank:
            gap = text[last:start]
            if previous_redacted_end == last and re.fullmatch(r"[\s.@_+:/'’-]*", gap):
                last = end  # merge with the marker just written
            else:
                pieces.append(gap)
                pieces.append(REDACTED)
                last = end
            previous_redacted_end = end
            count += 1
    pieces.append(text[last:])
    return "".join(pieces), count


def one_typo_apart(a: str, b: str, min_length: int = 0) -> bool:
    """Equal, or one letter dropped, added or changed ("podccast" for "podcast", "eigheen"
    for "eighteen"); words shorter than ``min_length`` must be equal."""
    if a == b:
        return True
    if min(len(a), len(b)) < min_length or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def phrase_spans(text: str, phrases: set[tuple[str, ...]] | frozenset[tuple[str, ...]]) -> list[tuple[int, int]]:
    """(start, end) of every stretch of ``text`` whose content tokens are one of ``phrases``,
    in order and one after the other (stop words between them are inside the span: "aisle
    seat near the front" for ``("aisle", "seat", "near", "front")``); sorted, not overlapping."""
    if not phrases:
        return []
    flat = [(token, match.start(), match.end()) for match in _WORD.finditer(text) for token in tokenize(match.group(0))]
    tokens = [t for t, _, _ in flat]
    found: list[tuple[int, int]] = []
    for phrase in phrases:
        n = len(phrase)
        found += [(flat[i][1], flat[i + n - 1][2]) for i in range(len(flat) - n + 1) if tuple(tokens[i : i + n]) == phrase]
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def literal_pattern(literals: list[str] | tuple[str, ...]) -> str:
    """A regular expression matching any of ``literals`` (plain strings), written as a trie:
    "remove|removed|remind" becomes "rem(?:ind|ove(?:d)?)". Python's engine tries a flat
    alternation's branches one by one at every position; the trie shares their prefixes, so a
    screen of two hundred words runs several times faster and matches the same texts."""
    trie: dict[str, Any] = {}
    for literal in literals:
        node = trie
        for ch in literal:
            node = node.setdefault(ch, {})
        node[""] = {}

    def pattern(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        if len(branches) == 1 and "" not in node:
            return branches[0]
        group = "(?:" + "|".join(branches) + ")"
        return group + "?" if "" in node else group

    return pattern(trie)
