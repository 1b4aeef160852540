"""Edition 2's non-arithmetic F4 conclusions follow from their two sources and nothing else,
and no source contains the conclusion (so a kept source is never read as a leak)."""

from __future__ import annotations

import random
import re

import pytest

from bemula.generate.derived import DERIVED_BY_KEY, NATURAL_DERIVED_TEMPLATES

ORDINALS = ["first", "second", "third", "fourth"]


def _derivations(key: str, n: int = 200):
    template = DERIVED_BY_KEY[key]
    rng = random.Random(7)
    return [template.derive(rng) for _ in range(n)]


@pytest.mark.parametrize("template", NATURAL_DERIVED_TEMPLATES, ids=lambda t: t.key)
def test_no_source_contains_the_conclusion(template) -> None:
    for d in _derivations(template.key):
        assert set(d.sources) == set(template.source_keys)
        for form in d.conclusion.forms:
            for src in d.sources.values():
                for s in src.forms:
                    assert f" {form.lower()} " not in f" {s.lower()} ", (form, s)


def test_home_and_office_follow_house_numbering() -> None:
    kinds = set()
    for d in _derivations("home_near_office"):
        home, street = d.sources["home_address_line"].text.split(" ", 1)
        office, street2 = d.sources["office_address_line"].text.split(" ", 1)
        assert street == street2
        gap, same_side = abs(int(home) - int(office)), int(home) % 2 == int(office) % 2
        expected = ("next door" if gap == 2 and same_side else "across the road" if gap == 1
                    else "further along" if gap >= 20 else None)
        assert expected and d.conclusion.text.startswith(expected), (home, office, d.conclusion.text)
        kinds.add(expected)
    assert len(kinds) == 3


def test_supper_club_is_book_club_plus_the_gap_on_the_same_weekday() -> None:
    # worked example: book club the first Thursday, supper club two weeks later -> third Thursday
    for d in _derivations("supper_club_night"):
        m = re.fullmatch(r"the (\w+) (\w+) of the month", d.sources["book_club_night"].text)
        assert m
        gap = 1 if d.sources["supper_club_timing"].text.startswith("a week") else 2
        assert d.conclusion.text == f"the {ORDINALS[ORDINALS.index(m[1]) + gap]} {m[2]} of the month"


def test_new_baby_relation_is_kinship() -> None:
    seen = set()
    for d in _derivations("new_baby_relation"):
        parent, sex = d.sources["new_baby_parent"].text, d.sources["new_baby_sex"].text
        word = "niece" if sex.endswith("girl") else "nephew"
        expected = {"my brother": word, "my sister": word, "my partner's brother": f"{word} by marriage",
                    "my partner's sister": f"{word} by marriage", "my cousin": "first cousin once removed"}[parent]
        assert d.conclusion.text == expected
        seen.add(expected)
    assert len(seen) == 5


def test_next_injection_goes_in_the_other_arm() -> None:
    for d in _derivations("next_injection_arm"):
        last = d.sources["last_injection_arm"].text
        assert d.conclusion.text == ("the right arm" if last == "left arm" else "the left arm")
        assert re.search(r"alternat|switch|different arm", d.sources["injection_routine"].text)
