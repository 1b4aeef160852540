"""F5: turn a time reference in a forget request into a window, relative to the request.

"What I told you last Tuesday" only means something relative to when it is said, so every
window is computed from the request turn's timestamp. Results are whole days (the unit in
which people refer to past conversations) or a count of sessions back ("our previous
session"). Returns ``None`` when the text has no time reference we understand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from bemula.systems.erasemem.textutil import one_typo_apart

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
]
_MONTH_ABBR = {m[:3]: i + 1 for i, m in enumerate(_MONTHS)} | {"sept": 9}
_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20, "thirty": 30, "couple": 2, "a couple of": 2, "few": 3, "a few": 3,
}
_NUM = (r"(\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
        r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)")
#: number words long enough that one typo ("eigheen") still says which
_SPELLED = [w for w in _NUMBER_WORDS if " " not in w and len(w) >= 5]


def _fix_number_typos(low: str) -> str:
    """ "eigheen days ago" read as "eighteen days ago" (only before a unit of time)."""
    def fix(m: re.Match[str]) -> str:
        word = m.group(1)
        if word in _NUMBER_WORDS:
            return m.group(0)
        near = [w for w in _SPELLED if one_typo_apart(word, w)]
        return m.group(0).replace(word, near[0], 1) if len(near) == 1 else m.group(0)
    return re.sub(r"\b([a-z]{4,})(?=\s+(?:days?|weeks?|sessions|conversations|chats)\b)", fix, low)
_MONTH_RE = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_DAY_RE = r"(\d{1,2})(?:st|nd|rd|th)?"


@dataclass(frozen=True)
class TimeReference:
    """A window [start, end] (inclusive), or ``sessions_back`` sessions before the current."""

    start: datetime | None = None
    end: datetime | None = None
    sessions_back: int | None = None
    phrase: str = ""

    def contains(self, moment: datetime) -> bool:
        if self.start is None or self.end is None:
            return False
        moment = moment.replace(tzinfo=None) if self.start.tzinfo is None else moment
        return self.start <= moment <= self.end


#: counts that are not numbers: "a few weeks back" is not exactly three
_VAGUE_COUNTS = frozenset({"a few", "few", "a couple of", "couple"})


def _day_window(day: datetime, days: int = 1) -> tuple[datetime, datetime]:
    start = day.replace(hour=0, minute=0, second=0, microsecond=0)
    end = start + timedelta(days=days) - timedelta(microseconds=1)
    return start, end


def _number(text: str) -> int:
    text = text.strip().lower()
    return int(text) if text.isdigit() else _NUMBER_WORDS.get(text, 1)


def _month_number(text: str) -> int:
    return _MONTH_ABBR[text.lower()[:4] if text.lower().startswith("sept") else text.lower()[:3]]


def _dated(now: datetime, month: int, day: int, year: int | None) -> datetime | None:
    try:
        when = datetime(year or now.year, month, day, tzinfo=now.tzinfo)
    except ValueError:
        return None
    if year is None and when.date() > now.date():
        when = when.replace(year=when.year - 1)  # "on December 20" said in March: last year
    return when


#: holidays people name a conversation by: (month, first day, days long)
_HOLIDAYS = {
    "christmas eve": (12, 24, 1), "christmas day": (12, 25, 1), "christmas": (12, 24, 3), "boxing day": (12, 26, 1),
    "new year's eve": (12, 31, 1), "new years eve": (12, 31, 1), "new year's day": (1, 1, 1), "new years day": (1, 1, 1),
    "new year's": (12, 31, 2), "new years": (12, 31, 2), "new year": (12, 31, 2), "valentine's day": (2, 14, 1),
    "valentine's": (2, 14, 1), "valentines": (2, 14, 1), "halloween": (10, 31, 1),
}
_HOLIDAY_RE = "|".join(sorted((re.escape(h) for h in _HOLIDAYS), key=len, reverse=True))


def _holiday(name: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The last such holiday up to ``now`` (its whole days)."""
    month, day, days = _HOLIDAYS[name]
    when = _dated(now, month, day, None)
    return None if when is None else _day_window(when, days)


