"""One value, many spellings: codes, numbers and phone numbers compared by what they say.

People write the same identifier several ways — "SV-5520-781" and "SV5520781", "+44 7700
900461" and "07700 900 461", "3860", "3-8-6-0" and "thirty-eight sixty". A request names one
spelling; every spelling must go. So a value with a digit in it is reduced to *keys*:

* its letters and digits alone, lower-cased ("sv5520781"), for codes of 4+ characters;
* for a long number (9+ digits), its last nine digits, so a country code or a trunk "0"
  does not make two spellings of one phone number differ;
* number words read as digits, each word a group ("thirty-eight sixty" -> "3860",
  "five five two one" -> "5521", "oh seven" -> "07");
* an amount with thousands separators as the digits of its whole part ("$1,200" and
  "1 200" -> "1200");
* a day of a month by month and day ("April 23", "23rd of April", "4/23" -> one date key),
  only where the caller asks for it (``date_keys``): the same date is often another fact's.

``code_spans`` finds every stretch of a text (letters/digits joined by spaces, dashes, dots
or slashes; or a run of number words) whose key is one of the given keys.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from functools import lru_cache

_UNITS = {
    "zero": 0, "oh": 0, "o": 0, "nought": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
#: words that multiply what comes before them: "twelve hundred" is 1200, not "12" "100"
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORD = r"(?:" + "|".join(sorted([*_UNITS, *_TENS, *_SCALES], key=len, reverse=True)) + r")"
#: a run of two or more number words ("thirty-eight sixty", "five five two one", "oh seven")
_WORD_RUN = re.compile(
    r"\b" + _NUMBER_WORD + r"(?:-" + _NUMBER_WORD + r")?(?:[\s,-]+" + _NUMBER_WORD + r"(?:-" + _NUMBER_WORD + r")?)+\b",
    re.I,
)
#: one piece of a code: letters with a digit ("LM21", "5520"), or a capitalised letter group
#: ("HZK", "SV")
_PIECE = r"\+?(?:[A-Za-z]*\d[A-Za-z0-9]*|[A-Z]{2,}(?![a-z]))"
#: pieces joined by separators ("SV-5520-781", "+44 7700 900461", "3-8-6-0", "LM21 HZK"); the
#: whole run is the code: "LM21" alone is not "LM21 HZK" (nor "LM21 HZT", its near miss)
_CODE_RUN = re.compile(r"(?<![\w+])" + _PIECE + r"(?:[ \-./]" + _PIECE + r")*(?![\w])")
MIN_CODE = 4
PHONE_TAIL = 9
#: an amount written with thousands separators ("$1,200", "NOK 287,400", "287 400", "6'000"):
#: its digits are one number, whatever separates the groups ("1200" everywhere else)
_AMOUNT = re.compile(r"(?<![\w.,'])\d{1,3}(?:[,'\u00a0\u202f ]\d{3})+(?:\.\d+)?(?![\d])")
#: an amount in thousands or millions: "2.5k", "45K", "£1.2m" (not "5km", "3mm")
_SHORT_AMOUNT = re.compile(r"(?<![\w.,'])(\d{1,4}(?:[.,]\d{1,2})?)([kKmM])(?![\w])")


def _group(word: str) -> str | None:
    """One spoken group as digits: "thirty-eight" -> "38", "sixty" -> "60", "five" -> "5"."""
    word = word.lower()
    if "-" in word:
        tens, _, unit = word.partition("-")
        if tens in _TENS and unit in _UNITS and _UNITS[unit] < 10:
            return str(_TENS[tens] + _UNITS[unit])
        return None
    if word in _TENS:
        return str(_TENS[word])
    if word in _UNITS:
        return str(_UNITS[word])
    return None


def spoken_digits(text: str) -> str | None:
    """A run of number words read as the digits people mean by it, or ``None``: digit by
    digit ("five five two one" -> "5521"), or as a quantity when it has a scale word
    ("twelve hundred" -> "1200", "six thousand five hundred" -> "6500")."""
    words = [w.lower() for w in re.split(r"[\s,]+", text.strip()) if w]
    if len(words) < 2:
        return None
    if any(w in _SCALES for w in words):
        return _quantity(words)
    groups = [_group(w) for w in words]
    if any(g is None for g in groups):
        return None
    return "".join(groups)  # type: ignore[arg-type]


def _quantity(words: list[str]) -> str | None:
    total, current = 0, 0
    for word in words:
        if word == "thousand":
            total, current = total + max(current, 1) * 1000, 0
        elif word == "hundred":
            current = max(current, 1) * 100
        else:
            group = _group(word)
            if group is None:
                return None
            current += int(group)
    return str(total + current)


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@lru_cache(maxsize=1 << 14)
def keys_of(text: str) -> frozenset[str]:
    """The keys of one spelling (empty when it is not a code or number)."""
    keys: set[str] = set()
    spoken = spoken_digits(text)
    if spoken and len(spoken) >= 3:
        keys.add(spoken)
    squashed = _squash(text)
    if len(squashed) >= MIN_CODE and any(ch.isdigit() for ch in squashed):
        keys.add(squashed)
        digits = re.sub(r"\D", "", squashed)
        if len(digits) >= PHONE_TAIL and len(digits) >= len(squashed) - 1:
            keys.add(digits[-PHONE_TAIL:])
    return frozenset(keys)


def code_keys(text: str) -> frozenset[str]:
    """Keys of every code or spoken number in ``text`` (a request phrase, a deleted unit)."""
    keys: set[str] = set()
    for match in _WORD_RUN.finditer(text):
        keys |= keys_of(match.group(0))
    for match in _CODE_RUN.finditer(text):
        if any(ch.isdigit() for ch in match.group(0)):
            keys |= keys_of(match.group(0))
    for match in _AMOUNT.finditer(text):
        keys |= _amount_keys(match.group(0))
    for match in _SHORT_AMOUNT.finditer(text):
        keys |= _short_amount_keys(match)
    return frozenset(keys)


def _short_amount_keys(match: re.Match[str]) -> frozenset[str]:
    """ "€2.5k" is "2,500 euros" ("2500"), "45k" is "45,000", "£1.2m" is "£1,200,000"."""
    whole = round(float(match.group(1).replace(",", ".")) * (1_000 if match.group(2).lower() == "k" else 1_000_000))
    return frozenset({str(whole)}) if len(str(whole)) >= MIN_CODE else frozenset()


def _amount_keys(amount: str) -> frozenset[str]:
    """ "1,200" and "287 400.50" as the digits of their whole part ("1200", "287400")."""
    digits = re.sub(r"\D", "", amount.split(".")[0])
    return frozenset({digits}) if len(digits) >= MIN_CODE else frozenset()


_MONTH_NUMBERS = {
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10,
    "nov": 11, "dec": 12,
}
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_ORDINAL = r"(?:st|nd|rd|th)?"
#: a day of a month in the ways people write it: "April 23", "Apr. 23rd", "23 April", "the 23rd
#: of April", "4/23" (a year after it is allowed and ignored)
_DATE = re.compile(
    rf"\b(?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}}){_ORDINAL}\b"
    rf"|\b(?P<d2>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<m2>{_MONTH})\b"
    r"|(?<![\d/.])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?:\d{4}|\d{2}))?(?![\d/])",
    re.I,
)
#: a sum of money with its currency and period, whole: "EGP 350,000", "$3,080 a year", "1,400 kr a week",
#: "$400 Canadian every month"
MONEY_SPAN = re.compile(
    r"(?:(?<![\w$€£¥₹])(?:(?-i:USD|EUR|GBP|AED|EGP|INR|CAD|AUD|NZD|CHF|JPY|CNY|SEK|NOK|DKK|PLN|ZAR|NGN|KES|GHS|SAR|QAR|MXN|BRL|SGD|HKD|TRY|THB|MYR|PHP|IDR|VND|KRW|CZK|HUF|RON|ILS)|rs\.?)\s?|[$€£¥₹]\s?)\d(?:[\d,.]*\d)?(?:\s?[km]\b|\s+(?:million|thousand|grand)\b)?"
    # (whose dollar: "$400 Canadian every month")
    r"(?:\s+(?-i:[A-Z][a-z]+an)\b)?(?:\s+(?:a|per|each|every)\s+(?:month|week|year|hour|day|shift)\b)?"
    r"|(?<![\w.,])\d[\d,.]*(?:\s?[kp]\b|\s+(?:pounds?|quid|dollars?|euros?|bucks|rupees?|rs|kr|zł|zl|riyals?|dirhams?|"
    r"rand|yen|yuan|francs?|naira|cedis?|shillings?|pesos?|lira|won|baht|ringgit|dinars?|(?-i:[A-Z]{3}))(?!\w))"
    r"(?:\s+(?:a|per|each|every)\s+(?:month|week|year|hour|day|shift)\b)?"
    # (a bare figure said by its period: "My mortgage is 1,840 a month")
    r"|(?<![\w.,])\d[\d,.]*\d\s+(?:a|per)\s+(?:month|week|year)\b", re.I)


def sum_figures(text: str) -> set[str]:
    """The leading figures of a sum, which say it in memory's tokens: "42" of "AED 42,000 per
    month" (not "000", a group of thousands every such sum has, nor a single digit); a sum of
    more figures goes by its code key as well."""
    return {g for g in re.findall(r"(?<![\d,.])\d+", text) if len(g) >= 2}


#: date keys are marked so they never meet a code's key
DATE_KEY = "date:"


#: how the memory a request is resolved in writes a date in figures: "dm" (3/4 is 3 April),
#: "md" (3/4 is March 4) or ``None`` (no sign either way: both). Set by the system around a
#: request (``numeric_date_order``) so that "forget the 3rd of April thing" leaves "working
#: 4/3" in a memory that writes day first.
DATE_ORDER: ContextVar[str | None] = ContextVar("erasemem_date_order", default=None)


def _date_match_keys(m: re.Match[str]) -> frozenset[str]:
    if m.group("a"):
        a, b = int(m.group("a")), int(m.group("b"))
        # "4/23" is April 23 and "23/4" the same day; "4/11" may be either, unless the memory
        # says which way round it writes them
        order = DATE_ORDER.get()
        both = [(b, a)] if order == "dm" else [(a, b)] if order == "md" else [(a, b), (b, a)]
        pairs = both if a <= 12 and b <= 12 else [(a, b)] if a <= 12 else [(b, a)]
    else:
        month = _MONTH_NUMBERS[(m.group("m1") or m.group("m2"))[:3].lower()]
        pairs = [(month, int(m.group("d1") or m.group("d2")))]
    return frozenset(f"{DATE_KEY}{mo:02d}{day:02d}" for mo, day in pairs if 1 <= mo <= 12 and 1 <= day <= 31)


def numeric_date_order(texts: list[str]) -> str | None:
    """Which way round ``texts`` (a memory's turns, in order) write a day and a month in
    figures: "dm", "md" or ``None``. Evidence: a date that can only be read one way ("23/4"),
    and a date in figures said again in words in its own turn or the next ("3/4 at 3:20" …
    "Saved: 3 April at 15:20")."""
    day_first = month_first = 0
    for i, text in enumerate(texts):
        if "/" not in text:
            continue
        for m in _DATE.finditer(text):
            if not m.group("a"):
                continue
            a, b = int(m.group("a")), int(m.group("b"))
            if a > 12 >= b:
                day_first += 1
            elif b > 12 >= a:
                month_first += 1
            elif a != b:
                for w in _DATE.finditer(" ".join(texts[i:i + 2])):
                    if w.group("a"):
                        continue
                    said = (_MONTH_NUMBERS[(w.group("m1") or w.group("m2"))[:3].lower()], int(w.group("d1") or w.group("d2")))
                    day_first += said == (b, a)
                    month_first += said == (a, b)
    return "dm" if day_first > month_first else "md" if month_first > day_first else None


def date_spans(text: str) -> list[tuple[int, str]]:
    """(position, text) of every day-of-month date ``text`` writes ("April 14", "the 14th of April", "4/14")."""
    return [(m.start(), m.group(0)) for m in _DATE.finditer(text) if _date_match_keys(m)]


def date_keys(text: str) -> frozenset[str]:
    """Keys of every day-of-month date in ``text``: "April 23", "23rd April" and "4/23" share one."""
    keys: set[str] = set()
    for m in _DATE.finditer(text):
        keys |= _date_match_keys(m)
    return frozenset(keys)


def might_spell(text: str, keys: frozenset[str] | set[str]) -> bool:
    """A cheap screen before ``code_spans``: a key's last three characters appear once
    separators are dropped, or number words or a short amount ("2.5k") do, or (for a date
    key) a date does."""
    joined, has_date, spelled = _screen_of(text)
    if has_date and any(key.startswith(DATE_KEY) for key in keys):
        return True
    return spelled or any(key[-3:] in joined for key in keys)


@lru_cache(maxsize=1 << 16)
def _screen_of(text: str) -> tuple[str, bool, bool]:
    """What ``might_spell`` looks at, once per text: every request scans every unit and turn.

    The patterns run case-sensitively on the lower-cased text (several times faster than
    their case-blind twins, same answer), and a date is looked for only where a digit is."""
    lowered = text.lower()
    has_date = _DIGIT.search(text) is not None and _DATE_LOWERED.search(lowered) is not None
    spelled = _WORD_RUN_LOWERED.search(lowered) is not None or (
        _DIGIT.search(text) is not None and _SHORT_AMOUNT.search(text) is not None)
    return lowered.translate(_SEPARATORS), has_date, spelled


_SEPARATORS = str.maketrans("", "", " -./+")
_DIGIT = re.compile(r"\d")
_DATE_LOWERED = re.compile(_DATE.pattern)
_WORD_RUN_LOWERED = re.compile(_WORD_RUN.pattern)


def code_spans(text: str, keys: frozenset[str] | set[str]) -> list[tuple[int, int]]:
    """(start, end) of every stretch of ``text`` that spells one of ``keys``."""
    if not keys or not might_spell(text, keys):
        return []
    spans: list[tuple[int, int]] = []
    for match in _WORD_RUN.finditer(text):
        if keys_of(match.group(0)) & keys:
            spans.append(match.span())
    for match in _CODE_RUN.finditer(text):
        run = match.group(0)
        if any(ch.isdigit() for ch in run) and keys_of(run) & keys:
            spans.append(match.span())
    for match in _AMOUNT.finditer(text):
        if _amount_keys(match.group(0)) & keys:
            spans.append(match.span())
    for match in _DATE.finditer(text):
        if _date_match_keys(match) & keys:
            spans.append(match.span())
    for match in _SHORT_AMOUNT.finditer(text):
        if _short_amount_keys(match) & keys:
            spans.append(match.span())
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def redact_spans(text: str, spans: list[tuple[int, int]], marker: str) -> str:
    out, last = [], 0
    for start, end in spans:
        out.append(text[last:start])
        out.append(marker)
        last = end
    out.append(text[last:])
    return "".join(out)
