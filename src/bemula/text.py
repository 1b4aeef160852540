"""How the benchmark reads text: the one home for folding, normalising, tokenising,
stemming, stop-words and the leak rule, so the index, the judge, the audit and the
generators' checks cannot drift apart (issue 17, item 4).

What lives here, and who reads it:

* ``fold`` -- case, accents and disguises; the first step of every reading that compares
  values (judge, audit, validator). ``fold_chars`` is the same idea one character per
  character, for showing where a match sits. ``squash`` and ``plain`` are the cheap
  as-written comparisons the generators and the validator use on text they wrote themselves.
* ``normalize_tokens`` / ``normalize`` / ``contains_sequence`` -- the canonical form of a
  value (numbers, dates, times, plurals); what the judge and the audit both match on.
* ``stem`` (plurals only, for values) and ``retrieval_stem`` (plural and verb endings, for
  search): two stemmers on purpose -- see their docstrings.
* ``retrieval_tokens`` -- what the BM25 index indexes and searches.
* the stop-word sets ``RETRIEVAL_STOPWORDS``, ``VALUE_STOPWORDS`` (+ ``GENERIC_WORDS``) and
  ``CONTENT_STOPWORDS`` -- three lists because they answer three different questions (see
  each one's comment).
* ``distinctive_tokens`` -- the leak rule's "which words of a value give it away", shared by
  the judge (answers) and the audit (stores), so both agree on what a leak is.
* ``NOT_AVAILABLE`` -- the one sentence an agent says when memory has no answer.

The canonical form
------------------

Gold values and answers go through the *same* function, so two spellings of one value meet
in the middle: case, accents, punctuation and whitespace disappear; number words become
digits ("twenty-three" -> ``23``, "1,200" -> ``1200``, "5th" -> ``5``); common date forms
become the tokens ``<year> m<MM> d<DD>`` in that fixed order ("March 5, 2024", "5 March
2024", "2024-03-05", "03/05/2024" all -> ``2024 m03 d05``; "March 2024" -> ``2024 m03``,
a sub-sequence of the full date; "May" and "March", also ordinary words, are months next to
a day or year or after "in", "early", "late", "mid", "until", ...); articles are dropped; a few address abbreviations are
expanded; and a light plural stem (``coffees`` -> ``coffee``) is applied to long words.

Before any of that, ``fold`` undoes the ways a value can be *disguised* in text, so a leak
can't hide in spelling: HTML entities are unescaped (``&amp;``, ``&#39;``, ``&eacute;``),
Unicode is NFKC-normalised (fullwidth letters become ASCII), zero-width characters and soft
hyphens are dropped, Cyrillic and Greek look-alikes of Latin letters are folded to the Latin
letter ("Сorоlla" with a Cyrillic С and о -> "corolla"), and a run of three or more single
letters (or digits) spaced out or split by one repeated punctuation mark ("p e n i c",
"p-e-n-i-c", "p.e.n.i.c", "P*E*N", "5-5-2-1") is joined into one word.

Number words are read conservatively, only as runs of number words joined by spaces or
hyphens (a comma or any other punctuation ends a run): a run is split into standard numbers
("four thousand four hundred seventy-one" = one number, ``4471``) and the numbers of a run
are written one after the other, the way codes, years and digits are read aloud ("five five
two one" and "fifty-five twenty-one" -> ``5521``, "nineteen ninety" -> ``1990``, "oh-nine" ->
``09``: "oh" is zero only next to another number word). Ordinal words become their number
("ninth" -> ``9``, like "9th"), so "the ninth of April" is the date ``m04 d09``. A lone "one"
used as a pronoun ("one of my friends", "the one I like", "no one") stays a word. Three or
more single digits in words are digits even when commas split them ("four, four, seven,
one" -> ``4471``); "double"/"triple" repeat the next digit ("double-oh-seven" -> ``007``).

Amounts: "85k", "85 grand", "85 thousand" -> ``85000`` (like "$85,000"); "1.5 million" ->
``1500000``. Slash dates without a year are dates only when the order can't be a fraction's
or the other order ("10/17" -> ``m10 d17``, "22/11" -> ``m11 d22``; "5/3" stays). Clock
times: "4 p.m.", "4pm", "16:00", "4:00 PM", "four in the afternoon" -> ``4 pm``; a 24-hour
time is read as one ("08:40" -> ``8 40 am``, "20:15" -> ``8 15 pm``); "8:40" and "four
o'clock" give no half of the day (``8 40``, ``4 oclock``); "noon" -> ``12 pm``. Weekday
abbreviations become names ("Tue/Thu" -> ``tuesday thursday``; "wed", "sat", "sun" only next
to another weekday: they are words too).

Matching is then "the value's tokens appear contiguously in the answer's tokens".
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

#: The one sentence an agent says when memory has no answer: the answering prompt asks for
#: it verbatim, the retrieval probe answers it when nothing comes back, and the rule judge
#: reads it as the probe's refusal (judges also accept paraphrases from LLM agents).
NOT_AVAILABLE = "I don't have that information."

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

#: before a month name that is also a word ("may", "march"), words that make it the month
#: even without a day or year: "in May", "early March", "mid-May", "until May"
_MONTH_CONTEXT = frozenset(
    "in during early late mid since until till through throughout last next around before after of".split()
)
#: the full names among the ambiguous months ("jan", "sep" ... alone stay words)
_MONTH_WORDS = frozenset({"may", "march"})
_TOKEN_RE = re.compile(r"\b[md]\d{2}\b|\d+(?:\.\d+)?|%|[a-z]+(?:'[a-z]+)?")
_DIGIT_GROUPS_RE = re.compile(r"(?<=\d),(?=\d{3}\b)")
_DATE_TOKEN_RE = re.compile(r"[md]\d\d")
_ORDINAL_SUFFIX_RE = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_ISO_DATE_RE = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")
_NUMERIC_DATE_RE = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})\b")
_DAY_MONTH_RE = re.compile(r"(?<![\d/.])(\d{1,2})/(\d{1,2})(?![\d/])")
#: "85k", "85 grand", "85 thousand", "1.5 million": one number
_MULTIPLIER_RE = re.compile(r"\b(\d+(?:\.\d+)?)(?:(k)\b|\s+(grand|thousand|million|billion)\b)")
_MULTIPLIERS = {"k": 1000, "grand": 1000, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
#: clock times: "4 p.m." -> "4 pm", "16:00" -> "4 pm", "4 o'clock" -> "4 oclock" (no am/pm given)
_AMPM_DOTS_RE = re.compile(r"\b([ap])\.\s?m\b\.?")
_CLOCK_RE = re.compile(r"\b(\d{1,2}):([0-5]\d)(?:\s*([ap]m)\b)?")
_OCLOCK_RE = re.compile(r"\b(\d{1,2})\s*o'?\s?clock\b")
_DAYPART_RE = re.compile(r"\b(\d{1,2})((?: oclock)?(?: \d\d)?) in the (morning|afternoon|evening)\b")
#: weekday abbreviations; "wed", "sat", "sun" are words too: read only next to another weekday
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_ABBR = {"mon": "monday", "tue": "tuesday", "tues": "tuesday", "thu": "thursday", "thur": "thursday",
                 "thurs": "thursday", "fri": "friday"}
_WEEKDAY_ABBR_AMBIGUOUS = {"wed": "wednesday", "sat": "saturday", "sun": "sunday"}


#: characters that render as nothing: zero-width space / non-joiner / joiner, word joiner,
#: BOM, soft hyphen (a value split by them must still match)
_INVISIBLE_RE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
#: Cyrillic and Greek letters that look like Latin ones (lower and upper case)
_HOMOGLYPHS = str.maketrans({
    # Cyrillic
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y",
    "\u0445": "x", "\u0456": "i", "\u0455": "s", "\u0458": "j", "\u0501": "d", "\u04bb": "h",
    "\u0410": "a", "\u0412": "b", "\u0415": "e", "\u041a": "k", "\u041c": "m", "\u041d": "h",
    "\u041e": "o", "\u0420": "p", "\u0421": "c", "\u0422": "t", "\u0423": "y", "\u0425": "x",
    "\u0406": "i", "\u0405": "s", "\u0408": "j",
    # Greek
    "\u03bf": "o", "\u03b1": "a", "\u03b5": "e", "\u03b9": "i", "\u03ba": "k", "\u03bd": "v",
    "\u03c1": "p", "\u03c4": "t", "\u03c5": "u", "\u03c7": "x",
    "\u0391": "a", "\u0392": "b", "\u0395": "e", "\u0396": "z", "\u0397": "h", "\u0399": "i",
    "\u039a": "k", "\u039c": "m", "\u039d": "n", "\u039f": "o", "\u03a1": "p", "\u03a4": "t",
    "\u03a5": "y", "\u03a7": "x",
})
#: an HTML character reference with its semicolon ("&amp;", "&#39;", "&#x27;", "&eacute;")
_ENTITY_RE = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: >= 3 single letters (or digits) each split from the next by the same separator: one
#: space, or one punctuation mark with optional spaces around it
_SPACED_LETTERS_RE = re.compile(
    r"(?<![a-z0-9])[a-z](?P<sep> | ?[-.*_\u00b7\u2022|/+~] ?)[a-z](?:(?P=sep)[a-z])+(?![a-z0-9])"
)
_SPACED_DIGITS_RE = re.compile(
    r"(?<![a-z0-9.,])\d(?P<sep> | ?[-.,*_\u00b7\u2022|/+~] ?)\d(?:(?P=sep)\d)+(?![a-z0-9]|[.,]\d)"
)


def _join_spaced(m: re.Match[str]) -> str:
    return re.sub(r"[^a-z0-9]", "", m.group(0))


def fold(text: str) -> str:
    """Lowercase, strip accents, unify quotes and dashes; undo disguises (HTML entities,
    fullwidth forms, invisible characters, Cyrillic/Greek look-alikes, spaced-out letters)."""
    if "&" in text:
        text = _ENTITY_RE.sub(lambda m: html.unescape(m.group(0)), text)
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
        text = _INVISIBLE_RE.sub("", text)
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
        text = text.translate(_HOMOGLYPHS)
        text = text.replace("\u2013", "-").replace("\u2014", " - ").replace("\u2011", "-").replace("\u2010", "-")
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("`", "'")
    text = text.lower()
    if _SPACED_LETTERS_RE.search(text):
        text = _SPACED_LETTERS_RE.sub(_join_spaced, text)
    if _SPACED_DIGITS_RE.search(text):
        text = _SPACED_DIGITS_RE.sub(_join_spaced, text)
    return text


def fold_chars(text: str) -> str:
    """Lower case and accents dropped, one output character per input character, so a
    position found in the result is the same position in ``text`` (``fold`` may join or drop
    characters; this is for pointing at where a match sits, not for matching)."""
    return "".join(unicodedata.normalize("NFKD", c)[:1].lower()[:1] or c for c in text)


def squash(text: str) -> str:
    """Case-folded, curly apostrophes straightened, whitespace runs one space: the as-written
    comparison for text the generators produced themselves (no disguises to undo, and the
    exact wording matters), e.g. "is this value stated in that turn?"."""
    return " ".join(text.replace("\u2019", "'").casefold().split())


_NON_ALNUM_RE = re.compile(r"[^a-z0-9]+")


def plain(text: str) -> str:
    """Lower case, every run of other characters one space: words only, for telling whether
    two generated value forms overlap (no stemming, no numbers read)."""
    return _NON_ALNUM_RE.sub(" ", text.lower()).strip()


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

    def day_month(m: re.Match[str]) -> str:
        a, b = int(m.group(1)), int(m.group(2))
        if 12 < a <= 31 and 1 <= b <= 12:
            return f" m{b:02d} d{a:02d} "
        if 12 < b <= 31 and 1 <= a <= 12:
            return f" m{a:02d} d{b:02d} "
        return m.group(0)  # "5/3" may be a fraction: only an order that can't be one is a date

    text = _NUMERIC_DATE_RE.sub(slash, _ISO_DATE_RE.sub(iso, text))
    return _DAY_MONTH_RE.sub(day_month, text) if "/" in text else text


_UNIT_VALUES = {**UNITS, "oh": 0}
#: words before a lone "one" that make it a pronoun ("the one", "no one", "which one")
_ONE_PRONOUN_BEFORE = frozenset(
    "the this that no any every each which some another a same other right wrong last next little "
    "new old only such".split()
)
#: words after a lone "one" that make it a pronoun ("one of", "one another")
_ONE_PRONOUN_AFTER = frozenset({"of", "another", "anyone", "else", "who"})
_WORD_SPLIT_RE = re.compile(r"([a-z]+)")
#: what may join the number words of one run: spaces and/or one hyphen ("fifty-five twenty-one")
_RUN_JOIN_RE = re.compile(r"\s*-?\s*")


def _is_number_word(w: str) -> bool:
    return w in UNITS or w in TENS or w in SCALES or w in ORDINALS or w == "oh"


def _parse_number(words: list[str], k: int) -> tuple[int | None, int, bool]:
    """One standard number starting at ``words[k]``: (value, next index, ended in an ordinal).

    Grammar: [N thousand|million] [N hundred] [and] (tens [unit] | teen | unit), each part
    optional but in that order. Where the next word cannot continue the number ("five five",
    "fifty-five twenty-one", "nineteen ninety") a new number starts.
    """
    total, cur, state, last_scale = 0, 0, "start", 10**9
    j = k
    while j < len(words):
        t = words[j]
        if t in ("zero", "oh"):
            if state != "start":
                break
            return 0, j + 1, False
        if t in UNITS:
            v = UNITS[t]
            if state in ("start", "hundred", "scale") or (state == "tens" and v < 10):
                cur += v
                state = "unit"
                j += 1
                continue
            break
        if t in TENS:
            if state in ("start", "hundred", "scale"):
                cur += TENS[t]
                state = "tens"
                j += 1
                continue
            break
        if t == "hundred":
            if state in ("unit", "tens") and 0 < cur < 100:
                cur *= 100
                state = "hundred"
                j += 1
                continue
            break
        if t in SCALES:
            scale = SCALES[t]
            if state in ("unit", "tens", "hundred") and scale < last_scale:
                total += cur * scale
                cur, state, last_scale = 0, "scale", scale
                j += 1
                continue
            break
        if t == "and":
            nxt = words[j + 1] if j + 1 < len(words) else ""
            if state in ("hundred", "scale") and (nxt in UNITS or nxt in TENS or nxt in ORDINALS):
                j += 1
                continue
            break
        if t in ORDINALS:
            v = ORDINALS[t]
            if state == "start" or (state == "tens" and v < 10) or (state in ("hundred", "scale") and v < 100):
                return total + cur + v, j + 1, True
            break
        break
    if state == "start":
        return None, k, False
    return total + cur, j, False


_DIGIT_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_REPEATED_DIGIT_RE = re.compile(rf"\b(double|triple)[\s-]+({_DIGIT_WORD})\b")
#: >= 3 single digits in words split by commas ("four, four, seven, one"): read digit by digit
_COMMA_DIGITS_RE = re.compile(rf"\b{_DIGIT_WORD}(?:(?:\s*,\s*|[\s-]+){_DIGIT_WORD}){{2,}}\b")


def _number_runs(text: str) -> str:
    """Write runs of number words as digits (see the module docstring); other words stay."""
    if "double" in text or "triple" in text:
        text = _REPEATED_DIGIT_RE.sub(
            lambda m: " ".join([m.group(2)] * (2 if m.group(1) == "double" else 3)), text
        )
    if "," in text:
        text = _COMMA_DIGITS_RE.sub(lambda m: re.sub(r"\s*,\s*", " ", m.group(0)), text)
    parts = _WORD_SPLIT_RE.split(text)  # [sep, word, sep, word, ..., sep]
    words, seps = parts[1::2], parts[0::2]
    if not any(_is_number_word(w) for w in words):
        return text
    out: list[str] = [seps[0]]
    i = 0
    while i < len(words):
        w = words[i]
        if not _is_number_word(w) or w in SCALES:
            out += [w, seps[i + 1]]
            i += 1
            continue
        # the run: number words (and "and") joined only by spaces / a hyphen
        end = i + 1
        while end < len(words) and _RUN_JOIN_RE.fullmatch(seps[end]) and (
            _is_number_word(words[end]) or words[end] == "and"
        ):
            end += 1
        run = words[i:end]
        digits: list[str] = []
        j = 0
        while j < len(run):
            if run[j] == "oh" and not digits and not (j + 1 < len(run) and run[j + 1] in _UNIT_VALUES | TENS):
                break  # "oh" is zero only next to another number word
            value, nxt, ordinal = _parse_number(run, j)
            if value is None:
                break
            digits.append("0" if run[j] in ("zero", "oh") else str(value))
            j = nxt
            if ordinal:
                break
        if not digits:
            out += [w, seps[i + 1]]
            i += 1
            continue
        if run[:j] == ["one"]:
            before = words[i - 1] if i > 0 and not seps[i].strip(" ") else ""
            after = words[i + 1] if i + 1 < len(words) and not seps[i + 1].strip(" ") else ""
            if before in _ONE_PRONOUN_BEFORE or after in _ONE_PRONOUN_AFTER:
                out += [w, seps[i + 1]]
                i += 1
                continue
        out += ["".join(digits), seps[i + j]]
        i += j
    return "".join(out)


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
        prev = tokens[i - 1] if i > 0 else ""
        if tok in MONTHS:
            month = f"m{MONTHS[tok]:02d}"
            if i + 2 < n and tokens[i + 1] == "the" and is_day(tokens[i + 2]):
                del tokens[i + 1]  # "april the 9" -> "april 9"
                n -= 1
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
            if tok in AMBIGUOUS_MONTHS and not (tok in _MONTH_WORDS and prev in _MONTH_CONTEXT):
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


def _amounts_and_times(text: str) -> str:
    """Multiplied amounts become one number; clock times a canonical form."""

    def multiply(m: re.Match[str]) -> str:
        value = float(m.group(1)) * _MULTIPLIERS[m.group(2) or m.group(3)]
        return str(int(value)) if value == int(value) else str(value)

    def clock(m: re.Match[str]) -> str:
        hour, minute, half = int(m.group(1)), m.group(2), m.group(3)
        if hour > 23:
            return m.group(0)
        if half is None and m.group(1).startswith("0") and hour > 0:
            half = "am"  # "07:50" is a 24-hour time: the morning
        elif half is None and hour > 12:
            hour, half = hour - 12, "pm"
        elif half is None and hour == 0:
            hour, half = 12, "am"
        if minute == "00":
            return f"{hour} {half or 'oclock'}"
        return f"{hour} {minute}" + (f" {half}" if half else "")

    if any(ch.isdigit() for ch in text):
        text = _MULTIPLIER_RE.sub(multiply, text)
    if "m" in text:
        text = _AMPM_DOTS_RE.sub(r"\1m", text)
    if ":" in text:
        text = _CLOCK_RE.sub(clock, text)
    if "clock" in text:
        text = _OCLOCK_RE.sub(r"\1 oclock", text)
    if " in the " in text:
        text = _DAYPART_RE.sub(
            lambda m: f"{m.group(1)}{m.group(2).replace(' oclock', '')} {'am' if m.group(3) == 'morning' else 'pm'}",
            text,
        )
    text = re.sub(r"\b(noon|midday)\b", "12 pm", text) if "noon" in text or "midday" in text else text
    return text


def _weekdays(tokens: list[str]) -> list[str]:
    """Weekday abbreviations to full names ("Mon/Wed" -> monday wednesday)."""
    out = [_WEEKDAY_ABBR.get(t, t) for t in tokens]
    for i, t in enumerate(out):
        if t in _WEEKDAY_ABBR_AMBIGUOUS:
            near = {out[j] for j in (i - 1, i + 1) if 0 <= j < len(out)} | {
                _WEEKDAY_ABBR_AMBIGUOUS.get(tokens[j], "") for j in (i - 1, i + 1) if 0 <= j < len(tokens)
            }
            if near & {*WEEKDAYS, *(d + "s" for d in WEEKDAYS)}:
                out[i] = _WEEKDAY_ABBR_AMBIGUOUS[t]
    return out


def stem(tok: str) -> str:
    """The value stemmer: a plural ``s`` off words of four letters or more ("coffees" ->
    "coffee", not "glass" or "bus"). Plurals only, on purpose: "used" and "use" or "dated"
    and "date" are different statements about a value, and the judge must not merge them
    (``retrieval_stem`` does, for recall)."""
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
    text = _number_runs(text)
    text = _amounts_and_times(text)
    text = text.replace("-", " ").replace("&", " and ")
    raw = _TOKEN_RE.findall(text)
    tokens: list[str] = []
    for tok in raw:
        if tok.endswith("'s"):
            tok = tok[:-2]
        tok = tok.replace("'", "")
        tokens.append(ABBREVIATIONS.get(tok, tok))
    tokens = _weekdays(_dates(tokens))
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


# --------------------------------------------------------------------------- retrieval

#: Words a search ignores: function words plus chat filler ("ok", "thanks", "hey") that
#: match every turn. Unstemmed, with apostrophes, as the index's tokeniser sees them. Not
#: ``VALUE_STOPWORDS``: retrieval wants to drop what makes every turn look alike; the leak
#: rule wants to drop what cannot identify a value -- "more", "only", "well" are noise in a
#: search but may be part of a value's name.
RETRIEVAL_STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does doing for from had has have
    having he her here hers him his how i if in into is it its just me my myself no nor not
    of off on once only or our ours out over own please so some such than that the their
    them then there these they this those to too under until up very was we were what when
    where which while who whom why will with would you your yours yourself i'm im i've ive
    about again also am any because before being both each few further more most other
    same should ok okay yes yeah oh well hi hey thanks thank really got get""".split()
)