def parse_time_reference(text: str, now: datetime) -> TimeReference | None:
    """The time reference in ``text``, resolved against ``now`` (the request's timestamp)."""
    low = _fix_number_typos(text.lower())
    ref = None
    # "the thursday, wait, no, the friday": what follows a self-correction is meant
    for m in reversed(list(_CORRECTION.finditer(low))):
        corrected = low[m.end():]
        ref = _parse(corrected, now)
        if ref is not None:
            low = corrected
            break
    if ref is None:
        ref = _parse(low, now)
    if ref is None:
        return None
    # (a span up to now, "since 2pm", is already as narrow as it was said)
    if ref.start is not None and ref.end is not None and ref.end != now and (ref.end - ref.start) <= timedelta(days=1):
        ref = _narrow_to_hour(ref, low) or _narrow_to_part_of_day(ref, low)
    return TimeReference(ref.start, ref.end, ref.sessions_back, text)


#: a speaker correcting themself: "…, wait, no, …", "…, sorry, …", "…, I mean …"
_CORRECTION = re.compile(r"\b(?:wait,?\s+no|no,?\s+wait|sorry|i\s+mean|or\s+rather)\b[,—–\s]+")
#: a clock time said with am/pm: "3am", "at 11 pm", "around 2:30am"
_CLOCK = re.compile(r"\b(\d{1,2})(?::\d{2})?\s*(am|pm|a\.m\.|p\.m\.)")


def _narrow_to_hour(ref: TimeReference, low: str) -> TimeReference | None:
    """"3am friday morning": within two hours either side of the hour said, on that day
    (where "morning" alone would begin at five and miss a 3am conversation)."""
    m = _CLOCK.search(low)
    if m is None or ref.start is None:
        return None
    hour = int(m.group(1)) % 12 + (12 if m.group(2).startswith("p") else 0)
    middle = ref.start.replace(hour=hour, minute=0, second=0, microsecond=0)
    return TimeReference(middle - timedelta(hours=2), middle + timedelta(hours=2), ref.sessions_back)


#: (start hour, hours long) of each part of the day; "night" runs past midnight
_PARTS_OF_DAY = {"morning": (5, 7), "afternoon": (12, 5), "evening": (17, 7), "night": (20, 9), "lunch": (11, 4)}
_PART_RE = re.compile(r"\b(?:in\s+the\s+|this\s+|yesterday\s+|last\s+|that\s+|on\s+\w+\s+|my\s+|at\s+|during\s+)?"
                      r"(morning|afternoon|evening|night|tonight|lunch)(?:s|time|\s+break)?\b")


def _narrow_to_part_of_day(ref: TimeReference, low: str) -> TimeReference:
    """"on April 11 in the evening": two sessions on one day are told apart by the hour."""
    m = _PART_RE.search(low)
    if m is None or ref.start is None:
        return ref
    part = "night" if m.group(1) == "tonight" else m.group(1)
    hour, length = _PARTS_OF_DAY[part]
    start = ref.start.replace(hour=hour)
    return TimeReference(start, start + timedelta(hours=length) - timedelta(microseconds=1), ref.sessions_back)


