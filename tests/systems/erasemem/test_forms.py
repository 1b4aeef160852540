"""One value, many spellings (issue 16 item 3): codes, phone numbers and spoken digits."""

from __future__ import annotations

import pytest

from bemula.systems.erasemem.forms import code_keys, code_spans, date_keys, spoken_digits


def _found(request: str, text: str) -> list[str]:
    return [text[a:b] for a, b in code_spans(text, code_keys(request))]


@pytest.mark.parametrize("words, digits", [
    ("thirty-eight sixty", "3860"), ("five five two one", "5521"), ("oh seven", "07"),
    ("nineteen eighty-four", "1984"), ("twenty", None), ("five apples", None),
])
def test_spoken_digits(words: str, digits: str | None) -> None:
    assert spoken_digits(words) == digits


def test_a_code_is_found_in_every_spelling_and_its_near_miss_is_not() -> None:
    text = "Mine is SV-5520-781; Jonas has SV-6613-205 and a spare card SV 5520 782."
    assert _found("please forget SV5520781", text) == ["SV-5520-781"]


def test_a_phone_number_with_and_without_country_code() -> None:
    text = "Work mobile +44 7700 900461, personal 07700 900 814."
    assert _found("forget 07700900461", text) == ["+44 7700 900461"]


def test_spoken_and_spaced_digits_are_the_same_code() -> None:
    text = "lock combo is 3860 (3-8-6-0 on the dial); the shed padlock is 3806"
    assert _found("forget thirty-eight sixty", text) == ["3860", "3-8-6-0"]


def test_a_plate_is_its_whole_run_not_its_shared_prefix() -> None:
    text = "Mine is LM21 HZT and hers is LM21HZK."
    assert _found("My wife's Clio is LM21 HZK.", text) == ["LM21HZK"]
    assert code_keys("My wife's Clio is LM21 HZK.") == {"lm21hzk"}


def test_words_without_digits_are_not_codes() -> None:
    assert code_keys("Please forget my GP's name, Dr Patel.") == frozenset()


def test_an_amount_with_thousands_separators_is_one_number_in_every_spelling() -> None:
    from bemula.systems.erasemem.forms import code_keys, code_spans, redact_spans

    keys = code_keys("In February I borrowed $1,200 from her for rent.")
    assert keys == {"1200"}
    for text, left in [
        ("paid back the 1,200 dollars", "paid back the # dollars"),
        ("the 1200 you lent", "the # you lent"),
        ("about 1 200 kr", "about # kr"),
        ("paying back twelve hundred before spring", "paying back # before spring"),
        ("it was 1, 200 or so", "it was 1, 200 or so"),  # a list, not an amount
        ("a 12,000 budget", "a 12,000 budget"),  # another number
    ]:
        assert redact_spans(text, code_spans(text, keys), "#") == left


def test_number_words_with_a_scale_are_a_quantity() -> None:
    from bemula.systems.erasemem.forms import spoken_digits

    assert spoken_digits("twelve hundred") == "1200"
    assert spoken_digits("six thousand five hundred") == "6500"
    assert spoken_digits("two thousand") == "2000"
    assert spoken_digits("five five two one") == "5521"  # digit by digit, as before


@pytest.mark.parametrize("text", ["April 23", "Apr. 23rd", "23 April", "the 23rd of April", "4/23", "23/4/2026"])
def test_a_day_of_a_month_is_one_date_in_every_spelling(text: str) -> None:
    assert date_keys(text) == date_keys("April 23") == {"date:0423"}
    assert code_spans(f"- {text} Joon's consulate appt", date_keys("April 23"))


def test_a_date_that_reads_both_ways_keeps_both_and_others_are_not_it() -> None:
    assert date_keys("4/11") == {"date:0411", "date:1104"}
    keys = date_keys("not April 23")
    for other in ("April 2", "May 23", "4/22", "v1.4/23", "23 people in April"):
        assert code_spans(other, keys) == [], other
    assert date_keys("no dates here, 2206 is a code") == frozenset()


def test_an_amount_in_thousands_is_the_number_written_out() -> None:
    # "€2.5k" is "2,500 euros" and "2.500 €"; "45k" is "45,000"; "£1.2m" is "£1,200,000";
    # a distance or a length is no amount
    assert code_keys("I lent Joaquín €2.5k") & code_keys("forget the 2,500 euros") == {"2500"}
    assert code_keys("salary's 45k") == {"45000"} and "1200000" in code_keys("a £1.2m flat")
    assert code_keys("a 5km run, 3 m of rope") == set()
    assert code_spans("I lent Joaquín €2.5k for his car", {"2500"}) == [(16, 20)]


def test_the_order_a_memory_writes_dates_in_figures_comes_from_its_echoes_and_its_unambiguous_dates() -> None:
    from bemula.systems.erasemem.forms import numeric_date_order

    assert numeric_date_order(["dentist booked for 3/4 at 3:20", "Saved: dentist on 3 April at 15:20."]) == "dm"
    assert numeric_date_order(["dentist booked for 3/4 at 3:20", "Saved: dentist on March 4 at 3:20pm."]) == "md"
    assert numeric_date_order(["the lease ends 28/2", "and the deposit is back by 3/4"]) == "dm"
    assert numeric_date_order(["the lease ends 2/28", "and the deposit is back by 3/4"]) == "md"
    assert numeric_date_order(["back on 4/4", "see you then"]) is None


def test_an_ambiguous_date_in_figures_reads_one_way_only_when_the_order_is_known() -> None:
    from bemula.systems.erasemem.forms import DATE_ORDER, date_keys

    assert date_keys("working 4/3") == {"date:0403", "date:0304"}
    token = DATE_ORDER.set("dm")
    try:
        assert date_keys("working 4/3") == {"date:0304"}
        assert date_keys("working 23/4") == {"date:0423"}
    finally:
        DATE_ORDER.reset(token)
