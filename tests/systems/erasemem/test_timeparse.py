"""F5 time windows, worked out by hand relative to Thursday 2026-03-12 15:00."""

from __future__ import annotations

from datetime import datetime

import pytest

from bemula.systems.erasemem.timeparse import parse_time_reference

NOW = datetime(2026, 3, 12, 15, 0)  # a Thursday


def _day(y: int, m: int, d: int) -> tuple[datetime, datetime]:
    return datetime(y, m, d), datetime(y, m, d, 23, 59, 59, 999999)


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("what I told you yesterday", _day(2026, 3, 11)),
        ("what I said two days ago", _day(2026, 3, 10)),
        ("everything from 3 days ago", _day(2026, 3, 9)),
        ("what I told you last Tuesday", _day(2026, 3, 10)),
        ("what I said on Monday", _day(2026, 3, 9)),
        ("our chat on March 3rd", _day(2026, 3, 3)),
        ("what I mentioned on 7 February", _day(2026, 2, 7)),
        ("the conversation on 2026-01-15", _day(2026, 1, 15)),
        ("earlier today", _day(2026, 3, 12)),
        ("the day before yesterday", _day(2026, 3, 10)),
        ("last week", (datetime(2026, 3, 2), datetime(2026, 3, 8, 23, 59, 59, 999999))),
    ],
)
def test_windows(phrase: str, expected: tuple[datetime, datetime]) -> None:
    ref = parse_time_reference(phrase, NOW)
    assert ref is not None, phrase
    assert (ref.start, ref.end) == expected


def test_last_weekday_on_same_weekday_goes_back_a_week() -> None:
    ref = parse_time_reference("what I said last Thursday", NOW)
    assert ref is not None and (ref.start, ref.end) == _day(2026, 3, 5)


def test_sessions_back() -> None:
    ref = parse_time_reference("what I said in our previous session", NOW)
    assert ref is not None and ref.sessions_back == 1
    ref = parse_time_reference("everything from our last conversation", NOW)
    assert ref is not None and ref.sessions_back == 1
    ref = parse_time_reference("everything from the session before last", NOW)
    assert ref is not None and ref.sessions_back == 2


def test_no_time_reference() -> None:
    assert parse_time_reference("my favourite colour", NOW) is None


def test_month_in_the_future_means_last_year() -> None:
    ref = parse_time_reference("what I said on December 20", NOW)
    assert ref is not None and (ref.start, ref.end) == _day(2025, 12, 20)


def test_part_of_day_narrows_the_window() -> None:
    ref = parse_time_reference("I rambled on March 3rd in the evening", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 3, 3, 17), datetime(2026, 3, 3, 23, 59, 59, 999999))
    ref = parse_time_reference("what I said yesterday morning", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 3, 11, 5), datetime(2026, 3, 11, 11, 59, 59, 999999))
    ref = parse_time_reference("last Tuesday, in the night", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 3, 10, 20), datetime(2026, 3, 11, 4, 59, 59, 999999))


def test_numbers_past_twelve_and_one_typo_in_a_number_word() -> None:
    """"eighteen days ago", and "eigheen days ago" typed in a hurry, are the same day."""
    now = datetime(2026, 3, 20, 10, 0)
    exact = parse_time_reference("our chat from eighteen days ago", now)
    typo = parse_time_reference("our chat from eigheen days ago", now)
    assert exact is not None and typo is not None
    assert exact.start == typo.start == datetime(2026, 3, 2)
    assert parse_time_reference("those days ago", now) is None


def test_a_self_correction_means_what_follows_it() -> None:
    """"on Monday, sorry, I mean Tuesday": the Tuesday (Thursday 12 March -> 10 March)."""
    ref = parse_time_reference("what I said on Monday, sorry, I mean Tuesday", NOW)
    assert ref is not None and (ref.start, ref.end) == _day(2026, 3, 10)
    ref = parse_time_reference("the monday, wait, no, the tuesday", NOW)
    assert ref is not None and (ref.start, ref.end) == _day(2026, 3, 10)
    # an apology with no time after it leaves the time before it alone
    ref = parse_time_reference("what I told you on Monday, sorry", NOW)
    assert ref is not None and (ref.start, ref.end) == _day(2026, 3, 9)


def test_a_clock_time_narrows_the_day_to_two_hours_either_side() -> None:
    """"3am on Tuesday" is 01:00-05:00 on 10 March; "morning" alone would start at 05:00."""
    ref = parse_time_reference("that night, like 3am tuesday morning", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 3, 10, 1), datetime(2026, 3, 10, 5))
    ref = parse_time_reference("on Monday at 9pm", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 3, 9, 19), datetime(2026, 3, 9, 23))


