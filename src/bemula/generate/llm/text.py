"""Deterministic text checks the verifiers and repairs share.

The small model's yes/no judgements are noisy, so every verifier starts with a literal,
word-boundary test (does the value actually appear?) and only asks the LLM to confirm what
the text could plausibly state. These helpers are that literal layer.
"""

from __future__ import annotations

import re

from bemula.text import CONTENT_STOPWORDS, squash

_SPACE = re.compile(r"\s+")
REMOVAL_CUE = re.compile(
    r"\b(forget|forgot|delete|deleting|remove|removing|erase|wipe|clear|purge|discard|scrub|"
    r"get rid of|drop|stop (?:using|keeping|storing|remembering)|"
    r"(?:don't|do not|no longer) (?:keep|store|remember|hold on to|use|save|retain))\b",
    re.IGNORECASE,
)


#: as written, case and spacing aside: the literal layer compares text the pipeline wrote
normalize = squash


def _mentions_normalized(text_n: str, phrase: str) -> bool:
    phrase_n = normalize(phrase)
    if not phrase_n or phrase_n not in text_n:  # cheap substring test first
        return False
    pattern = r"(?<![a-z0-9])" + re.escape(phrase_n) + r"(?![a-z0-9])"
    return re.search(pattern, text_n) is not None


def mentions(text: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``text`` as whole words (case-insensitive)."""
    return _mentions_normalized(normalize(text), phrase)


def mentions_any(text: str, phrases: list[str]) -> bool:
    text_n = normalize(text)
    return any(_mentions_normalized(text_n, p) for p in phrases)


def content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9']+", normalize(text)) if w not in CONTENT_STOPWORDS and len(w) > 2]


def asks_removal(text: str) -> bool:
    return REMOVAL_CUE.search(text) is not None


def clean_turn(text: str, *, max_chars: int = 600) -> str:
    """Tidy a free-text dialogue turn: drop role labels, quotes, a second speaker, extra length."""
    text = text.strip()
    text = re.sub(r"^(?:\*\*)?(?:user|assistant|me|you|ai)(?:\*\*)?\s*:\s*", "", text, flags=re.IGNORECASE)
    cut = re.search(r"\n\s*(?:user|assistant|ai)\s*:", text, flags=re.IGNORECASE)
    if cut:
        text = text[: cut.start()]
    text = _SPACE.sub(" ", text).strip().strip('"').strip()
    if len(text) > max_chars:
        cut_at = max(text.rfind(". ", 0, max_chars), text.rfind("? ", 0, max_chars), text.rfind("! ", 0, max_chars))
        text = text[: cut_at + 1] if cut_at > 40 else text[:max_chars].rstrip() + "…"
    return text


def good_alias(alias: str, value: str, attribute: str) -> bool:
    """An alias is kept only if it is another *form of the value*: protected values must never
    be common words, or a judge would see a leak in any answer that names the attribute.

    Kept: a short form sharing a word with the value ("O-" / "O negative"), the same digits
    ("500000" / "$500,000"), or an acronym of up to six capitals. Rejected: anything that
    repeats the attribute's words ("card number" for a card's digits) or shares nothing with
    the value.
    """
    a = normalize(alias)
    if not a or a == normalize(value) or len(a) < 2 or len(a.split()) > 4 or a in CONTENT_STOPWORDS:
        return False
    attribute_words = set(content_words(attribute))
    if attribute_words & set(content_words(alias)):
        return False
    digits = re.sub(r"\D", "", alias)
    if digits and digits == re.sub(r"\D", "", value):
        return True
    value_tokens = set(re.findall(r"[a-z0-9]+", normalize(value)))
    alias_tokens = set(re.findall(r"[a-z0-9]+", a))
    if value_tokens & alias_tokens:
        return True
    stripped = alias.strip()
    return stripped.isupper() and len(stripped) <= 6


def word_count(text: str) -> int:
    return len(text.split())