def _parse(low: str, now: datetime) -> TimeReference | None:  # noqa: C901 - a flat list of cases
    # sessions: "session before last", "previous/last session|conversation|chat"
    if re.search(r"\b(session|conversation|chat|talk)\s+before\s+(the\s+)?last\b", low):
        return TimeReference(sessions_back=2)
    m = re.search(r"\b" + _NUM + r"\s+(sessions|conversations|chats)\s+ago\b", low)
    if m:
        return TimeReference(sessions_back=_number(m.group(1)))
    if re.search(r"\b(previous|last|prior|earlier)\s+(session|conversation|chat|talk)\b", low):
        return TimeReference(sessions_back=1)

    # ISO date
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", low)
    if m:
        when = _dated(now, int(m.group(2)), int(m.group(3)), int(m.group(1)))
        if when:
            return TimeReference(*_day_window(when))
    # "March 3rd[, 2026]" / "3 March [2026]" / "the 3rd of March"
    m = re.search(r"\b" + _MONTH_RE + r"\.?\s+" + _DAY_RE + r"\b(?:,?\s*(\d{4}))?", low)
    if m:
        when = _dated(now, _month_number(m.group(1)), int(m.group(2)), int(m.group(3)) if m.group(3) else None)
        if when:
            return TimeReference(*_day_window(when))
    m = re.search(r"\b" + _DAY_RE + r"\s+(?:of\s+)?" + _MONTH_RE + r"\b(?:,?\s*(\d{4}))?", low)
    if m:
        when = _dated(now, _month_number(m.group(2)), int(m.group(1)), int(m.group(3)) if m.group(3) else None)
        if when:
            return TimeReference(*_day_window(when))
    # numeric m/d
    m = re.search(r"\bon\s+(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", low)
    if m:
        year = int(m.group(3)) if m.group(3) else None
        if year is not None and year < 100:
            year += 2000
        when = _dated(now, int(m.group(1)), int(m.group(2)), year)
        if when:
            return TimeReference(*_day_window(when))

    # "the past hour", "over the last two weeks", "in the past 3 hours": a span up to now
    # ("last week" alone is the calendar week before, below)
    m = re.search(r"\b(?:past|last)\s+(?:(?:" + _NUM + r"\s+)?(hours?)|" + _NUM + r"\s+(weeks))\b", low)
    if m:
        if m.group(2):
            span = timedelta(hours=_number(m.group(1)) if m.group(1) else 1)
        else:
            span = timedelta(weeks=_number(m.group(3)))
        return TimeReference(now - span, now)
    # "the last 20 minutes": a span up to now
    m = re.search(r"\b(?:past|last)\s+(?:" + _NUM + r"\s+)?(?:minutes?|mins?)\b", low)
    if m:
        return TimeReference(now - timedelta(minutes=_number(m.group(1)) if m.group(1) else 30), now)
    # "since about 10 this morning", "since 2pm", "since lunchtime": that hour today to now
    m = re.search(r"\bsince\s+(?:about\s+|around\s+|roughly\s+)?(?:(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?"
                  r"(?:\s*(?:o'clock|this\s+(morning|afternoon|evening)|today|tonight))?|(lunch(?:time)?|noon|midday|breakfast|dinner))\b",
                  low)
    if m and (m.group(1) is None or int(m.group(1)) <= 23):
        if m.group(5):
            hour, minute = {"breakfast": 7, "dinner": 18}.get(m.group(5), 12), 0
        else:
            hour, minute = int(m.group(1)), int(m.group(2) or 0)
            afternoon = (m.group(3) or "").startswith("p") or m.group(4) in {"afternoon", "evening"}
            if afternoon and hour < 12:
                hour += 12
        start = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if start <= now:
            return TimeReference(start, now)
    # holidays: "over Christmas", "between Christmas and New Year", "on New Year's Eve"
    m = re.search(r"\bbetween\s+(" + _HOLIDAY_RE + r")\s+and\s+(" + _HOLIDAY_RE + r")\b", low)
    if m:
        first, last = _holiday(m.group(1), now), _holiday(m.group(2), now)
        if first is not None and last is not None:
            if last[0] < first[0]:
                first = (first[0].replace(year=first[0].year - 1), first[1].replace(year=first[1].year - 1))
            return TimeReference(first[0], last[1])
    m = re.search(r"\b(" + _HOLIDAY_RE + r")\b", low)
    if m:
        window = _holiday(m.group(1), now)
        if window is not None:
            return TimeReference(*window)
    # "since Monday": that day to now
    m = re.search(r"\bsince\s+(?:last\s+)?(" + "|".join(_WEEKDAYS) + r")\b", low)
    if m:
        back = (now.weekday() - _WEEKDAYS.index(m.group(1))) % 7 or 7
        start, _ = _day_window(now - timedelta(days=back))
        return TimeReference(start, now)
    # "this whole conversation", "everything in this chat": the session the request is in
    # ("my phone number from this chat" is a fact, not the session)
    if re.search(r"\bthis\s+(?:whole|entire)\s+(?:conversation|chat|session|talk)\b"
                 r"|\b(?:everything|anything|all)\b[^.?!]{0,60}\b(?:in|from|during)\s+this\s+(?:conversation|chat|session)\b"
                 r"|^\s*this\s+(?:conversation|chat|session)\s*[.!]?\s*$", low):
        return TimeReference(None, None, sessions_back=0)
    # "on the 14th": the last such day of a month up to now
    m = re.search(r"\b(?:on|from|of)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?" + _MONTH_RE + ")", low)
    if m and 1 <= int(m.group(1)) <= 31:
        day, month, year = int(m.group(1)), now.month, now.year
        for _ in range(12):
            try:
                when = now.replace(year=year, month=month, day=day, hour=0, minute=0, second=0, microsecond=0)
            except ValueError:
                when = None
            if when is not None and when.date() <= now.date():
                return TimeReference(*_day_window(when))
            month, year = (month - 1, year) if month > 1 else (12, year - 1)
    if re.search(r"\blast\s+night\b", low):  # the evening before (narrowed to the night below)
        return TimeReference(*_day_window(now - timedelta(days=1)))
    if "day before yesterday" in low:
        return TimeReference(*_day_window(now - timedelta(days=2)))
    if re.search(r"\byesterday\b", low):
        return TimeReference(*_day_window(now - timedelta(days=1)))
    if re.search(r"\b(today|this\s+mornings?|this\s+afternoons?|this\s+evenings?|tonight|(?:my\s+)?lunch(?:time|\s+break))\b",
                 low):
        return TimeReference(*_day_window(now))
    m = re.search(r"\b" + _NUM + r"\s+days?\s+(?:ago|back)\b", low)
    if m:
        return TimeReference(*_day_window(now - timedelta(days=_number(m.group(1)))))
    if re.search(r"\ba\s+fortnight\s+(?:ago|back)\b", low):
        low = low.replace("fortnight", "2 weeks")
    m = re.search(r"\b" + _NUM + r"\s+weeks?\s+(?:ago|back)\b", low)
    if m:
        start, _ = _day_window(now - timedelta(weeks=_number(m.group(1))))
        monday = start - timedelta(days=start.weekday())
        weekday = re.search(r"\b(" + "|".join(_WEEKDAYS) + r")\b", low)
        if weekday:  # "the friday, a few weeks back": that day of that week
            return TimeReference(*_day_window(monday + timedelta(days=_WEEKDAYS.index(weekday.group(1)))))
        if m.group(1).strip() in _VAGUE_COUNTS:
            # "a few weeks back", "a couple of weeks ago": a week either side of the count
            return TimeReference(*_day_window(monday - timedelta(weeks=1), 21))
        return TimeReference(*_day_window(monday, 7))
    # weekdays: "last Tuesday", "on Tuesday", "Tuesday"
    m = re.search(r"\b(?:(last|this past|past|previous|on|this)\s+)?(" + "|".join(_WEEKDAYS) + r")\b", low)
    if m:
        target = _WEEKDAYS.index(m.group(2))
        back = (now.weekday() - target) % 7
        if back == 0:
            back = 7 if (m.group(1) or "") in {"last", "past", "this past", "previous", "on", ""} else 0
        return TimeReference(*_day_window(now - timedelta(days=back)))
    if re.search(r"\b(last|previous|past)\s+weekend\b", low) or "this weekend" in low:
        back = (now.weekday() - 5) % 7 or 7
        return TimeReference(*_day_window(now - timedelta(days=back), 2))
    if re.search(r"\b(?:the|this)\s+past\s+week\b", low):  # the seven days up to now, not last calendar week
        start, _ = _day_window(now - timedelta(days=7))
        _, end = _day_window(now)
        return TimeReference(start, end)
    if re.search(r"\b(last|previous)\s+week\b", low):
        start, _ = _day_window(now - timedelta(days=7))
        monday = start - timedelta(days=start.weekday())
        return TimeReference(*_day_window(monday, 7))
    if re.search(r"\b(past|last)\s+" + _NUM + r"\s+days\b", low):
        m = re.search(r"\b(?:past|last)\s+" + _NUM + r"\s+days\b", low)
        assert m is not None
        n = _number(m.group(1))
        start, _ = _day_window(now - timedelta(days=n))
        _, end = _day_window(now)
        return TimeReference(start, end)
    if re.search(r"\bthis week\b", low):
        start, _ = _day_window(now)
        monday = start - timedelta(days=start.weekday())
        return TimeReference(*_day_window(monday, 7))
    if re.search(r"\b(last|previous)\s+month\b", low):
        first_this = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
        last_prev = first_this - timedelta(days=1)
        start = last_prev.replace(day=1)
        return TimeReference(start, first_this - timedelta(microseconds=1))
    m = re.search(r"\b(?:in|during|back in)\s+" + _MONTH_RE + r"\b", low)
    if m:
        month = _month_number(m.group(1))
        year = now.year if month <= now.month else now.year - 1
        start = datetime(year, month, 1, tzinfo=now.tzinfo)
        nxt = datetime(year + (month == 12), month % 12 + 1, 1, tzinfo=now.tzinfo)
        return TimeReference(start, nxt - timedelta(microseconds=1))
    return None
