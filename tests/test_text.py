"""bemula.text, the one home of how the benchmark reads text: small hand-made examples."""

from __future__ import annotations

import pytest

from bemula import text
from bemula.text import (
    CONTENT_STOPWORDS,
    GENERIC_WORDS,
    NOT_AVAILABLE,
    RETRIEVAL_STOPWORDS,
    VALUE_STOPWORDS,
    contains_sequence,
    distinctive_tokens,
    fold,
    fold_chars,
    normalize,
    normalize_tokens,
    plain,
    retrieval_stem,
    retrieval_tokens,
    squash,
    stem,
)


def test_fold_undoes_case_accents_and_disguises() -> None:
    assert fold("Café CRÈME") == "cafe creme"
    assert fold("Toyota &amp; Co") == "toyota & co"
    assert fold("\u0421or\u043ella") == "corolla"  # Cyrillic С and о
    assert fold("pen\u200bicillin") == "penicillin"  # zero-width space
    assert fold("p-e-n-i-c") == "penic"


def test_fold_chars_keeps_positions() -> None:
    source = "Le Café à Lyon"
    folded = fold_chars(source)
    assert folded == "le cafe a lyon"
    assert len(folded) == len(source)


def test_squash_and_plain_are_as_written_comparisons() -> None:
    assert squash("  My  Mum’s\nBAKERY ") == "my mum's bakery"
    assert plain("Rue-de la, Paix!") == "rue de la paix"
    assert plain("O+ / A-") == "o a"


def test_normalize_meets_two_spellings_in_the_middle() -> None:
    assert normalize("5 March 2024") == normalize("2024-03-05") == "2024 m03 d05"
    assert normalize("four four seven one") == "4471"
    assert normalize("the Coffees") == "coffee"
    assert normalize("4 p.m.") == normalize("16:00") == "4 pm"


def test_contains_sequence_respects_token_boundaries() -> None:
    assert contains_sequence(normalize_tokens("I drive a 2009 Toyota Corolla"), normalize_tokens("Toyota Corolla"))
    assert not contains_sequence(normalize_tokens("Toyotas are nice, a Corolla too"), normalize_tokens("Toyota Corolla"))
    assert not contains_sequence(normalize_tokens("anything"), ())


def test_two_stemmers_for_two_jobs() -> None:
    # values: plurals only ("used" is not "use")
    assert stem("coffees") == "coffee" and stem("glass") == "glass" and stem("bus") == "bus"
    assert stem("used") == "used" and stem("walking") == "walking"
    # retrieval: plurals and verb endings, for recall
    assert retrieval_stem("allergies") == "allergy"
    assert retrieval_stem("walking") == "walk"
    assert retrieval_stem("moved") == "mov"
    assert retrieval_stem("glass") == "glass"


def test_retrieval_tokens_drop_stopwords_possessives_and_contractions() -> None:
    assert retrieval_tokens("Thanks! My sister’s cats aren't walking") == ["sister", "cat", "walk"]
    assert retrieval_tokens("ok yes hi") == []


def test_three_stopword_sets_answer_three_questions() -> None:
    # chat filler is noise in a search, but not a question of whether a word names a value
    assert "thanks" in RETRIEVAL_STOPWORDS and "thanks" not in VALUE_STOPWORDS
    # name particles never identify a value ("Rue de la Paix")
    assert {"de", "la", "van"} <= VALUE_STOPWORDS and "van" not in RETRIEVAL_STOPWORDS
    # a question repeats the reporting verbs of its statement: no content
    assert {"told", "remind"} <= CONTENT_STOPWORDS
    # value stop-words are in canonical form (stemmed, no apostrophe)
    assert "dont" in VALUE_STOPWORDS and "don't" not in VALUE_STOPWORDS
    assert "medication" in GENERIC_WORDS and "allergy" in GENERIC_WORDS


@pytest.mark.parametrize(
    ("value", "question", "accepted", "expected"),
    [
        ("2009 Toyota Corolla", "", [], ["2009", "toyota", "corolla"]),
        ("blood-pressure medication", "", [], ["blood", "pressure"]),  # "medication" is generic
        ("blood-pressure medication", "What do I take for my blood pressure?", [], []),  # echoed
        ("12 Rue de la Paix", "", [], ["rue", "paix"]),  # "12": fewer than 3 digits
        ("whole milk latte", "", ["oat milk latte"], ["whole"]),  # shared with the accepted value
        ("penicillin", "", [], []),  # one word: whole or nothing
        ("Dr. Ng", "", [], []),  # "ng" is too short, "doctor" generic
    ],
)
def test_distinctive_tokens(value: str, question: str, accepted: list[str], expected: list[str]) -> None:
    q = frozenset(normalize_tokens(question))
    a = frozenset(t for v in accepted for t in normalize_tokens(v))
    assert distinctive_tokens(normalize_tokens(value), q, a) == expected


def test_one_leak_rule_and_one_refusal_sentence() -> None:
    from bemula import agent, audit
    from bemula.judge import rules

    assert rules.distinctive_tokens is text.distinctive_tokens
    assert audit.distinctive_tokens is text.distinctive_tokens
    assert agent.NOT_AVAILABLE is NOT_AVAILABLE
    assert rules.PROBE_NO_INFO is NOT_AVAILABLE
    assert NOT_AVAILABLE in agent.SYSTEM_PROMPT
