"""The request-wording warning's lexicon: removal requests people write without the five
verbs (issue 14's hand-written misses and edition 2's phrasings) are recognised; a message
that asks for nothing is still warned about."""

from __future__ import annotations

import pytest

from bemula.validate.context import REMOVAL_WORDS

REQUESTS = [
    "take that off your notes",
    "lose the bit about my salary",
    "let's pretend I never told you about the loan",
    "Would you mind terribly not holding onto my address?",
    "that's not something I want kept around",
    "i dont want you doing the maths on when my flat is empty",
    "Could you avoid inferring how much I earn?",
    "Is it possible for you to not have my nickname at all?",
    "sooo there r a few things i'd prefer u not have: my brothers name",
    "Anything about my finances can go.",
    "I'd like my badge number gone from your records.",
    "The old address is no longer worth keeping.",
    "what I told you before no longer holds",
    "I'd sleep better if none of that stayed with you.",
    "Please don't retain the thing about my knee.",
    "I'd rather you didn't put those together and draw any conclusion.",
    "Don't connect the dots about my mum's test results.",
    "Leave my next appointment as an open question; don't settle it from what I said.",
    "Would you mind clearing out what I said on Friday?",
    "Letting go of my sister's number would be great.",
    "No deductions about where I live, please.",
    "the old one does not apply anymore",
    "the earlier one is no use anymore, so don't rely on it",
    "and the old one shouldnt come up again",
    "I'd feel better without those on file.",
    "Take the thing about my landlord out of your notes and leave it out.",
]
NOT_REQUESTS = [
    "Actually, about my penicillin allergy: it was a false alarm.",
    "The thing about my allergy should stay between me and my GP.",
    "Can you recommend a quiet vacuum cleaner?",
]


@pytest.mark.parametrize("text", REQUESTS)
def test_removal_requests_without_the_five_verbs_are_recognised(text: str) -> None:
    assert REMOVAL_WORDS.search(text), text


@pytest.mark.parametrize("text", NOT_REQUESTS)
def test_text_that_asks_for_no_removal_is_not(text: str) -> None:
    assert not REMOVAL_WORDS.search(text), REMOVAL_WORDS.search(text)
