"""The validator compares values the way the rule judge reads them (issue: hand-written data
was rejected for writing a date or a number another way)."""

from __future__ import annotations

from bemula.testing import tiny_instances
from bemula.validate import validate_instance
from bemula.validate.context import covered, same_value, states_form


def test_normalised_forms_are_one_value() -> None:
    assert same_value("9 April", "April 9")
    assert same_value("9 April", "the ninth of April")
    assert not same_value("9 April", "19 April")
    assert states_form("we moved it to the second of May, a Saturday", "2 May")
    assert states_form("the code is five five two one", "5521")
    assert not states_form("the code is 5512", "5521")


def test_protected_forms_cover_by_containment_not_set_inclusion() -> None:
    assert covered("lisinopril 10 mg", ["lisinopril"])  # an answer saying the long form says the short one
    assert not covered("lisinopril", ["lisinopril 10 mg"])
    assert covered("April 9", ["9 April"])


def test_a_turn_stating_a_value_in_words_is_not_flagged() -> None:
    a = tiny_instances()[0]
    # A002's value is "coffee"; make it a date-valued fact stated in other words
    fact = next(f for f in a.profile.facts if f.id == "A002")
    fact.value, fact.aliases, fact.statement = "2 May", [], "My appointment is on 2 May."
    for dialogue in (a.forget, a.control):
        for _, turn in dialogue.iter_turns():
            if "A002" in turn.annotations.facts:
                turn.text = "The appointment got moved to the second of May."
    codes = {v.code for v in validate_instance(a, "tiny-a.json") if "A002" in v.message}
    assert "fact-value" not in codes