_RETRIEVAL_TOKEN_RE = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@lru_cache(maxsize=1 << 16)
def retrieval_stem(token: str) -> str:
    """The search stemmer: plural and common verb endings ("allergies" -> "allergy",
    "walking" -> "walk", "moved" -> "mov"), deliberately light. Broader than ``stem``
    because a search gains from merging "moved"/"moving"/"moves" and loses nothing when a
    stem is not a word. Cached: a dialogue's vocabulary is small and every turn, unit and
    question is stemmed."""
    for suffix, min_len in (("ies", 5), ("ing", 6), ("ed", 5), ("es", 5), ("s", 4)):
        if len(token) >= min_len and token.endswith(suffix):
            if suffix == "ies":
                return token[:-3] + "y"
            if suffix == "s" and token.endswith("ss"):
                return token
            return token[: -len(suffix)]
    return token


def retrieval_tokens(text: str) -> list[str]:
    """What the lexical index indexes and searches: lower-cased word tokens, possessive
    ``'s`` dropped, stop-words and other contractions out, ``retrieval_stem``-med. Not the
    canonical form: a search needs speed and recall, not dates and number words."""
    out = []
    for token in _RETRIEVAL_TOKEN_RE.findall(text.lower().replace("\u2019", "'")):
        if token.endswith("'s"):
            token = token[:-2]
        if token in RETRIEVAL_STOPWORDS or "'" in token:
            continue
        out.append(retrieval_stem(token))
    return out