def test_the_past_week_is_the_seven_days_up_to_now() -> None:
    """"the past week" on Thursday 12 March: 5 March 00:00 to the end of 12 March (not the
    calendar week before, which "last week" means)."""
    ref = parse_time_reference("everything from the past week", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 3, 5), datetime(2026, 3, 12, 23, 59, 59, 999999))


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        # a span up to the request: an hour, N hours, N weeks ("last week" alone stays the
        # calendar week before, above)
        ("whatever I told you in the past hour", datetime(2026, 3, 12, 14, 0), NOW),
        ("everything from the last 3 hours", datetime(2026, 3, 12, 12, 0), NOW),
        ("our chats over the last two weeks", datetime(2026, 2, 26, 15, 0), NOW),
        ("everything since Monday", datetime(2026, 3, 9), NOW),
        # the 14th has not come yet in March: February's
        ("what we discussed on the 14th", datetime(2026, 2, 14), datetime(2026, 2, 14, 23, 59, 59, 999999)),
        ("what I said on the 2nd", datetime(2026, 3, 2), datetime(2026, 3, 2, 23, 59, 59, 999999)),
        # the evening before, to early morning
        ("what I told you last night", datetime(2026, 3, 11, 20, 0), datetime(2026, 3, 12, 4, 59, 59, 999999)),
    ],
)
def test_spans_up_to_now_a_day_of_the_month_and_last_night(phrase: str, start: datetime, end: datetime) -> None:
    ref = parse_time_reference(phrase, NOW)
    assert ref is not None, phrase
    assert (ref.start, ref.end) == (start, end)


@pytest.mark.parametrize("phrase", ["scrap this whole conversation", "everything I said in this chat",
                                    "this conversation"])
def test_this_conversation_is_the_current_session(phrase: str) -> None:
    ref = parse_time_reference(phrase, NOW)
    assert ref is not None and ref.sessions_back == 0


def test_a_fact_from_this_chat_is_no_window() -> None:
    # "delete my phone number from this chat" names a fact; the chat says where it was said
    assert parse_time_reference("my phone number from this chat", NOW) is None


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        # minutes up to now; an hour said after "since" starts the span, up to now
        ("the last 20 minutes of this chat", datetime(2026, 3, 12, 14, 40), NOW),
        ("everything I said since about 10 this morning", datetime(2026, 3, 12, 10, 0), NOW),
        ("what I told you since 2pm", datetime(2026, 3, 12, 14, 0), NOW),
        ("since lunchtime", datetime(2026, 3, 12, 12, 0), NOW),
        # "back" is "ago"; "from the 14th" is "on the 14th"
        ("whatever I said two days back", datetime(2026, 3, 10), datetime(2026, 3, 10, 23, 59, 59, 999999)),
        ("our conversation from the 14th", datetime(2026, 2, 14), datetime(2026, 2, 14, 23, 59, 59, 999999)),
        # holidays: the last one up to now, and a span between two of them
        ("what I said over Christmas", datetime(2025, 12, 24), datetime(2025, 12, 26, 23, 59, 59, 999999)),
        ("anything between Christmas and New Year", datetime(2025, 12, 24), datetime(2026, 1, 1, 23, 59, 59, 999999)),
        # a lunch break is today, late morning to mid-afternoon
        ("what we discussed during my lunch break", datetime(2026, 3, 12, 11, 0), datetime(2026, 3, 12, 14, 59, 59, 999999)),
    ],
)
def test_minutes_hours_since_holidays_and_lunch(phrase: str, start: datetime, end: datetime) -> None:
    ref = parse_time_reference(phrase, NOW)
    assert ref is not None, phrase
    assert (ref.start, ref.end) == (start, end)


def test_earlier_alone_is_no_window() -> None:
    # "the number I gave you earlier" names a fact (F1), not today's whole conversation
    assert parse_time_reference("the number I gave you earlier", NOW) is None


def test_a_weekday_weeks_back_is_that_day_of_that_week() -> None:
    # said on Thursday 12 March: two weeks back is the week of Monday 23 February; its Friday
    # is the 27th, narrowed to the hours round 3am
    ref = parse_time_reference("the friday, like 3am friday morning, two weeks back", NOW)
    assert ref is not None and (ref.start, ref.end) == (datetime(2026, 2, 27, 1, 0), datetime(2026, 2, 27, 5, 0))
    week = parse_time_reference("whatever I said two weeks back", NOW)
    assert week is not None and (week.start, week.end) == (datetime(2026, 2, 23), datetime(2026, 3, 1, 23, 59, 59, 999999))


def test_a_few_weeks_back_is_a_week_either_side_of_three_and_three_weeks_is_one_week() -> None:
    now = datetime(2026, 2, 15, 19, 40)  # a Sunday
    vague = parse_time_reference("that chat in the middle of the night a few weeks back", now)
    assert vague is not None and (vague.start, vague.end) == (datetime(2026, 1, 12), datetime(2026, 2, 1, 23, 59, 59, 999999))
    exact = parse_time_reference("3 weeks ago", now)
    assert exact is not None and (exact.start, exact.end) == (datetime(2026, 1, 19), datetime(2026, 1, 25, 23, 59, 59, 999999))
