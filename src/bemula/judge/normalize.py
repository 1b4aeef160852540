"""Text normalisation shared by the rule judge: one canonical token sequence per text.

Gold values and answers go through the *same* function, so two spellings of one value meet
in the middle: case, accents, punctuation and whitespace disappear; number words become
digits ("twenty-three" -> ``23``, "1,200" -> ``1200``, "5th" -> ``5``); common date forms
become the tokens ``<year> m<MM> d<DD>`` in that fixed order ("March 5, 2024", "5 March
2024", "2024-03-05", "03/05/2024" all -> ``2024 m03 d05``; "March 2024" -> ``2024 m03``,
a sub-sequence of the full date); articles are dropped; a few address abbreviations are
expanded; and a light plural stem (``coffees`` -> ``coffee``) is applied to long words.

Matching is then "the value's tokens appear contiguously in the answer's tokens".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

MONTHS: dict[str, int] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sept": 9, "sep": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
    "december": 12, "dec": 12,
}
#: month names that are also ordinary words: only read as months next to a day or a year
AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar", "jan", "sep", "dec", "oct", "jun", "jul", "aug", "apr", "nov", "feb"})

UNITS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
TENS: dict[str, int] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
SCALES: dict[str, int] = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
ORDINALS: dict[str, int] = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
    "nineteenth": 19, "twentieth": 20, "thirtieth": 30,
}
ABBREVIATIONS: dict[str, str] = {
    "st": "street", "ave": "avenue", "rd": "road", "blvd": "boulevard", "apt": "apartment",
    "dr": "doctor", "mt": "mount", "ft": "feet", "lbs": "pounds", "lb": "pound", "kg": "kilograms",
    "km": "kilometers", "yrs": "years", "yr": "year", "mins": "minutes", "hrs": "hours",
    "percent": "%", "pct": "%", "n't": "not",
}
ARTICLES = frozenset({"a", "an", "the"})

_NUMBER_WORDS = set(UNITS) | set(TENS) | set(SCALES)
_TOKEN_RE = re.compile(r"\b[md]\d{2}\b|\d+(?:\.\d+)?|%|[a-z]+(?:'[a-z]+)?")
_DIGIT_GROUPS_RE = re.compile(r"(?<=\d),(?=\d{3}\b)")
_DATE_TOKEN_RE = re.compile(r"[md]\d\d")
_ORDINAL_SUFFIX_RE = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_ISO_DATE_RE = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
_NUMERIC_DATE_RE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")


def fold(text: str) -> str:
    """Lowercase, strip accents, unify quotes and dashes."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    return text.lower()


def _numeric_dates(text: str) -> str:
    """Rewrite ISO and slash dates into month-name form so one parser handles all dates."""

    def iso(m: re.Match[str]) -> str:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if 1 <= mo <= 12 and 1 <= d <= 31:
            return f" {y} m{mo:02d} d{d:02d} "
        return m.group(0)

    def slash(m: re.Match[str]) -> str:
        a, b, y = int(m.group(1)), int(m.group(2)), m.group(3)
        year = int(y) + (2000 if int(y) < 50 else 1900) if len(y) == 2 else int(y)
        month, day = (a, b) if a <= 12 else (b, a)  # US order unless the first part cannot be a month
        if 1 <= month <= 12 and 1 <= day <= 31:
            return f" {year} m{month:02d} d{day:02d} "
        return m.group(0)

    return _NUMERIC_DATE_RE.sub(slash, _ISO_DATE_RE.sub(iso, text))


def _words_to_numbers(tokens: list[str]) -> list[str]:
    """Collapse runs of number words ("two hundred and five") into one digit token."""
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ORDINALS:
            out.append(str(ORDINALS[tok]))
            i += 1
            continue
        if tok not in _NUMBER_WORDS or tok in SCALES:
            out.append(tok)
            i += 1
            continue
        total, current, j = 0, 0, i
        while j < len(tokens):
            t = tokens[j]
            if t in UNITS:
                current += UNITS[t]
            elif t in TENS:
                current += TENS[t]
            elif t in SCALES:
                scale = SCALES[t]
                if scale == 100:
                    current = max(current, 1) * 100
                else:
                    total += max(current, 1) * scale
                    current = 0
            elif t == "and" and j + 1 < len(tokens) and tokens[j + 1] in _NUMBER_WORDS and j > i:
                pass
            elif t in ORDINALS and j > i and tokens[j - 1] in TENS:
                current += ORDINALS[t]  # "twenty first"
                j += 1
                break
            else:
                break
            j += 1
        out.append(str(total + current))
        i = j
    return out