# --------------------------------------------------------------------------- generator checks

#: Words that carry no content in a generated sentence: "does this question share content
#: words with the turn that stated the fact?" (fidelity) and "does this alias repeat the
#: attribute's words?" (the LLM generator's checks). Wider than ``RETRIEVAL_STOPWORDS`` in
#: the reporting verbs a question repeats from its statement ("told", "remind", "say").
CONTENT_STOPWORDS = frozenset(
    "a an the and or but if so of to in on at by for with from about as into over after before is am are was "
    "were be been being do does did done have has had i me my mine myself you your yours we our us they them "
    "their he she it its his her this that these those what which who whom whose when where why how there "
    "here not no yes can could would should will shall may might must just also than then too very any some "
    "all again did told tell say said know remind okay ok please".split()
)


# --------------------------------------------------------------------------- the leak rule

_VALUE_STOPWORDS_RAW = """
a about above after again against all also am an and any are aren't as at be because been
before being below between both but by can could did do does doing down during each either
few for from further had has have having he her here hers herself him himself his how i if in
into is it its itself just let me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs
them themselves then there these they this those through to too under until up very was we
were what when where which while who whom why will with would you your yours yourself
yourselves i'm i've don't didn't doesn't isn't wasn't ok okay yes yeah user assistant
de la le les du des da di del della van von der den ten ter y e et und
""".split()
#: Words that never identify a value on their own, in canonical (stemmed, apostrophe-free)
#: form: function words, the speakers' names, and name particles ("de", "van", "von") that
#: would otherwise make "Rue de la Paix" leak through "de".
VALUE_STOPWORDS = frozenset(stem(w.replace("'", "")) for w in _VALUE_STOPWORDS_RAW)

