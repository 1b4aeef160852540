"""Edition 1's slips, checked on edition 2's real banks (issue 15 lists them; each test
would have caught its kind): doubled words, "1 hours", "about anything about", a plural
category with "is", unfilled slots, "this morning" at the wrong hour, assistant small
talk that drops a fact in as a non sequitur ("Given your employee ID is …")."""

from __future__ import annotations

import re

import pytest

from bemula.generate.natural.build import generate_natural_instances

DOUBLED = re.compile(r"\b(\w{2,})\s+\1\b", re.I)
#: doubled words that are English ("had had", "that that") or a persona's stutter ("so so")
DOUBLED_OK = {"had", "that", "so", "hi", "very", "really", "bye", "ha", "no", "yes", "far", "more", "on", "ok", "okay"}
ONE_PLURAL = re.compile(r"\b1 (hours|minutes|days|weeks|months|years|times|runs|kids|children|pets)\b")
DOUBLE_ABOUT = re.compile(r"\babout (anything|everything|all|the details) about\b", re.I)
#: "my relatives is off limits": a plural category as the subject of "is" (sentence-initial,
#: so "the vet that sees my pets is Hillside" is fine)
PLURAL_IS = re.compile(r"(?:^|[.!?:;,]\s+|\b(?:and|but|so|because)\s+)my (relatives|finances|pets|hobbies|contacts|"
                       r"details|plans|appointments|studies) is\b", re.I)
HOURS = {"this morning": range(5, 12), "this afternoon": range(12, 17), "this evening": range(17, 21)}


@pytest.fixture(scope="module", params=["dev", "test"])
def built(request):
    """The whole seed-0 benchmark from each bank (about 5 s each)."""
    return generate_natural_instances(0, split=request.param)


def _turns(instances):
    for inst in instances:
        for version in (inst.forget, inst.control):
            for _, turn in version.iter_turns():
                yield turn


def test_no_grammar_slips(built) -> None:
    for turn in _turns(built):
        text = turn.text
        for m in DOUBLED.finditer(text):
            assert m[1].lower() in DOUBLED_OK or m[1].isdigit(), (m[0], text[:200])
        assert not ONE_PLURAL.search(text), text
        assert not DOUBLE_ABOUT.search(text), text
        assert not PLURAL_IS.search(text), text
        assert "{" not in text and "}" not in text, text  # an unfilled slot


def test_time_of_day_follows_the_clock(built) -> None:
    seen = 0
    for turn in _turns(built):
        for phrase, ok in HOURS.items():
            if phrase in turn.text.lower() and turn.role.value == "user":
                seen += 1
                assert turn.timestamp.hour in ok, (phrase, turn.timestamp, turn.text[:120])
    assert seen


def test_assistant_never_drops_a_fact_in_as_a_non_sequitur(built) -> None:
    for turn in _turns(built):
        if turn.role.value == "assistant":
            assert not re.match(r"(Given|Since|As) your [\w' -]{2,40} is ", turn.text), turn.text[:160]


def test_every_instance_passes_the_validator_with_warnings_as_errors(built) -> None:
    """`bemula validate --strict` on the real banks: no error and no wording warning (a
    multi-hop companion that names the target's value, a removal phrase the lexicon misses)."""
    from bemula.validate.instance import validate_instance

    problems = [f"{v.location}: [{v.code}] {v.message}"
                for inst in built for v in validate_instance(inst, f"{inst.id}.json")]
    assert problems == []