def _dates(tokens: list[str]) -> list[str]:
    """Turn "<month> <day> [<year>]", "<day> <month> [<year>]" and "<month> <year>" into
    ``<year> mMM dDD`` tokens (year first, so "March 2024" is a sub-sequence of a full date)."""
    tokens = list(tokens)
    out: list[str] = []
    i = 0
    n = len(tokens)

    def is_day(t: str) -> bool:
        return t.isdigit() and 1 <= int(t) <= 31 and len(t) <= 2

    def is_year(t: str) -> bool:
        return t.isdigit() and len(t) == 4 and 1000 <= int(t) <= 2999

    while i < n:
        tok = tokens[i]
        if tok in MONTHS:
            month = f"m{MONTHS[tok]:02d}"
            nxt = tokens[i + 1] if i + 1 < n else ""
            nxt2 = tokens[i + 2] if i + 2 < n else ""
            if is_day(nxt):
                if is_year(nxt2):
                    out += [nxt2, month, f"d{int(nxt):02d}"]
                    i += 3
                else:
                    out += [month, f"d{int(nxt):02d}"]
                    i += 2
                continue
            if is_year(nxt):
                out += [nxt, month]
                i += 2
                continue
            if tok in AMBIGUOUS_MONTHS:
                out.append(tok)
            else:
                out.append(month)
            i += 1
            continue
        if is_day(tok) and i + 2 < n and tokens[i + 1] == "of" and tokens[i + 2] in MONTHS:
            del tokens[i + 1]  # "5 of march" -> "5 march"
            n -= 1
        if is_day(tok) and i + 1 < n and tokens[i + 1] in MONTHS:
            month = f"m{MONTHS[tokens[i + 1]]:02d}"
            nxt2 = tokens[i + 2] if i + 2 < n else ""
            if is_year(nxt2):
                out += [nxt2, month, f"d{int(tok):02d}"]
                i += 3
            else:
                out += [month, f"d{int(tok):02d}"]
                i += 2
            continue
        out.append(tok)
        i += 1
    return out


def stem(tok: str) -> str:
    if len(tok) > 3 and tok.endswith("s") and not tok.endswith("ss") and not tok.isdigit():
        return tok[:-1]
    return tok


@lru_cache(maxsize=65536)
def normalize_tokens(text: str) -> tuple[str, ...]:
    """The canonical token sequence of ``text`` (cached: gold values repeat a lot)."""
    text = fold(text)
    text = _DIGIT_GROUPS_RE.sub("", text)
    text = _ORDINAL_SUFFIX_RE.sub(r"\1", text)
    text = _numeric_dates(text)
    text = text.replace("-", " ").replace("&", " and ")
    raw = _TOKEN_RE.findall(text)
    tokens: list[str] = []
    for tok in raw:
        if tok.endswith("'s"):
            tok = tok[:-2]
        tok = tok.replace("'", "")
        tokens.append(ABBREVIATIONS.get(tok, tok))
    tokens = _words_to_numbers(tokens)
    tokens = _dates(tokens)
    out: list[str] = []
    for tok in tokens:
        if tok in ARTICLES:
            continue
        # pre-normalised date tokens from _numeric_dates stay as they are
        out.append(tok if _DATE_TOKEN_RE.fullmatch(tok) else stem(tok))
    return tuple(out)


def normalize(text: str) -> str:
    """``normalize_tokens`` joined by single spaces (for display and substring checks)."""
    return " ".join(normalize_tokens(text))


def contains_sequence(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    """True when ``needle`` occurs contiguously in ``haystack`` (token boundaries respected)."""
    if not needle:
        return False
    if len(needle) == 1:
        return needle[0] in haystack
    return _padded(needle) in _padded(haystack)


@lru_cache(maxsize=4096)
def _padded(tokens: tuple[str, ...]) -> str:
    return " " + " ".join(tokens) + " "
