"""Intent detection on our OWN paraphrases (written before reading the generator).

Each request type gets >= 5 phrasings; the negatives mention forgetting/deleting without
asking the assistant to drop anything from its memory and must not trigger deletion.
"""

from __future__ import annotations

import pytest

from bemula.systems.erasemem.intent import ForgetKind, parse_forget_request

F1 = [
    "Please forget that I'm allergic to penicillin.",
    "Could you erase the fact that my blood type is AB positive?",
    "I'd like you to remove my passport number from your memory.",
    "Delete what I said about my salary, please.",
    "Stop remembering my gym locker code.",
    "Wipe the detail about my ex-wife's name.",
    "Don't keep my birthday on record anymore.",
]
F2 = [
    "Delete my home address and my phone number.",
    "Please forget my middle name, my shoe size and my locker combination.",
    "Erase both my bank name and my credit score.",
    "Remove my car's plate number as well as my parking spot from memory.",
    "Can you wipe my employer and my job title from your memory?",
]
F3 = [
    "Forget everything about my health.",
    "Please erase anything related to my finances.",
    "Delete all the information you have on my family.",
    "Wipe whatever you know about my love life.",
    "I want you to remove every detail concerning my medical history.",
]
F4 = [
    "Don't keep or use any conclusion about where I commute.",
    "Please don't infer anything about my political leaning from what I've said.",
    "Stop drawing conclusions about whether I'm pregnant.",
    "Forget any assumption you've made about my religion.",
    "Don't deduce my income bracket from the things I told you.",
]
F5 = [
    "Forget what I told you last Tuesday.",
    "Please delete everything I said yesterday.",
    "Erase our conversation from two days ago.",
    "Remove whatever I mentioned during our chat on March 3rd.",
    "Wipe everything from last week's conversations.",
    "Forget what I said in our previous session.",
]
F6 = [
    "I no longer drink coffee — I switched to tea. Forget the coffee.",
    "My phone number changed to 555-0199; please delete the old one.",
    "I moved from Denver to Austin, so forget Denver.",
    "I don't play tennis anymore, it's squash now. Remove tennis from your memory.",
    "Update: my manager is now Priya, not Tom — erase Tom.",
]
NEGATIVES = [
    "I forgot my keys at the office again.",
    "Don't forget my dentist appointment on Friday.",
    "Can you remind me so I don't forget to call mom?",
    "I deleted my old Instagram account last year.",
    "How do I remove a wine stain from a carpet?",
    "Never forget that I love jazz.",
    "I tend to forget people's names.",
    "Please remember that I'm vegetarian.",
    "My boss asked me to delete some old files.",
    "Did you forget what I said about my sister?",
    "Remove the onions from that recipe, please.",
    "I switched to tea last month and feel great.",
    "We erased the whiteboard after the meeting.",
    "Let's forget about work for a bit and talk about movies.",
]


@pytest.mark.parametrize("text", F1)
def test_single_fact_requests(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.FACT, (text, intent)
    assert len(intent.targets) == 1


@pytest.mark.parametrize("text", F2)
def test_several_named_facts(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.FACTS, (text, intent)
    assert len(intent.targets) >= 2


@pytest.mark.parametrize("text", F3)
def test_category_requests(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.CATEGORY, (text, intent)
    assert intent.categories, intent


@pytest.mark.parametrize("text", F4)
def test_conclusion_requests(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.CONCLUSION, (text, intent)
    assert intent.targets


@pytest.mark.parametrize("text", F5)
def test_time_window_requests(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.TIME_WINDOW, (text, intent)
    assert intent.time_phrase


@pytest.mark.parametrize("text", F6)
def test_replacement_requests(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.REPLACEMENT, (text, intent)
    assert intent.targets


@pytest.mark.parametrize("text", NEGATIVES)
def test_negatives_do_not_trigger(text: str) -> None:
    assert parse_forget_request(text) is None, text


def test_targets_are_the_named_things() -> None:
    two = parse_forget_request("Delete my home address and my phone number.")
    assert two is not None
    assert [t.lower() for t in two.targets] == ["my home address", "my phone number"]
    one = parse_forget_request("Please forget that I'm allergic to penicillin.")
    assert one is not None and "penicillin" in one.targets[0]
    six = parse_forget_request("I no longer drink coffee — I switched to tea. Forget the coffee.")
    assert six is not None and "coffee" in six.targets[0].lower()
    assert any("tea" in s for s in six.statements)


def test_categories_found_from_description() -> None:
    health = parse_forget_request("I want you to remove every detail concerning my medical history.")
    assert health is not None and "health" in health.categories
    money = parse_forget_request("Please erase anything related to my finances.")
    assert money is not None and "finance" in money.categories