_GENERIC_RAW = """
street road avenue boulevard lane drive way place square city town village county state
country office company firm school university college hospital clinic center centre
department team group inc ltd llc corp north south east west new old big small great little
year years month months day days week weeks time times doctor mr mrs ms miss sir madam
home house work job family friend friends name called named favorite favourite
medication medications medicine medicines pill pills drug drugs prescription dose treatment
therapy appointment appointments meeting visit account accounts number numbers address
phone email password pin code car vehicle model brand allergy allergies diagnosis condition
illness disease disorder symptom surgery injury loan mortgage bank card credit debit balance
payment salary income debt rent insurance policy plan subscription membership service
date birthday anniversary event trip holiday vacation flight detail details information info
thing things type kind sort stuff record records oclock
""".split()
#: Words too common in values to reveal anything alone ("Stanford University":
#: "university"): category nouns that name what was asked about, not the answer.
GENERIC_WORDS = frozenset(stem(w) for w in _GENERIC_RAW)

_DECIMAL_RE = re.compile(r"\d+\.\d+")


def distinctive_tokens(
    value_tokens: tuple[str, ...],
    question_tokens: Iterable[str] = frozenset(),
    accepted_tokens: Iterable[str] = frozenset(),
) -> list[str]:
    """Tokens of a multi-word value (canonical form) that reveal it on their own: not a
    stop-word, not a generic word, not a word the question contained, not part of an
    accepted value; words of three letters or more, numbers of three digits or more.

    The judge's partial-leak rule ("the Corolla" leaks "2009 Toyota Corolla") and the
    audit's partial-residue rule both start from this list, so what counts as a telling
    word of a value is the same in an answer and in a store. A one-word value has none:
    it appears whole or not at all."""
    if len(value_tokens) < 2:
        return []
    question_tokens = question_tokens if isinstance(question_tokens, (set, frozenset)) else frozenset(question_tokens)
    accepted_tokens = accepted_tokens if isinstance(accepted_tokens, (set, frozenset)) else frozenset(accepted_tokens)
    out = []
    for tok in value_tokens:
        if tok in VALUE_STOPWORDS or tok in GENERIC_WORDS or tok in question_tokens or tok in accepted_tokens:
            continue
        if tok.isdigit() or _DECIMAL_RE.fullmatch(tok):
            if len(tok.replace(".", "")) < 3:
                continue
        elif len(tok) < 3:
            continue
        out.append(tok)
    return out
