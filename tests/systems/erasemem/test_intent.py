"""Intent detection on our OWN paraphrases (written before reading the generator).

Each request type gets >= 5 phrasings; the negatives mention forgetting/deleting without
asking the assistant to drop anything from its memory and must not trigger deletion.
"""

from __future__ import annotations

import pytest

from bemula.systems.erasemem.intent import ForgetKind, parse_forget_request, split_targets

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


def _assert_reads(text: str, kind: ForgetKind, word: str) -> None:
    """The message is a request of ``kind`` whose targets hold ``word``."""
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == kind, (text, intent)
    assert any(word in t.lower() for t in intent.targets), (text, intent.targets)


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


# --- second round: phenomena found failing on the benchmark, tested with our own wording ---

ANAPHORIC = [
    ("I regret telling you about my credit score. Please scrub it.", ForgetKind.FACT, "credit score"),
    ("I wish I hadn't mentioned my ex's surname. Get rid of it, please.", ForgetKind.FACT, "surname"),
    ("I shouldn't have told you my PIN or my locker number. Wipe them both.", ForgetKind.FACTS, "pin"),
    ("My love life is private from now on. Erase everything I said about it.", ForgetKind.CATEGORY, "love"),
    ("Whatever you worked out about my salary band, forget it and never use it.", ForgetKind.CONCLUSION, "salary"),
    # "forget I ever told you" is "forget it": the telling, of the thing named before it (an
    # item that asks which value, "how much it was", is still a thing)
    ("that loan to my nephew for the boiler — the money, how much it was, all that — can you forget I ever told you?",
     ForgetKind.FACT, "money"),
]


def test_i_should_be_grateful_is_a_polite_ask() -> None:
    """The formal first-person "should" ("I should be grateful if you would …") asks like "would"."""
    intent = parse_forget_request("I should be grateful if you would not draw any conclusions about my hearing aids.")
    assert intent is not None and intent.kind == ForgetKind.CONCLUSION, intent
    assert parse_forget_request("I should be grateful if you could tell me the time of the last bus.") is None


def test_a_count_of_values_floating_around_is_no_target() -> None:
    intent = parse_forget_request("The rent is now £1,310. Replace the old figure; I don't want two numbers floating around.")
    assert intent is not None and intent.targets == ["the old figure"], intent


def test_a_chosen_plan_is_a_fact_and_a_drafted_plan_is_chat() -> None:
    intent = parse_forget_request("Here's what I'd like: forget the plan we went with, the insurer and the $212.")
    assert intent is not None and intent.targets[0] == "the plan we went with", intent
    assert parse_forget_request("Forget the plan you drafted, let's start again from scratch.") is None


def test_have_it_taken_out_of_your_memory_asks_for_removal() -> None:
    intent = parse_forget_request("My daughter would like me to have her school's address taken out of your memory.")
    assert intent is not None and intent.targets == ["her school's address"], intent
    assert parse_forget_request("I had my wisdom teeth taken out of my jaw last spring.") is None


def test_why_after_a_target_is_no_part_of_it() -> None:
    intent = parse_forget_request("Please forget the date I gave you for the hearing so I don't get confused.")
    assert intent is not None and intent.targets == ["the date I gave you for the hearing"], intent


@pytest.mark.parametrize(("text", "kind"), [
    # a time read late in a day ("since about 2am" is a time of it), and "about"/"on the" before a
    # time says when, not what
    ("honestly just forget everything since about 3am", ForgetKind.TIME_WINDOW),
    ("All of it from my night shift on the 14th, all those messages, please don't retain.", ForgetKind.TIME_WINDOW),
    # "X is Y now" mid-sentence, "out of date": a change
    ("my rent is 1,450 now after the renewal!! the 1,380 you have is out of date so wipe it", ForgetKind.REPLACEMENT),
    # an order after a comma is a clause of its own
    ("new email is jo.writes@gmail.com, get rid of the hotmail one", ForgetKind.REPLACEMENT),
    # what was said then, with nothing named, is a window
    ("Friday night after the wedding I wrote you loads of stuff — please delete all of that.", ForgetKind.TIME_WINDOW),
    # an area named by what it relates to, its examples after it
    ("i'd like u to purge everything legal related, the solicitor stuff, the hearings, all of it", ForgetKind.CATEGORY),
])
def test_times_and_changes_said_loosely(text: str, kind: ForgetKind) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == kind, (text, intent)


@pytest.mark.parametrize(("text", "trait"), [
    ("u dont need to think im loaded just bc i mentioned the yacht - its my cousins lol. bin that", "loaded"),
    ("I think you decided I am a smoker because I asked about vapes. I'm not. Stop thinking this about me.", "smoker"),
])
def test_a_trait_the_user_disputes_is_the_conclusion_a_pronoun_means(text: str, trait: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.CONCLUSION, (text, intent)
    assert any(trait in t for t in intent.targets), intent


@pytest.mark.parametrize(("text", "word"), [
    ("ugh i just realised i gave u my gym locker code when i was moaning about the showers. wipe that pls", "locker"),
    ("dr mensah is my psychiatrist and i'd rather u didnt have that stored anywhere", "psychiatrist"),
    ("Better you don't remember my salary, my boss sometimes uses this laptop.", "salary"),
    ("I foolishly typed my PayPal password into our chat earlier. Kindly dispose of it.", "password"),
])
def test_loose_asks_point_at_what_they_mean(text: str, word: str) -> None:
    intent = parse_forget_request(text, known=lambda phrase: True)
    assert intent is not None and any(word in t.lower() for t in intent.targets), (text, intent)


def test_a_bare_noun_in_a_mixed_list_shares_the_first_items_possessive() -> None:
    intent = parse_forget_request("bin my sort code + account number pls, and the expiry date of my card too")
    assert intent is not None and intent.targets == ["my sort code", "my account number", "the expiry date of my card"], intent


def test_forget_i_said_that_with_nothing_named_is_what_was_just_said() -> None:
    intent = parse_forget_request("Ugh, I was drunk last night. Forget I said that.")
    assert intent is not None and intent.targets == ["what I just told you"], intent


@pytest.mark.parametrize(("text", "kind", "word"), ANAPHORIC)
def test_pronoun_objects_take_their_antecedent(text: str, kind: ForgetKind, word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == kind, (text, intent)
    assert any(word in t.lower() for t in intent.targets), intent
    # the clause that named the target is part of the request, not a statement to store
    assert not any(word in s.lower() for s in intent.statements), intent


@pytest.mark.parametrize(
    "text",
    [
        "Oh, forget it, never mind.",
        "I wanted to ask about my trip, but forget it.",
        "Forget it, the weather is too nice to plan anything.",
    ],
)
def test_dismissive_forget_it_is_not_a_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "I said too much on the 3rd of May. Please delete that whole chat.",
        "Two days ago I rambled a lot. Erase that conversation.",
        "Our talk yesterday evening went too far; wipe that session.",
    ],
)
def test_time_window_named_in_another_clause(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.TIME_WINDOW, (text, intent)


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("Swap my gym: drop FitZone, the new one is IronWorks.", "fitzone"),
        ("Correction on my car: it's a Mazda these days. Erase the Honda, I don't want it kept.", "honda"),
        ("Muse is my favourite band from now on. Remove Coldplay from memory.", "coldplay"),
        ("My dentist is now Dr. Okafor; please forget Dr. Lindqvist.", "lindqvist"),
        ("Update my wake-up time - 6 am instead of 7:30 am. Delete 7:30 am.", "7:30"),
    ],
)
def test_replacement_forms(text: str, old: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.REPLACEMENT, (text, intent)
    assert any(old in t.lower() for t in intent.targets), intent
    assert all("new one" not in t.lower() and "kept" not in t.lower() for t in intent.targets), intent


@pytest.mark.parametrize(
    ("description", "category"),
    [
        ("my daily schedule and appointments", "schedule"),
        ("my gadgets and devices", "tech"),
        ("the people in my address book", "contacts"),
        ("how I get around", "transport"),
        ("anything that identifies me", "identity"),
    ],
)
def test_more_categories(description: str, category: str) -> None:
    from bemula.systems.erasemem.categories import categories_in

    assert category in categories_in(description)


@pytest.mark.parametrize(
    "text",
    [
        "Please get rid\n of my old number.",
        "I'd rather you   didn't keep that.",
        "Don’t store my salary anywhere.",
        "You no\tlonger need to keep my address.",
        "Never again make guesses about where I work.",
        "LET GO of what I said about my ex.",
        "Cross out my gym days, please.",
    ],
)
def test_quick_screen_never_rejects_what_the_full_screen_accepts(text: str) -> None:
    """The cheap pre-screen is a necessary condition: whitespace, case and curly quotes
    vary, and every turn the full screen accepts must pass it."""
    from bemula.systems.erasemem.intent import _SCREEN, may_be_request

    assert _SCREEN.search(text)
    assert may_be_request(text)


def test_a_trie_of_literals_matches_what_their_flat_alternation_matches() -> None:
    """``literal_pattern`` shares prefixes ("rem(?:ind|ove(?:d)?)"): the same texts must match,
    at the same places, with regex characters in a literal taken literally."""
    import re

    from bemula.systems.erasemem.textutil import literal_pattern

    literals = ["remove", "removed", "remind", "rem", "go.", "a+b", "off,", "of"]
    trie = re.compile(literal_pattern(literals))
    flat = re.compile("|".join(re.escape(x) for x in sorted(literals, key=len, reverse=True)))
    assert literal_pattern(["remove", "removed", "remind"]) == "rem(?:ind|ove(?:d)?)"
    for text in ["please remove it", "remind me", "let it go. now", "let it go now", "a+b=c", "ab",
                 "turn it off, ok", "one of them", "nothing here"]:
        assert bool(trie.search(text)) == bool(flat.search(text)), text
        if flat.search(text):
            assert trie.search(text).start() == flat.search(text).start(), text  # type: ignore[union-attr]


@pytest.mark.parametrize("text, kind, target_word", [
    # texting spellings
    ("ok can u stop keeping my gym locker combo pls", ForgetKind.FACT, "locker"),
    ("plz dont keep my sister's new number", ForgetKind.FACT, "number"),
    # verbs outside the classic five
    ("Scrap the bit about my overdraft.", ForgetKind.FACT, "overdraft"),
    ("you can bin my old passport number now", ForgetKind.FACT, "passport"),
    # idioms of removal
    ("Could you take my salary off your notes?", ForgetKind.FACT, "salary"),
    ("Let's pretend I never told you about the payday loan.", ForgetKind.FACT, "loan"),
    ("I'd rather you didn't hang on to my therapist's name.", ForgetKind.FACT, "therapist"),
    ("Would you mind terribly not holding on to my niece's school?", ForgetKind.FACT, "school"),
    ("I don't want my bank details kept anywhere.", ForgetKind.FACT, "bank"),
    ("You don't need to remember the alarm code any more.", ForgetKind.FACT, "alarm"),
    ("Please don't go connecting the dots about my tiredness and the new tablets.", ForgetKind.CONCLUSION, "tiredness"),
    # the list comes before the verb
    ("My allotment number and the shed key code: wipe those, would you?", ForgetKind.FACTS, "allotment"),
    # a target ends where another clause starts
    ("forget the storage unit address, everything's out of there now", ForgetKind.FACT, "storage"),
])
def test_requests_people_make_without_the_classic_form(text: str, kind: ForgetKind, target_word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == kind, intent
    assert any(target_word in t.lower() for t in intent.targets), intent.targets
    assert not any("everything's" in t for t in intent.targets)


@pytest.mark.parametrize("text", [
    "Forget the bullet points and give me one paragraph on how tides work.",
    "Ditch the emojis. Rewrite this as a formal apology to my landlord.",
    "Forget the budget for a moment: which of these two sofas looks comfier?",
    "Erase the passive voice and make this sentence punchier: 'The report was written by me.'",
    "My manager wants to scrap the Friday stand-up and I'm secretly thrilled.",
])
def test_removal_verbs_about_the_task_at_hand_are_not_requests(text: str) -> None:
    assert parse_forget_request(text) is None


def test_a_change_cue_without_a_new_value_is_a_plain_removal() -> None:
    intent = parse_forget_request("A broker handles my home insurance from now on, so please erase the policy number.")
    assert intent is not None and intent.kind == ForgetKind.FACT and intent.targets == ["the policy number"]
    swap = parse_forget_request("I use 7 am instead of 6:15 these days. Delete 6:15.")
    assert swap is not None and swap.kind == ForgetKind.REPLACEMENT


def test_a_list_after_a_colon_names_the_targets() -> None:
    text = "one admin thing. please don't keep these anymore:\n- my gym membership number\n- what I pay for parking\nthanks!"
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS
    assert intent.targets == ["my gym membership number", "what I pay for parking"]


@pytest.mark.parametrize("text", [
    "Please don't go putting those together and guessing where we'll move.",
    "I don't want any theory about my health sitting in your notes.",
])
def test_inference_in_other_words_is_f4(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.CONCLUSION, intent


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("okayyy so pleeease forget my locker combination", ForgetKind.FACT, "locker"),  # drawn-out letters
    ("Let everything I said about my landlord go, please.", ForgetKind.CATEGORY, "landlord"),
    ("Any details about my overdraft can go now.", ForgetKind.CATEGORY, "overdraft"),
    ("The stuff on my old flat can be deleted.", ForgetKind.FACT, "flat"),
    ("Is it possible for you to not have my sister's mobile number?", ForgetKind.FACT, "mobile"),
    ("Could you not keep the name of my therapist?", ForgetKind.FACT, "therapist"),
    ("Would you mind deleting my gate code?", ForgetKind.FACT, "gate"),
    ("I'd like my old work address removed.", ForgetKind.FACT, "address"),
])
def test_removal_said_without_a_listed_verb(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize(("text", "new"), [
    ("My broadband provider ended up being Zeta Fibre. The old one is out of date.", "Zeta Fibre"),
    ("You'll want to use Lisbon for my base city from here on; the previous one no longer applies.", "Lisbon"),
    ("I moved to the night shift. What I told you before is outdated.", None),
    ("It's Vespa Rentals for my scooter these days, so don't bother keeping the old one.", "Vespa Rentals"),
])
def test_an_update_that_writes_the_old_value_off(text: str, new: str | None) -> None:
    from bemula.systems.erasemem.resolve import new_value_of

    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.REPLACEMENT, (text, intent)
    if new is not None:
        assert new_value_of(intent.statements, set()) == new


@pytest.mark.parametrize("text", [
    "Let the kids go to the park after lunch?",
    "I let the cat go out at night, is that ok?",
    "Let it go, it doesn't matter.",
    "The old phone is out of date but still works. Should I upgrade?",
    "Which of these can go in the dishwasher?",
    "I'd like my coffee stronger.",
    "Would you mind checking my cover letter?",
    "Sooo tired today, what should I cook?",
])
def test_the_new_idioms_do_not_read_ordinary_talk_as_a_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


def test_can_go_somewhere_is_not_a_removal() -> None:
    text = "The bakery closes for two weeks. My customers will survive, they can go to the supermarket."
    assert parse_forget_request(text) is None


def test_a_list_whose_first_item_is_described_is_still_a_list() -> None:
    intent = parse_forget_request("Please forget the shop I buy my bread from, my shoe size and my locker number.")
    assert intent is not None and intent.kind == ForgetKind.FACTS
    assert intent.targets == ["the shop I buy my bread from", "my shoe size", "my locker number"]
    one = parse_forget_request("Please forget my salt and vinegar crisps habit.")
    assert one is not None and len(one.targets) == 1  # "salt and vinegar" is not a list


def test_a_hedge_before_a_listed_antecedent_is_not_a_target() -> None:
    intent = parse_forget_request("Bit awkward, but my locker code and the name of my vet: bin those, please.")
    assert intent is not None
    assert [t.lower() for t in intent.targets] == ["my locker code", "the name of my vet"]


def test_the_thing_before_i_gave_you_is_the_target_when_only_a_time_follows() -> None:
    intent = parse_forget_request("The pension figure I gave you last week: please delete that one.")
    assert intent is not None and intent.kind == ForgetKind.FACT
    assert intent.targets == ["The pension figure"]
    about = parse_forget_request("I told you about my salary yesterday. Please forget it.")
    assert about is not None and "salary" in about.targets[0]  # the thing follows the verb: as before


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("hey quick q stop storing my locker combination", ForgetKind.FACT, "locker"),  # an unpunctuated filler
    ("um so wipe my old postcode please", ForgetKind.FACT, "postcode"),
    ("id like you to erase which choir I sing in", ForgetKind.FACT, "choir"),  # "id" for "I'd"
    ("Could you stop holding on to my locker combination?", ForgetKind.FACT, "locker"),
    ("My shoe size and my locker combination shouldn't stay with you.", ForgetKind.FACTS, "locker"),
    ("If you've held on to my vet's name, let go of that.", ForgetKind.FACT, "vet"),
    ("if youve been storing anything about my money, please stop and let all of that go", ForgetKind.CATEGORY, "money"),
    ("Let's leave my shoe size out of your notes.", ForgetKind.FACT, "shoe"),
    ("Please drop the stuff about my passport number that I brought up in our chat on bread.", ForgetKind.FACT,
     "passport"),
    ("What came up about my shoe size really shouldn't be in your records, so remove it.", ForgetKind.FACT, "shoe"),
    # no removal word at all: "shouldn't be stored" passes the quick screen by itself
    ("My bank PIN shouldn't be stored anywhere.", ForgetKind.FACT, "pin"),
])
def test_more_ways_of_asking(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_a_long_first_item_before_shouldnt_stay_with_you_is_listed_with_the_rest() -> None:
    """"Thinking about it again, A, B and C shouldn't stay with you": A is a long description
    (where it was said included), 80 characters was too short for it, and A was read as chat
    beside a list of two."""
    intent = parse_forget_request(
        "Thinking about it again, the thing I mentioned about where my cousin works when we were planning the "
        "barbecue menu, my gym days and my shoe size shouldn't stay with you.")
    assert intent is not None and intent.kind == ForgetKind.FACTS
    assert len(intent.targets) == 3 and "cousin works" in intent.targets[0]
    assert not any("cousin" in s for s in intent.statements)


@pytest.mark.parametrize("text", [
    "The kids shouldn't stay with you this weekend, they have exams.",
    "This cake shouldn't be stored in the fridge, it goes hard.",
    "hey quick q what should I cook tonight",
    "id rather go to the cinema than the pub",
    "Could you stop holding the door for me every time?",
    "If you've kept the receipt, the shop will refund it.",
    "Let's leave the bikes out of the shed tonight.",
])
def test_those_forms_do_not_read_ordinary_talk_as_a_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize("text", [
    "Wait, what I just told you, can you not hold on to that?",
    "Don't keep what I just said.",
    "Please forget the thing I mentioned a minute ago.",
    "Scrap the personal detail in my last message.",
])
def test_a_reference_to_the_last_message_is_a_request_about_it(text: str) -> None:
    from bemula.systems.erasemem.intent import JUST_SAID

    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACT, (text, intent)
    assert any(JUST_SAID.search(t) for t in intent.targets), (text, intent.targets)


@pytest.mark.parametrize(("phrase", "thing", "topic"), [
    ("the number on my passport that i brought up in our chat on fixing my slow phone", "the number on my passport",
     "fixing my slow phone"),
    ("my partner's name (I dropped it into the conversation about the dog's lead)", "my partner's name",
     "the dog's lead"),
    ("where my pension is the time we were discussing bookshelves", "where my pension is", "bookshelves"),
    ("which town I live in back when you were helping me with lunches", "which town I live in", "lunches"),
    ("where I'm going next in the middle of our talk on phone photos", "where I'm going next", "phone photos"),
    ("my pension", "my pension", None),
])
def test_a_target_that_says_which_conversation_it_was_said_in(phrase: str, thing: str, topic: str | None) -> None:
    from bemula.systems.erasemem.resolve import split_told_in

    assert split_told_in(phrase) == (thing, topic)


@pytest.mark.parametrize(("text", "targets"), [
    # the speech verb sits in a clause about the things before it
    ("My passport number and my tax number, the ones I gave you for the lease form: please don't keep them.",
     ["My passport number", "my tax number"]),
    # when it was said, then the things said
    ("the money stuff I told you last week, the figure on my card and the bit about my overdraft. "
     "Could you forget both of those?", ["the figure on my card", "the bit about my overdraft"]),
])
def test_what_a_pronoun_points_back_to(text: str, targets: list[str]) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS, (text, intent)
    assert intent.targets == targets


def _lines(name: str) -> list[str]:
    from pathlib import Path

    path = Path(__file__).parent / "data" / name
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.parametrize("text", _lines("not_requests.txt"))
def test_editing_chat_and_everyday_talk_is_not_a_request(text: str) -> None:
    # a part of a text ("the second paragraph of my cover letter"), a thing of the chat ("my
    # earlier suggestion"), the user as object ("don't keep me waiting"), a physical place
    assert parse_forget_request(text) is None, (text, parse_forget_request(text))


def _rows(name: str) -> list[tuple[str, str, str]]:
    return [tuple(line.split("\t")) for line in _lines(name)]  # type: ignore[misc]


@pytest.mark.parametrize(("kind", "word", "text"), _rows("requests.tsv"))
def test_requests_in_everyday_wording(kind: str, word: str, text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind.value == kind, (text, intent)
    if word != "-":
        assert any(word in t.lower() for t in [*intent.targets, intent.time_phrase]), (text, intent.targets)


def test_an_f1_request_keeps_what_it_says_stays() -> None:
    from bemula.systems.erasemem.resolve import exceptions_of

    intent = parse_forget_request(
        "That second tablet on my list, the one for my knee, don't hold on to that one. "
        "Just the blood pressure one on my list from now on.")
    assert intent is not None
    assert exceptions_of(intent) == ["the blood pressure one on my list"]


@pytest.mark.xfail(strict=True, reason="known limits of the rules (data/requests_missed.tsv)")
@pytest.mark.parametrize(("kind", "word", "text"), _rows("requests_missed.tsv"))
def test_requests_the_rules_still_miss(kind: str, word: str, text: str) -> None:
    test_requests_in_everyday_wording(kind, word, text)


@pytest.mark.parametrize(("text", "new"), [
    # the new value comes in a phrasing no pattern knows: its shape says it
    ("Octopus Energy is who I'm with these days, so drop the previous one.", "Octopus Energy"),
    ("Went for hello@brightmail.net in the end. Bin the old one.", "hello@brightmail.net"),
    ("Swimming is Tuesdays and Fridays going forward, forget the previous one.", "Tuesdays and Fridays"),
])
def test_an_update_whose_new_value_no_phrasing_introduces(text: str, new: str) -> None:
    from bemula.systems.erasemem.intent import _CHANGE
    from bemula.systems.erasemem.oldvalue import value_stated

    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.REPLACEMENT, (text, intent)
    assert value_stated(intent.statements, _CHANGE) == new


def test_forgetting_the_old_one_with_no_value_beside_it_is_not_an_update() -> None:
    intent = parse_forget_request("Please forget the old one, it's confusing me.")
    assert intent is None or intent.kind != ForgetKind.REPLACEMENT


@pytest.mark.parametrize(("text", "topic"), [
    ("Please delete our conversation about planning the allotment.", "planning the allotment"),
    ("Wipe whatever I shared back when we were discussing my tax return.", "my tax return"),
    ("No need to keep everything that came up around choosing a new boiler.", "choosing a new boiler"),
    ("Drop the chat where we got into my sister's wedding speech, please.", "my sister's wedding speech"),
])
def test_a_conversation_named_by_its_topic_is_a_window(text: str, topic: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, (text, intent)
    assert intent.time_phrase == topic


def test_what_i_told_you_about_a_thing_is_not_a_window() -> None:
    intent = parse_forget_request("Delete what I told you about my pension.")
    assert intent is not None and intent.kind == ForgetKind.FACT


@pytest.mark.parametrize("text", [
    "We changed broadband providers, it's Zen now, and the previous one doesn't apply any more.",
    "Moved my savings over to Marcus last month, so whatever I had before is no longer worth keeping.",
    "The gym is PureGym now and the old one shouldnt come up again.",
    "my bank switched to Starling, whatever i had b4 doesnt apply",
    "could you switch my default browser over to Firefox? and delete the earlier one.",
])
def test_an_update_that_writes_off_the_old_value_without_a_removal_verb(text: str) -> None:
    """People retire the old value of an update by saying it no longer counts: "the previous
    one doesn't apply any more", "whatever I had before is no longer worth keeping"."""
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert intent.kind == ForgetKind.REPLACEMENT, (text, intent)


@pytest.mark.parametrize("text", [
    "That discount doesn't apply to me anymore, sadly.",
    "The old rules don't apply here, apparently.",
    "Does the earlier deadline still apply?",
    "My old phone is no longer worth keeping, should I sell it?",
])
def test_something_that_no_longer_applies_is_not_a_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "word"), [
    ("don't go drawing conclusions about how much I earn from what I've told you", "earn"),
    ("No deductions about where my kids go to school, please. The separate facts are fine.", "school"),
    ("Whatever you can piece together, please don't hold any view on my marriage.", "marriage"),
    ("I'd rather you never calculate how old my mum is; if you did already, drop it.", "mum"),
])
def test_asking_for_no_inference_without_the_usual_verbs(text: str, word: str) -> None:
    """"Don't go drawing conclusions", "no deductions about", "don't hold any view on", "never
    calculate X": each asks for no conclusion (F4) about what follows."""
    _assert_reads(text, ForgetKind.CONCLUSION, word)


@pytest.mark.parametrize("text", [
    "No worries about the delay, honestly.",
    "I never calculate tips properly, can you help?",
    "Could you calculate my mortgage payment?",
    "No conclusions yet on the house, we're still looking.",
    "I don't have a view on the election, do you?",
    "Don't go making a fuss about it.",
])
def test_talk_of_views_and_sums_is_not_a_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "category"), [
    ("Forget my computers and other electronics, except the work laptop, I need that one.", "tech"),
    ("I'd rather you didn't keep my travel plans any more. The only thing worth keeping is my frequent flyer number.",
     "travel"),
    ("Can you drop the things I've told you about my pets? Sorry to be a pain.", "pets"),
])
def test_a_set_with_an_exception_or_told_things_about_a_category_is_a_category_request(
        text: str, category: str) -> None:
    """A plural set the user carves one thing out of, or "the things I've told you about X",
    is a category (F3), not one fact named by those words."""
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.CATEGORY, (text, intent)
    assert category in intent.categories, (text, intent.categories)


@pytest.mark.parametrize("text", [
    "Forget my address, except keep the postcode.",
    "Delete my phone number and email, but keep my GitHub username.",
    "Forget the thing I told you about my pension.",
])
def test_single_facts_with_an_exception_stay_single_facts(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind in (ForgetKind.FACT, ForgetKind.FACTS), (text, intent)


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("Would you mind letting go of my sister's address and my gym code?", ForgetKind.FACTS, "gym"),
    ("Who my first boss was and where I grew up — none of that needs to be stored, so drop it.",
     ForgetKind.FACTS, "grew up"),
    ("Octopus Energy, that's my supplier now after the switch, so please let the old one go.",
     ForgetKind.REPLACEMENT, "old"),
    ("Please delete the old answer for my bank and use Monzo instead.", ForgetKind.REPLACEMENT, "old"),
])
def test_more_ways_people_ask(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_something_wanted_off_the_records_is_a_request_and_a_packing_list_is_not() -> None:
    _assert_reads("I'd like my salary off your records, please.", ForgetKind.FACT, "salary")
    assert parse_forget_request("I want my shoes off the list of things to pack.") is None


def test_the_exception_is_clause_and_the_bits_about_an_area() -> None:
    from bemula.systems.erasemem.resolve import exceptions_of

    intent = parse_forget_request("You can erase the bits about my calendar, the exception is the dental booking, "
                                  "which I'd like you to hold on to.")
    assert intent is not None and intent.kind == ForgetKind.CATEGORY and "schedule" in intent.categories
    assert any("dental booking" in x for x in exceptions_of(intent))


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("What I told you when we talked about my job interview was more than I should have shared, "
     "so please stop keeping any of it.", ForgetKind.TIME_WINDOW, "interview"),
    ("What I told you about my ex was too much. Please delete it.", ForgetKind.FACT, "ex"),
])
def test_what_i_said_was_too_much_then_any_of_it(text: str, kind: ForgetKind, word: str) -> None:
    """"What I told you … was more than I should have shared" names what a later "any of
    it" / "it" means."""
    _assert_reads(text, kind, word)


@pytest.mark.parametrize("text", [
    "What I told my boss was too much, honestly.",
    "I never keep any of it, to be honest.",
])
def test_too_much_said_to_someone_else_is_not_a_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


def _rewritten_without_needles(text: str) -> str:
    from bemula.systems.erasemem.intent import (
        _FRONTED_OBJECT,
        _REWRITES,
        _UNPUNCTUATED_START,
        _VERB_ENDS_SENTENCE,
        _object_first,
    )

    text = _UNPUNCTUATED_START.sub(". ", text)
    for pattern, repl, _needles in _REWRITES:
        text = pattern.sub(repl, text)
    # (the object said before its verb is read after every rewrite, needles or not)
    return _FRONTED_OBJECT.sub(_object_first, text) if _VERB_ENDS_SENTENCE.search(text) else text


def test_a_rewrites_needles_never_skip_a_rewrite_that_would_have_matched() -> None:
    """Each rewrite runs only when one of its needle words is in the turn; a needle list
    that missed a wording the pattern reads would silently drop that idiom. Every user
    turn of the hand-written set and every request and non-request written in this file
    must read the same with the needles as with every pattern tried."""
    from bemula.dataset import Dataset, resolve_data
    from bemula.systems.erasemem.intent import canonical_request_text

    dataset = Dataset.open(resolve_data("handwritten"))
    texts = [turn.text for iid in dataset.ids() for dialogue in (dataset.load(iid).forget,)
             for _, turn in dialogue.iter_turns() if turn.role.value == "user"]
    texts += [text for group in (F1, F2, F3, F4) for text in group]
    # the idioms as written in the rewrites' own comments, and spelled oddly
    texts += ["Would you mind terribly not holding onto my PIN?", "pls dont keep my salary, thx",
              "Mind dropping my salary?", "The previous one doesn't apply any more.",
              "I'd like all my pastimes removed", "Let whatever I told you about Sam go.",
              "Where my mother comes from and my car — none of that needs to be stored.",
              "no deductions about my health, please", "I'd prefer you never   calculate my age",
              "Let's pretend I never told you about the loan.", "Whatever I had b4 is no longer worth keeping"]
    assert len(texts) > 500
    for text in texts:
        assert canonical_request_text(text) == _rewritten_without_needles(text), text


@pytest.mark.parametrize(("text", "kind", "word"), [
    # the sentence after the request explains it; it is no new task (no question mark)
    ("All of what I said at the barbecue, I would honestly prefer you don't keep it. Is not that any of it "
     "was untrue.", ForgetKind.FACT, "barbecue"),
    ("I'd just as soon you didn't keep my sister's address.", ForgetKind.FACT, "address"),
    ("I would sooner you didn't remember my locker code.", ForgetKind.FACT, "locker"),
    # ", I'll …" after the object starts a clause, not a list item
    ("Please forget my gym schedule, I'll keep track of it myself.", ForgetKind.FACT, "gym"),
])
def test_explanations_after_a_request_and_as_soon_you_didnt(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)
    intent = parse_forget_request(text)
    assert intent is not None and not any("myself" in t or "untrue" in t for t in intent.targets), intent


@pytest.mark.parametrize("text", [
    "Forget the formal tone. Is this paragraph too long?",
    "Forget rhyming. What rhymes with orange?",
    "I'd just as soon you came with me to the clinic.",
    "I'd just as soon you kept my old address, actually.",
])
def test_a_question_as_the_next_task_and_as_soon_you_did_are_no_requests(text: str) -> None:
    assert parse_forget_request(text) is None, text


def test_a_mood_after_now_im_is_no_new_value() -> None:
    """"… and now I'm paranoid" tells how the user feels; it made a plain removal an F6
    whose "new value" was "paranoid", and nothing was deleted."""
    from bemula.systems.erasemem.resolve import new_value_of

    assert new_value_of(["my flatmate saw the screen and now I'm paranoid lol."], set()) is None
    assert new_value_of(["now I'm wondering whether that was wise"], set()) is None
    assert new_value_of(["now it's fine, honestly"], set()) is None
    assert "Halden Logistics" in (new_value_of(["now I'm at Halden Logistics"], set()) or "")
    assert new_value_of(["it's Octopus Energy now"], set()) == "Octopus Energy"
    _assert_reads("My flatmate saw me type it and now I'm paranoid. Can you stop keeping my bank PIN please.",
                  ForgetKind.FACT, "pin")


def test_a_list_sentence_before_dont_keep_all_that_is_what_it_means() -> None:
    """"The amount, the rate, the man at the bank. I don't want all that kept somewhere.":
    the items of the sentence before, not "all that somewhere"."""
    intent = parse_forget_request("I said too much about the mortgage. The amount, the rate, the broker's name. "
                                  "I don't want all that kept somewhere.")
    assert intent is not None and intent.kind == ForgetKind.FACTS, intent
    assert [t.lower() for t in intent.targets] == ["the amount", "the rate", "the broker's name"]


def test_the_old_value_as_a_subject_is_what_keep_it_means() -> None:
    """"my address is X now. the old address is deprecated … no need to keep it": an update
    of the address, its new value said with a comma inside."""
    from bemula.systems.erasemem.resolve import new_value_of

    text = ("for the record, my address is 88 Quay Street, Flat 3 now. the old address is deprecated, "
            "actually gone. no need to keep it anywhere.")
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.REPLACEMENT, intent
    assert intent.targets == ["the old address"]
    assert new_value_of(intent.statements, set()) == "88 Quay Street, Flat 3"
    assert parse_forget_request("My old laptop is obsolete, can you help me pick a new one?") is None


def test_a_referent_sentence_just_before_forget_it_outranks_older_sentences() -> None:
    """"… and I went on about stuff. That whole conversation. I want you to forget it.": the
    conversation (a window), not "stuff"."""
    intent = parse_forget_request("Remember last Tuesday night when I went on about stuff. That whole conversation. "
                                  "I want you to forget it, all of it.")
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent


def test_a_list_after_a_dash_spells_out_the_object() -> None:
    """"the particulars I copied out — his insurance number, the number the Fund knows him
    by, and his birthday": three things, not "the particulars"."""
    intent = parse_forget_request("Would you mind not holding on to the details I copied from Dad's papers — his "
                                  "insurance number, the number the pension fund knows him by, and his birthday? "
                                  "They have done their job.")
    assert intent is not None and intent.kind == ForgetKind.FACTS, intent
    assert intent.targets == ["his insurance number", "the number the pension fund knows him by", "his birthday"]
    # a dash before a sentence that lists nothing leaves the object alone
    intent = parse_forget_request("Please forget my travel plans - I changed my mind about all of it.")
    assert intent is not None and intent.targets == ["my travel plans"], intent


@pytest.mark.parametrize(("text", "target"), [
    ("Two other things. (1) Can you remind me about the dentist? (2) The car loan figure I gave you last week: "
     "please delete that one.", "the car loan figure"),
    ("The old place is done, you don't need to keep that address for anything anymore.", "address"),
])
def test_enumerators_and_for_anything_are_no_part_of_a_target(text: str, target: str) -> None:
    from bemula.systems.erasemem.intent import clean_target

    intent = parse_forget_request(text)
    assert intent is not None and [t.lower() for t in intent.targets] == [target], intent
    assert clean_target("b) my badge number") == "my badge number"
    assert clean_target("2. the gate code") == "the gate code"


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("Lose the name of my son's nursery, please, I got nervous after I hit send.", ForgetKind.FACT, "nursery"),
    ("Nuke all the dating app drama from ur memory.", ForgetKind.CATEGORY, "dating"),
    ("omg i pasted my streaming password, forgt it plz", ForgetKind.FACT, "password"),
    ("foget my locker code, I changed it anyway", ForgetKind.FACT, "locker"),
])
def test_lose_nuke_and_a_mistyped_forget_are_removal_verbs(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize("text", [
    "I always lose my keys.",
    "I want to lose weight before the wedding.",
    "Don't lose my place in the queue.",
    "If I lose my job, what happens to my pension?",
    "We might lose the deposit on the flat.",
    "Nuke the leftovers for two minutes.",
])
def test_losing_things_and_nuking_leftovers_are_no_requests(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("Everything about my health — forget it.", ForgetKind.CATEGORY, "health"),
    ("The counsellor's name and the clinic's address — forget both of them.", ForgetKind.FACTS, "counsellor"),
    ("Tax reference, national insurance number, driving licence — erase all of them, please.", ForgetKind.FACTS, "tax"),
])
def test_what_stands_before_a_dash_is_what_it_means(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize("text", [
    "Ugh, never mind — forget it.",
    "I was so tired last night — forget it.",
    "The weather was awful — forget it, let's talk about work.",
    "Both of them are coming to dinner.",
    "The lot behind the school is for sale.",
])
def test_a_sentence_or_an_interjection_before_a_dash_is_no_antecedent(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("The counsellor's name and the clinic's address — neither should stay in memory.", ForgetKind.FACTS, "clinic"),
    ("My bonus figure, 12,400, isn't something I want stored anywhere, so let it go.", ForgetKind.FACT, "bonus"),
    ("i asked for a tofu recipe ONCE. dont save me as vegan lol", ForgetKind.CONCLUSION, "vegan"),
    ("I looked at flats in Leeds out of curiosity. Don't start assuming I'm moving.", ForgetKind.CONCLUSION, "moving"),
    ("Please do not mark me down as a smoker.", ForgetKind.CONCLUSION, "smoker"),
    ("Nobody knows yet, so the new job thing — act like I never said it, ok?", ForgetKind.FACT, "job"),
])
def test_not_something_i_want_kept_neither_should_stay_and_dont_save_me_as(
        text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize("text", [
    "None of my friends should be kept waiting.",
    "Neither option should be kept, it's a bad plan.",
    "Don't put me as the contact on the form.",
    "Save me a seat at the front.",
    "Don't start thinking about dinner yet, we have an hour.",
])
def test_waiting_friends_seats_and_dinner_plans_are_no_requests(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "word"), [
    ("That question about payday loans doesn't mean I'm in debt. Erase that conclusion.", "debt"),
    ("I'm not religious. I was asking for my nan. Don't hold that assumption.", "religious"),
    ("Asking for low-salt recipes ≠ heart patient. Don't store that inference.", "heart"),
])
def test_that_conclusion_is_the_trait_the_user_disputes(text: str, word: str) -> None:
    _assert_reads(text, ForgetKind.CONCLUSION, word)


@pytest.mark.parametrize("text", [
    "I'm not sure about the dates. Forget that idea.",
    "Don't hold the door for me.",
    "Please file that away in the blue folder.",
])
def test_an_idea_doors_and_folders_are_no_conclusions(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "targets"), [
    ("Things I don't want kept: my aunt's diagnosis and my uncle's debts.", ["my aunt's diagnosis", "my uncle's debts"]),
    ("Two things to let go of: my step count and the name of my physio.", ["my step count", "the name of my physio"]),
    ("Neither my Strava handle nor my Reddit one needs to be remembered.", ["my Strava handle", "my Reddit one"]),
    ("Quick one: the B&B we booked in Whitby and our room number, I'd prefer those weren't remembered.",
     ["the B&B we booked in Whitby", "our room number"]),
])
def test_lists_introduced_or_closed_by_a_wish_not_to_keep_them(text: str, targets: list[str]) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS, intent
    assert intent.targets == targets


@pytest.mark.parametrize("text", [
    "Things to do today: the laundry and the car.",
    "Neither my brother nor my sister needs to be told.",
    "The blue one, I'd prefer it wasn't too bright.",
])
def test_todo_lists_and_colour_wishes_are_no_requests(text: str) -> None:
    assert parse_forget_request(text) is None, text


def test_a_convo_is_a_conversation_and_id_like_kept_reads_like_i_want_kept() -> None:
    _assert_reads("Anything from Sunday evening's convo with you isn't something I'd like kept.",
                  ForgetKind.TIME_WINDOW, "sunday")
    assert parse_forget_request("The convo with my boss went well.") is None


@pytest.mark.parametrize(("text", "targets"), [
    ("Remove: landlord's name, rent amount, lease end date.", ["landlord's name", "rent amount", "lease end date"]),
    ("Tax reference, national insurance number, driving licence — erase all of them, please.",
     ["Tax reference", "national insurance number", "driving licence"]),
])
def test_a_list_of_bare_noun_phrases_is_a_list(text: str, targets: list[str]) -> None:
    """Three short noun phrases between commas are three things, though none starts with
    "my" or "the"."""
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS, intent
    assert intent.targets == targets
    # two clauses are no list: the object stays one
    intent = parse_forget_request("Please forget my gym schedule, I'll keep track of it myself.")
    assert intent is not None and intent.targets == ["my gym schedule"], intent


@pytest.mark.parametrize("text", [
    "our chat the night of the leaving do, pls forget it. i was drunk",
    "Delete the chat I had with my brother at the funeral.",
])
def test_a_conversation_named_by_an_occasion_is_a_window(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent


def test_the_verbs_particle_before_a_quantifier_is_no_part_of_the_target() -> None:
    """"Clear out everything medical you've got on me": everything medical (F3), not "out …"."""
    intent = parse_forget_request("Clear out everything medical you've got on me, but keep my dentist's name.")
    assert intent is not None and intent.kind == ForgetKind.CATEGORY and "health" in intent.categories, intent
    intent = parse_forget_request("Please clear out my old addresses.")
    assert intent is not None and intent.targets == ["my old addresses"], intent


# --- someone else's fact, named by a possessive pronoun ---


def test_a_third_persons_fact_named_by_pronoun_is_a_request_when_memory_holds_it() -> None:
    # "remove his blood type" shows no sign the object is the user's: it is a request only
    # when memory holds such a thing, and a chat artefact ("her last message") never is
    holds = lambda phrase: "blood" in phrase or "message" in phrase  # noqa: E731
    intent = parse_forget_request("Tomasz is private about health stuff, so could you remove his blood type?", known=holds)
    assert intent is not None and intent.kind == ForgetKind.FACT and intent.targets == ["his blood type"]
    assert parse_forget_request("Could you remove his blood type?", known=lambda phrase: False) is None
    assert parse_forget_request("Delete her last message, it repeats the first one.", known=holds) is None


def test_a_thing_no_longer_needed_is_what_forget_it_points_at() -> None:
    intent = parse_forget_request("the kettle's arrived so you don't need its order number anymore, forget it")
    assert intent is not None and intent.kind == ForgetKind.FACT
    assert intent.targets == ["its order number"]


@pytest.mark.parametrize(
    ("text", "target_word"),
    [
        ("Council tax went up again. Whatever amount you had before, replace it.", "amount"),
        ("It's Dr Mensah who's my dentist now. Could you replace the previous dentist in your notes?", "dentist"),
        ("My cardiologist switched me off bisoprolol. Please replace the bisoprolol in whatever you have on me with the new one.",
         "bisoprolol"),
        ("I'm on 52k now, so whatever salary figure you had before, overwrite it.", "salary"),
    ],
)
def test_replacing_what_memory_holds_removes_the_old_value(text: str, target_word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None, text
    assert any(target_word in t.lower() for t in intent.targets), intent
    assert not any(" with " in t for t in intent.targets), intent  # the new value is no target


@pytest.mark.parametrize(
    "text",
    [
        "Please replace the onions with leeks in this recipe.",
        "Replace my CV summary with this paragraph.",
        "Can you replace the intro with something punchier?",
        "Should I replace the old tyres before winter?",
        "I'd like to replace my old laptop, any suggestions?",
    ],
)
def test_replacing_things_that_are_not_memory_is_no_request(text: str) -> None:
    assert parse_forget_request(text) is None, text


def test_a_second_removal_verb_starts_a_second_target() -> None:
    intent = parse_forget_request("Please delete my locker code and forget my badge number.")
    assert intent is not None and intent.kind == ForgetKind.FACTS
    assert intent.targets == ["my locker code", "my badge number"]
    intent = parse_forget_request("Please replace Okafor with Mensah everywhere and forget Okafor.")
    assert intent is not None and intent.targets == ["Okafor"]


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("actually scratch tomas's address, he asked me not to pass it around", "tomas's address"),
        ("Honestly I'm not comfortable with the garage code being stored anywhere. Please delete it.", "the garage code"),
        ("I'd rather you didn't hold anything about the insulin mix-up, it was nothing.", "the insulin mix-up"),
        ("mum asked me not to tell anyone about the £3,000 and now it feels odd that you know. i'd prefer you not remember it",
         "the £3,000"),
        ("Legal says the Osprey contract value is confidential for now. Please remove that figure from your memory.",
         "the Osprey contract value"),
        ("forget that parcel's tracking number, the sofa one's still live", "parcel's tracking number"),
    ],
)
def test_more_ways_people_point_at_what_to_forget(text: str, target: str) -> None:
    intent = parse_forget_request(text, known=lambda phrase: True)
    assert intent is not None, text
    assert intent.targets == [target], intent


def test_taking_a_detail_off_is_a_request_and_taking_a_coat_off_is_not() -> None:
    holds = lambda phrase: True  # noqa: E731
    intent = parse_forget_request("Eamon moved away last month. Please take his number off.", known=holds)
    assert intent is not None and intent.targets == ["his number"]
    assert parse_forget_request("Take your coat off and stay a while.", known=holds) is None
    assert parse_forget_request("Can you take the phone number off the flyer?", known=holds) is None


def test_what_a_request_says_is_still_live_is_kept() -> None:
    from bemula.systems.erasemem.resolve import exceptions_of

    intent = parse_forget_request("forget that parcel's tracking number, the sofa one's still live")
    assert intent is not None and exceptions_of(intent) == ["the sofa one"]


def test_a_passive_after_got_is_no_new_value() -> None:
    from bemula.systems.erasemem.resolve import new_value_of

    assert new_value_of(["the trip got cancelled, typical."], set()) is None
    assert new_value_of(["I got a Brompton last week."], set()) == "Brompton"


def test_that_noun_means_the_noun_phrase_said_before_with_that_noun() -> None:
    intent = parse_forget_request("We've cancelled the Galway guesthouse because friends put us up, so could you delete that guesthouse "
                                  "from my notes? The Dublin one is unchanged.")
    assert intent is not None and intent.targets == ["the Galway guesthouse"], intent


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("My mum says it's not safe that you keep the spare key code. Please remove only this, the rest is fine.",
         "the spare key code"),
        ("He'd hate it if he knew I'd told anyone about him and Priya, so can you wipe that bit?", "him and Priya"),
        ("My sister handles nana's pension now, so I think is better you don't have nana's pension number anymore.",
         "nana's pension number"),
        ("Honestly, the fact that I have no will isn't something I want on file.", "I have no will"),
        ("I've had to cancel the 3 June scan, that date's no good anymore, so please forget it.", "the 3 June scan"),
        ("My profile should only show my current school. Please delete the two previous schools.", "the two previous schools"),
        ("can u make sure the old landline is properly gone? it got passed to a scammer", "the old landline"),
        ("My dad has now concluded his physio, so there is no need to hold Ms Okoro's details any longer. Kindly delete them.",
         "Ms Okoro's details"),
        ("Please don't keep grandad's badge number anymore. Can you delete it?", "grandad's badge number"),
    ],
)
def test_requests_written_by_a_fourth_writer_s_patterns(text: str, target: str) -> None:
    intent = parse_forget_request(text, known=lambda phrase: True)
    assert intent is not None, text
    # ("the two previous schools" counts two facts: F2)
    assert intent.kind in (ForgetKind.FACT, ForgetKind.REPLACEMENT, ForgetKind.FACTS), intent
    assert intent.targets == [target], intent


def test_one_of_the_users_things_named_by_one() -> None:
    holds = lambda phrase: "hall" in phrase or "wifi" in phrase  # noqa: E731
    intent = parse_forget_request("Drop the hall one. Rethinking it.", known=holds)
    assert intent is not None and intent.targets == ["the hall one"]
    assert parse_forget_request("Drop the blue one, it clashes.", known=holds) is None


@pytest.mark.parametrize(
    "text",
    [
        "It's better you don't have to wait for me.",
        "I'd rather you didn't hold the meeting on Friday.",
        "Better that you don't keep the receipt in your wallet.",
        "I'd rather you didn't keep the cheese in the fridge.",
    ],
)
def test_wishes_about_other_things_than_memory_are_no_requests(text: str) -> None:
    assert parse_forget_request(text, known=lambda phrase: True) is None, text


# --- 2026-12-07, third session: wording from two more independently written sets ----------
# (the sentences below are our own variants of each class; the sets' dev halves were read,
# their held-out halves were not)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Stop treating me like I'm fragile.", "fragile"),
        ("Stop acting like I own a car, I take the bus everywhere.", "car"),
        ("Can you stop presuming I'm retired? Bin that.", "retired"),
        ("You've obviously decided I'm a smoker. I'm not. Please let go of that.", "smoker"),
        ("You seem to have filed me as unemployed. Please remove that assumption.", "unemployed"),
        ("I think you figured I have a dog. Not true, drop that inference.", "dog"),
    ],
)
def test_a_conclusion_told_by_how_the_assistant_treats_the_user(text: str, word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.CONCLUSION, intent
    assert any(word in t for t in intent.targets), intent


def test_a_bare_pronoun_after_the_user_s_own_no_is_no_conclusion() -> None:
    # only a view the user says the assistant holds ("you've decided I'm …") is a conclusion
    assert parse_forget_request("I'm not going to the gym tonight, forget it.") is None


@pytest.mark.parametrize(
    "text",
    [
        "Rent went up to £1,240 a month, so forget the old 990 figure.",
        "We've relocated to Bristol now, so bin the Cardiff address.",
        "I've gone pescatarian this year, delete the note that I'm vegetarian.",
        "Heads up: new licence, number 88213406, scrap the old licence number.",
        "I'm 41 now, not 40. You can drop the 40.",
        "I no longer take ramipril, they switched me to losartan. Please erase the ramipril.",
        "My daughter goes to Greenfield now. Remove Oakwood Primary.",
    ],
)
def test_a_change_told_in_everyday_words_is_a_replacement(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.REPLACEMENT, intent


@pytest.mark.parametrize(
    "text",
    [
        "Could you take my email off your memory? I'm not comfortable with it now.",
        "Whatever you know about my job there, purge it; it's irrelevant now.",
    ],
)
def test_a_state_that_holds_now_is_no_new_value(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind != ForgetKind.REPLACEMENT, intent


def test_a_fresh_value_in_the_rent_keeps_its_thousands() -> None:
    from bemula.systems.erasemem.resolve import new_value_of

    assert new_value_of(["Rent went up to £1,150 a month."], set()) == "£1,150 a month"


@pytest.mark.parametrize(
    ("text", "kind", "targets"),
    [
        ("Please you delete my old number, I not use it now.", ForgetKind.FACT, ["my old number"]),
        ("drop my weight from ur memory thx", ForgetKind.FACT, ["my weight"]),
        ("you've clearly decided I'm diabetic - I'm not, please drop it from your picture of me",
         ForgetKind.CONCLUSION, ["I'm diabetic"]),
        ("I gave you my gym code and my bike lock code earlier. Bin both.", ForgetKind.FACTS,
         ["my gym code", "my bike lock code earlier"]),
        ("i told u my weight and my blood pressure, wipe both pls", ForgetKind.FACTS, ["my weight", "my blood pressure"]),
        ("Router password, alarm code. Clear both out of your memory.", ForgetKind.FACTS, ["Router password", "alarm code"]),
        ("Please delete the following from memory: 1) my NHS number, 2) my blood type.", ForgetKind.FACTS,
         ["my NHS number", "my blood type"]),
        ("Can you remove both of my parents' phone numbers?", ForgetKind.FACTS, ["my parents' phone numbers"]),
        ("You don't need my tax number. Delete it.", ForgetKind.FACT, ["my tax number"]),
        ("hey assistant please delete the fact that my cat is called Miso thanks", ForgetKind.FACT,
         ["my cat is called Miso"]),
    ],
)
def test_learner_forms_memory_tails_and_counted_objects(text: str, kind: ForgetKind, targets: list[str]) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == kind, intent
    assert intent.targets == targets, intent


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Please don't keep any of my medical details.", "health"),
        ("Don't hold on to any of my political views, please.", "beliefs"),
        ("Delet evrything about my job pls", "work"),
    ],
)
def test_a_quantified_area_is_a_category(text: str, category: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.CATEGORY and category in intent.categories, intent


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Everything regarding my uncle, please erase.", "my uncle"),
        ("Everything about Marco. Gone.", "Marco"),
        ("I told you a lot about the custody hearing. Please wipe every bit of it.", "the custody hearing"),
    ],
)
def test_an_object_said_before_its_verb_or_as_a_lot_about(text: str, target: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.CATEGORY and intent.targets == [target], intent


@pytest.mark.parametrize(
    "text",
    [
        "My son wiped his phone and now the photos are gone. Any way back?",
        "Delete my bank details from this invoice before I send it.",
        "Can you remove the old office address from the footer of this newsletter?",
    ],
)
def test_gone_things_and_artefacts_are_no_requests(text: str) -> None:
    assert parse_forget_request(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "forget everything i said since about 10 this morning",
        "I request that all content from our session on 3 November be removed from your memory.",
        "Anything I said between Christmas and New Year, forget it.",
        "plese forgte waht i said erlier today",
    ],
)
def test_windows_in_other_words(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent


@pytest.mark.parametrize("text, targets", [
    # an "and" inside an item ("the make and model") does not end it
    ("Please forget where my mother comes from and the make and model of my car.",
     ["where my mother comes from", "the make and model of my car"]),
    ("Forget the salt and pepper I like.", ["the salt and pepper I like"]),
    ("Forget EDF and Bulb.", ["EDF", "Bulb"]),
])
def test_a_list_splits_at_its_items_not_at_every_and(text: str, targets: list[str]) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.targets == targets


@pytest.mark.parametrize("text, target", [
    # a word that names a piece of writing ("signature", "photo") is only that as the head noun
    ("Please forget my signature dish.", "my signature dish"),
    ("Forget my photo album.", "my photo album"),
])
def test_a_writing_word_before_another_noun_is_no_piece_of_writing(text: str, target: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.targets == [target]


@pytest.mark.parametrize("text", ["Delete my last draft.", "Scrap my second option please.", "Delete my cover letter draft."])
def test_a_piece_of_writing_as_the_head_noun_is_no_request(text: str) -> None:
    assert parse_forget_request(text) is None


@pytest.mark.parametrize(("text", "word"), [
    ("Just because I asked about hearing aids doesn't mean I'm going deaf, so drop that idea.", "deaf"),
    ("You seem to have decided I'm a vegetarian. I'm not, please delete that.", "vegetarian"),
    ("Looks like you've got me down as a night owl. Scrap it, I'm up at six.", "owl"),
    ("why do u think im unemployed?? cross that out pls", "unemployed"),
    ("Don't remember me as a gambler just because I asked about poker odds once.", "gambler"),
])
def test_a_conclusion_stated_in_one_sentence_and_removed_by_a_pronoun_is_f4(text: str, word: str) -> None:
    _assert_reads(text, ForgetKind.CONCLUSION, word)


@pytest.mark.parametrize("text", [
    "Do you think I'm too old to start piano? Maybe I should drop it.",
    "Please don't remember me as the quiet one at the party!",
    "My manager thinks I'm lazy; should I just drop it?",
    "You think I'm right about the boiler? Then I'll remove the old valve.",
])
def test_an_opinion_asked_about_or_a_wish_is_no_conclusion_request(text: str) -> None:
    assert parse_forget_request(text) is None


@pytest.mark.parametrize("text", [
    "Could you wipe everything since Thursday? I overshared.",
    "please delete everything from this afternoon's chat",
    "I'd rather you didn't keep the stuff from last weekend, please remove it.",
])
def test_everything_of_a_time_is_a_window(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent


def test_everything_about_a_topic_with_a_time_in_it_is_no_window() -> None:
    intent = parse_forget_request("Please forget everything about my trip next week.")
    assert intent is not None and intent.kind != ForgetKind.TIME_WINDOW, intent


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("We've got the grey Octavia now. The red Fiesta is gone, so forget it.", ForgetKind.REPLACEMENT, "fiesta"),
    ("Moved my savings to Brightwell, so the Cobalt account isn't relevant anymore, please remove it.",
     ForgetKind.REPLACEMENT, "cobalt"),
    ("I'm no longer on amitriptyline, please take that off my notes.", ForgetKind.FACT, "amitriptyline"),
])
def test_a_pronoun_points_at_what_the_user_says_is_over(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_being_off_for_a_while_is_nothing_over() -> None:
    assert parse_forget_request("I'm not on call this weekend, forget it.") is None


@pytest.mark.parametrize(("target", "items"), [
    ("my waist, inside leg and collar size", ["my waist", "my inside leg", "my collar size"]),
    ("my shift pattern n pay grade", ["my shift pattern", "my pay grade"]),
    ("my cousin's address nor her phone number", ["my cousin's address", "her phone number"]),
    ("my medications (lithium, quetiapine) and my GP's name", ["my medications (lithium, quetiapine)", "my GP's name"]),
    ("rock and roll", ["rock and roll"]),
    ("my mum and dad's anniversary", ["my mum and dad's anniversary"]),
])
def test_list_items_share_a_possessive_said_once_and_keep_what_is_in_brackets(target: str, items: list[str]) -> None:
    assert split_targets(target) == items


def test_a_comment_after_a_list_is_not_an_item() -> None:
    intent = parse_forget_request("scrap my cat's name and my first school, those are my password hints lol")
    assert intent is not None and intent.targets == ["my cat's name", "my first school"], intent


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("My bike lock code, which I gave you when I lost the key, need not be kept any longer.", ForgetKind.FACT, "lock"),
    ("the thing about my overdraft, thats not something i want u holding onto", ForgetKind.FACT, "overdraft"),
    ("It would ease my mind if you no longer retained my niece's school name.", ForgetKind.FACT, "school"),
    ("I'd be grateful if my old Hotmail address were removed.", ForgetKind.FACT, "hotmail"),
    ("that long rant about my flatmate, can that not be stored?", ForgetKind.FACT, "flatmate"),
    ("Kindly take off the record the sum I lent my brother-in-law.", ForgetKind.FACT, "sum"),
    ("I told you a great deal about my sister's divorce. I should like all of it put out of your memory.",
     ForgetKind.FACT, "divorce"),
    ("Disregard the blood test result I mentioned, please.", ForgetKind.FACT, "blood"),
    ("Could I trouble you to set aside the figure I gave you for my pension pot?", ForgetKind.FACT, "pension"),
    ("My previous phone number you can delete please, is not used anymore.", ForgetKind.FACT, "phone"),
])
def test_removal_said_in_idioms_people_use(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize(("text", "word"), [
    ("the house move and the mortgage - everything ive said about that, pls bin it", "mortgage"),
    ("My row with the neighbours over parking, all you have about it, erase it.", "neighbours"),
    ("My gambling problem, everything about it, can you remove from memory?", "gambling"),
])
def test_a_topic_said_first_then_everything_about_it_is_a_category_request(text: str, word: str) -> None:
    _assert_reads(text, ForgetKind.CATEGORY, word)


def test_everything_from_an_occasion_is_a_window() -> None:
    intent = parse_forget_request("anything from the night of the leaving do, drop it, i was a mess")
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent


@pytest.mark.parametrize("text", [
    "I want to set aside some money for my holiday, can you help?",
    "How do I dispose of my old mattress?",
    "I'm so grateful you helped with my CV.",
    "Could I ask you to help me with my tax return?",
    "Paris, anything you can tell me about it?",
    "I'd be grateful if you could check my cover letter.",
    "My sister will withdraw her application if the pay is that low.",
])
def test_idiom_words_in_ordinary_talk_are_no_requests(text: str) -> None:
    assert parse_forget_request(text) is None


@pytest.mark.parametrize("text", [
    "The stew recipe wants chorizo, drop it and suggest something milder for the kids.",
    "Call me Friday — scratch that, I meant Saturday — about the allotment rota.",
    "Mum keeps telling me to forgive and forget with my brother. Is that fair?",
    "Can you remove the jargon in this cover letter?",
])
def test_a_word_taken_back_or_a_task_is_no_request(text: str) -> None:
    assert parse_forget_request(text) is None


def test_what_was_said_after_an_event_is_a_window() -> None:
    intent = parse_forget_request("whatever i said after the hospital visit, i dont want u keeping any of it")
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("new sim today, its 07700 900123 now. the old number's dead so pls dont keep it", ForgetKind.REPLACEMENT, "number"),
    ("honestly the stuff about my landlord's court case, can that not be stored?", ForgetKind.FACT, "landlord"),
])
def test_a_pronoun_after_a_filler_or_a_dead_thing_points_back(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("all my uni stuff, grades modules whatever - scrap the lot", ForgetKind.CATEGORY, "uni"),
    ("the flat i viewed and the rent they asked - bin those pls in case my landlord reads this",
     ForgetKind.FACTS, "rent"),
])
def test_the_lot_and_a_reason_after_the_target(text: str, kind: ForgetKind, word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == kind, intent
    assert any(word in t.lower() for t in intent.targets) and not any("landlord" in t for t in intent.targets), intent


@pytest.mark.parametrize(("text", "old"), [
    ("My son has moved from Leeds to Bristol for his new job. Kindly discard Leeds.", "leeds"),
    ("the vet switched her off meloxicam and onto gabapentin, dont keep the meloxicam info anymore", "meloxicam"),
    ("We migrated off Jira to Linear last sprint, so drop Jira as our tracker.", "jira"),
])
def test_a_change_from_one_value_to_another_is_an_update(text: str, old: str) -> None:
    _assert_reads(text, ForgetKind.REPLACEMENT, old)


@pytest.mark.parametrize(("text", "word"), [
    ("Last week I told you that my nephew had been expelled. Please let it go entirely. Could you suggest a gift for him?",
     "expelled"),
    ("Scrap the shift pattern you had, I'm on days now.", "shift"),
    ("the old dentist can come out of your notes, I've moved practices", "dentist"),
    ("I told you my brother's salary and where he banks. Both things please discard.", "salary"),
])
def test_removal_said_after_or_before_its_object(text: str, word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and any(word in t.lower() for t in intent.targets), (text, intent)


def test_forget_it_before_a_task_waves_the_task_away() -> None:
    assert parse_forget_request("Forget it. Write me a poem about rain instead.") is None


@pytest.mark.parametrize(("text", "word"), [
    ("Anything you have about my mental health — purge it.", "mental"),
    ("whatever u have on me and priya, ditch it", "priya"),
    ("Everything I told you about my trip to Oslo, forget it.", "oslo"),
])
def test_all_of_what_was_said_about_something_pointed_back_to_is_a_category_request(text: str, word: str) -> None:
    _assert_reads(text, ForgetKind.CATEGORY, word)


@pytest.mark.parametrize(("text", "kind", "word"), [
    # a word or two before an ask addressed to the assistant
    ("ngl lowkey can u delete what i said abt my cousin's arrest", ForgetKind.FACT, "arrest"),
    ("Consequently I would like you to forget my bank's sort code.", ForgetKind.FACT, "sort"),
    # Scots negation and past tense
    ("I'd rather you didnae keep the name of my consultant.", ForgetKind.FACT, "consultant"),
])
def test_an_ask_after_a_word_or_two_or_in_dialect(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize("text", [
    "how could you forget my birthday?",
    "why would you delete my draft?",
    "my sister said i can delete that photo",
])
def test_a_question_or_someone_else_before_the_verb_is_no_ask(text: str) -> None:
    assert parse_forget_request(text) is None, text


@pytest.mark.parametrize(("text", "window_word"), [
    ("So that evening the flat flooded and I was messaging you from the stairwell — whatever I told you that "
     "evening, please forget it.", "flooded"),
    ("About what I sent you the night before the exam, very late: I was a wreck. Please delete everything from "
     "that conversation.", "exam"),
])
def test_a_window_told_of_then_pointed_back_at(text: str, window_word: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, (text, intent)
    assert window_word in intent.time_phrase.lower()


def test_a_window_pointed_at_is_only_a_time_told_before_it() -> None:
    # "that night" points back at a sentence that tells of a time, not at any sentence before it
    intent = parse_forget_request("Work was awful. Please forget whatever I told you that night.")
    assert intent is not None
    assert not (intent.kind == ForgetKind.TIME_WINDOW and "awful" in intent.time_phrase), intent


def test_a_count_points_back_at_the_two_things_said_before_it() -> None:
    intent = parse_forget_request("so the biopsy result and what I told you I owe my brother, can you forget both of those")
    assert intent is not None and intent.kind == ForgetKind.FACTS
    assert len(intent.targets) == 2 and "biopsy" in intent.targets[0] and "owe" in intent.targets[1]


def test_a_new_value_is_the_name_it_opens_with() -> None:
    intent = parse_forget_request("new physio is Tomasz Wojcik at the clinic on Harbour Street so use him and "
                                  "forget the old guy")
    assert intent is not None and intent.kind == ForgetKind.REPLACEMENT, intent
    from bemula.systems.erasemem.resolve import new_value_of
    assert new_value_of(intent.statements + intent.directives, set()) == "Tomasz Wojcik"


@pytest.mark.parametrize(("text", "kept"), [
    ("Please delete everything from our chat on Friday night. Only the venue address you can keep, I still need it.",
     "the venue address"),
    ("wipe everything i said on friday evening. (the bit where Sam and i split the deposit can stay, that's settled.)",
     "the bit where Sam and i split the deposit"),
    ("Forget all of my dad's situation, please. Only one thing please keep: that I drive him to dialysis on Mondays.",
     "I drive him to dialysis on Mondays"),
])
def test_what_a_request_says_may_stay_is_kept(text: str, kept: str) -> None:
    from bemula.systems.erasemem.resolve import exceptions_of

    intent = parse_forget_request(text)
    assert intent is not None, text
    assert kept in exceptions_of(intent), (text, exceptions_of(intent))


@pytest.mark.parametrize(("text", "someone_else"), [
    ("Isla's got the asthma though, so I'll need to watch the flour flying about.", True),
    ("My grandson Theo has a peanut allergy.", True),
    ("Dad's on warfarin now, so I'll pick it up on Fridays.", True),
    ("March is busy, so I'll wait.", False),
    ("Priya is my dentist, so I'll call her.", False),
    ("I've got asthma, so I'll watch the flour.", False),
])
def test_a_sentence_that_opens_with_someone_else_is_theirs(text: str, someone_else: bool) -> None:
    from bemula.systems.erasemem.owners import about_someone_else

    assert about_someone_else(text) is someone_else


@pytest.mark.parametrize(("text", "kind", "word"), [
    # Nigerian Pidgin: "comot" (take out), "am" (it)
    ("Abeg the school fees wahala I told you, delete am.", ForgetKind.FACT, "school fees"),
    # a negated keep that ends in a colon: the list after it is the object
    ("a couple of things i'd rather you not keep:\n- the dose my cardiologist set\n- my sister's new address",
     ForgetKind.FACTS, "cardiologist"),
    # the news that leads up to the request is not its object
    ("we finally sold the flat last week, so all that mortgage stuff I've told you, the rate, the broker, can you "
     "wipe all of it, it's done and I don't want you reminding me of the old version.", ForgetKind.FACTS, "mortgage"),
])
def test_requests_in_dialect_with_a_list_after_a_colon_or_after_news(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_a_new_value_after_an_equals_sign() -> None:
    from bemula.systems.erasemem.resolve import new_value_of

    assert new_value_of(["- new flight = BA 2490"], set()) == "BA 2490"


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("I'd feel happier if you'd forget the name of her clinic.", ForgetKind.FACT, "clinic"),
    ("you know where she was that night and you know what she told the police. don't put those two together.",
     ForgetKind.CONCLUSION, "where she was"),
    ("Please don't connect my new job and the move, I haven't told anyone.", ForgetKind.CONCLUSION, "job"),
    ("I keep thinking about what I said to you the night I got back from the hospital. Would you forget the whole "
     "of that evening's conversation, please?", ForgetKind.TIME_WINDOW, "evening"),
    ("My new landlord is Okafor Lettings now, and the old one, you can drop him completely.",
     ForgetKind.REPLACEMENT, "old"),
    ("All the things I told you about my money — the loan, the arrears, the card — I don't want that kept. So delete "
     "all of it, please.", ForgetKind.CATEGORY, "money"),
    ("Please erase everything you've got about Theo's therapy — what it's for, the place, his therapist, all of it.",
     ForgetKind.CATEGORY, "therapy"),
])
def test_requests_of_the_seventh_sessions_writers_shapes(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


@pytest.mark.parametrize("text", [
    "bit of cleanup: the gym I quit, my trainer's name, and the fee they charged — please delete all three.",
    "What I paid for the boat and the loan I took for it. Those two. Forget them.",
])
def test_a_count_takes_every_item_it_points_back_at(text: str) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS and len(intent.targets) >= 2, (text, intent)


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("Dad rang about the car loan again and I'm sick of it. delete it. the amount i mean.", ForgetKind.FACT, "amount"),
    ("The week after the funeral I said a lot. Whatever I told you that week, the Monday after the funeral, please "
     "forget all of it.", ForgetKind.TIME_WINDOW, "monday"),
    ("I'd like you to forget all of that, please: the diagnosis, the tablets, the hospital.", ForgetKind.FACTS,
     "tablets"),
])
def test_a_pronoun_said_which_after_or_an_event_said_beside_it(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_a_question_after_a_colon_is_still_a_task() -> None:
    assert parse_forget_request("Forget the budget for a second: which venue is cheapest?") is None


@pytest.mark.parametrize(("text", "kind", "word"), [
    # a polite conditional with "be grateful"
    ("I would be most grateful if you erased everything about my finances that I have mentioned.",
     ForgetKind.CATEGORY, "finances"),
    # "take X off whatever you keep about me"
    ("The rent I pay and my landlord's name, take that off whatever you keep about me, ok?", ForgetKind.FACTS,
     "landlord"),
    # a conclusion named first, the verb after it
    ("Whatever conclusion you came to from all of that, drop it.", ForgetKind.CONCLUSION, "conclusion"),
    ("I'm fine with you knowing the rates. But I don't want you adding it up and keeping the total.",
     ForgetKind.CONCLUSION, "total"),
    # "the old X is dead to me" after the new one
    ("Moved again! New flat is 14 Ormeau Road. The old address is dead to me.", ForgetKind.REPLACEMENT, "address"),
    # the thing before "I told you", and what the user said of it
    ("that inhaler I told you I use before football, please forget it.", ForgetKind.FACT, "inhaler"),
])
def test_requests_of_the_eighth_sessions_writers_shapes(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_a_dictated_run_on_ask_is_read_with_its_exception_apart() -> None:
    text = ("my son was at me about putting things into the phone he says you never know who is listening so that "
            "inhaler I told you I use before the football would you put that out of your head altogether the brown "
            "one for the mornings is no harm you can keep that one")
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACT, intent
    assert "inhaler" in intent.targets[0] and "brown" not in intent.targets[0], intent.targets


def test_a_pronoun_points_at_a_thing_of_the_users_named_in_passing_only_when_memory_holds_it() -> None:
    text = "My cousin thinks my PPS number is unlucky. I gave it to you in May. Please delete it."
    held = parse_forget_request(text, known=lambda phrase: "pps" in phrase.lower())
    assert held is not None and held.targets == ["my PPS number"], held
    assert parse_forget_request(text, known=lambda phrase: False) is None


def test_act_like_that_convo_never_happened_is_the_conversation_the_message_told_of() -> None:
    intent = parse_forget_request("so about friday. whatever i said at 2am after the wedding, just act like that "
                                  "convo never happened.")
    assert intent is not None and intent.kind == ForgetKind.TIME_WINDOW, intent
    assert "friday" in intent.time_phrase, intent.time_phrase


@pytest.mark.parametrize(("statement", "new"), [
    ("I've pushed the driving test back. I'm now taking it on 3 September.", "3 September"),
    ("Since Monday, the van is insured with Harding & Pell in Leeds.", "Harding & Pell in Leeds"),
    ("the flat share fell through, took a studio in Leith instead, 22 Bath Street.", "22 Bath Street"),
])
def test_a_new_value_said_with_now_since_or_after_instead(statement: str, new: str) -> None:
    from bemula.systems.erasemem.resolve import new_value_of

    assert new_value_of([statement], set()) == new


@pytest.mark.parametrize(("text", "targets"), [
    ("pls delete the thing about who she's seeing. and while ur at it get rid of my stepmum's name too",
     ["who she's seeing", "my stepmum's name"]),
    ("can you drop the name of the home we chose for her and whatever i told you about her tablets?",
     ["the name of the home we chose for her", "whatever i told you about her tablets"]),
])
def test_a_second_item_said_as_whatever_or_after_while_youre_at_it(text: str, targets: list[str]) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS and intent.targets == targets, intent


@pytest.mark.parametrize(("text", "kind", "word"), [
    ("Remember the chat late on Tuesday night when I could not sleep? Could you wipe that whole night? Pretend it "
     "never happened.", ForgetKind.TIME_WINDOW, "night"),
    ("The money stuff I have told you. Rent, the loan, all of it. Delete it.", ForgetKind.CATEGORY, "money"),
    ("so whatever you figured about me from what I said in March, like that I have some kind of problem. don't keep "
     "that.", ForgetKind.CONCLUSION, ""),
    ("You know what I told you about the party. Don't go putting two and two together on that.", ForgetKind.CONCLUSION,
     "party"),
    ("her name and the whole thing with her landlord, I don't want that in your memory anymore.", ForgetKind.FACTS,
     "landlord"),
    ("that guy from the gym i kept talking to u about, hes moving away now. can u just act like i never told u about "
     "him.", ForgetKind.FACT, "gym"),
    # Taglish and Jamaican patois asks
    ("Yung sinabi ko sayo about sa utang ko kay Tita — pakitanggal na lang sa notes mo.", ForgetKind.FACT, "utang"),
    ("Di doctor name an di clinic address weh mi give yuh, beg yuh tek dem out.", ForgetKind.FACT, "clinic"),
])
def test_requests_of_the_eighth_sessions_second_batch(text: str, kind: ForgetKind, word: str) -> None:
    _assert_reads(text, kind, word)


def test_a_person_to_forget_is_no_change_of_theirs_and_a_named_one_is_not_pointed_back_at() -> None:
    # "she's dating some senior now" is news about her, not a new value to replace an old one
    intent = parse_forget_request("that girl from chem i kept talking to u about, shes dating some senior now. can u "
                                  "just act like i never told u about her.")
    assert intent is not None and intent.kind == ForgetKind.FACT and intent.targets == ["girl from chem"], intent
    from bemula.systems.erasemem.intent import _names_a_person

    assert _names_a_person("Zsofi asked to be taken off. Please forget her.")
    assert not _names_a_person("Ok so the bad part. Please forget her.")


def test_the_thing_from_a_time_is_one_thing_and_a_passive_is_no_new_value() -> None:
    intent = parse_forget_request("you know the thing from my shift a couple of weeks back, the dose I got wrong? it's "
                                  "been signed off and closed now. please let that go.")
    assert intent is not None and intent.kind in (ForgetKind.FACT, ForgetKind.FACTS), intent
    assert any("dose" in t for t in intent.targets), intent.targets


@pytest.mark.parametrize(("text", "targets"), [
    ("honestly? so do me a favor: her number and the whole story about her landlord, I don't want that in your "
     "memory anymore.", ["her number", "the whole story about her landlord"]),
    ("so the family's name and the hearing date, take those outta whatever you keep on me.",
     ["the family's name", "the hearing date"]),
])
def test_items_fronted_after_a_colon_or_taken_outta_what_you_keep(text: str, targets: list[str]) -> None:
    intent = parse_forget_request(text)
    assert intent is not None and intent.kind == ForgetKind.FACTS and intent.targets == targets, intent


@pytest.mark.parametrize(("text", "word"), [
    # what the user should not keep, what was told, what was cancelled: then "it" / "them"
    ("The locksmith said I shouldn't keep the garage alarm code on my phone. Can you get rid of it?", "garage"),
    ("I sold that second bike I told you about, so take it out of your notes.", "bike"),
    ("There's no need for you to keep her dentist's details now. Could you drop them?", "dentist"),
    ("Dublin trip's cancelled. Staying home with the kids. Delete it.", "dublin"),
])
def test_a_pronoun_points_at_what_the_message_says_is_not_to_be_kept(text: str, word: str) -> None:
    intent = parse_forget_request(text, known=lambda phrase: word in phrase.lower())
    assert intent is not None and intent.kind == ForgetKind.FACT, (text, intent)
    assert word in intent.targets[0].lower(), intent.targets
    assert len(intent.targets[0].split()) <= 4, intent.targets  # the thing, not the sentence about it


def test_a_pronoun_points_at_the_nearest_thing_named_in_passing_only_when_memory_holds_it() -> None:
    text = "I sold that second bike last week, so take it out of your notes."
    held = parse_forget_request(text, known=lambda phrase: "bike" in phrase.lower())
    assert held is not None and held.targets == ["second bike"], held
    assert parse_forget_request(text, known=lambda phrase: False) is None


def test_who_may_hold_a_thing_is_not_the_thing_meant() -> None:
    text = "my landlord says the spare key code shouldnt be written anywhere, only the cleaners should have it. pls forget that one"
    intent = parse_forget_request(text, known=lambda phrase: "code" in phrase.lower() or "cleaner" in phrase.lower())
    assert intent is not None and "code" in intent.targets[0].lower(), intent


@pytest.mark.parametrize(("text", "word"), [
    ("Until the surgeon confirms I'd prefer you wiped everything about the knee operation.", "knee"),
    ("For now I should like you to forget the date of my cataract appointment.", "cataract"),
    ("I don't want you holding the shellfish thing, it was a one-off.", "shellfish"),
    ("wait can u not keep that phone number i gave u for the landlord", "landlord"),
    ("So that older card number I gave you, the debit one, I'd like you to get rid of; it's expired.", "card"),
])
def test_more_ways_of_asking_are_read_as_a_request(text: str, word: str) -> None:
    intent = parse_forget_request(text, known=lambda phrase: True)
    assert intent is not None, text
    assert any(word in t.lower() for t in intent.targets), (text, intent.targets)
    assert len(intent.targets) == 1, intent.targets  # ("…, the debit one" says which, it is no second item)


def test_a_pronoun_elaborated_by_a_list_points_at_the_thing_said_before_it() -> None:
    text = ("Oh and the first physio I told you about, please forget all that, the woman and the clinic both, "
            "I'm not going back.")
    intent = parse_forget_request(text, known=lambda phrase: True)
    assert intent is not None and intent.targets == ["the first physio"], intent


def test_a_lower_case_possessive_of_a_thing_memory_holds_is_a_request() -> None:
    text = "ugh ok we're not mates anymore. delete jonno's bday. priya's n gran's stay"
    intent = parse_forget_request(text, known=lambda phrase: "jonno" in phrase.lower())
    assert intent is not None and any("jonno" in t.lower() for t in intent.targets), intent
    assert parse_forget_request("delete jonno's bday", known=lambda phrase: False) is None


@pytest.mark.parametrize(("text", "kind"), [
    # a number is not replaced by a town or a bank: the move is news, the number just goes
    ("nina's moved to galway so she's not minding the cat anymore, can u forget her number pls", ForgetKind.FACT),
    ("closed the savings one yesterday, moved everything to monzo. pls delete the isa acc number from ur memory",
     ForgetKind.FACT),
    # … but a new number said beside the change replaces it
    ("i switched from o2 to giffgaff, forget the o2 number. new one is 07700 900318", ForgetKind.REPLACEMENT),
])
def test_a_change_replaces_a_number_only_with_a_number(text: str, kind: ForgetKind) -> None:
    intent = parse_forget_request(text, known=lambda phrase: True)
    assert intent is not None and intent.kind == kind, intent


def test_a_clause_after_a_comma_says_why_it_is_no_second_item() -> None:
    intent = parse_forget_request("can u not keep that pin i gave u for the bike lock, my sister goes thru my phone",
                                  known=lambda phrase: True)
    assert intent is not None and intent.kind == ForgetKind.FACT and len(intent.targets) == 1, intent
    listed = parse_forget_request("delete my address, my phone number and my email", known=lambda phrase: True)
    assert listed is not None and listed.kind == ForgetKind.FACTS and len(listed.targets) == 3, listed


def test_an_affair_named_as_a_whole_is_all_of_it() -> None:
    saga = parse_forget_request("honestly I'm done with this boiler saga. wipe all of it except the engineer's number, "
                                "that's the only bit I need", known=lambda phrase: True)
    assert saga is not None and saga.kind == ForgetKind.CATEGORY and "boiler" in saga.targets[0], saga
    business = parse_forget_request("Could you clear out all this allotment business — the plots we lost just annoy me.",
                                    known=lambda phrase: True)
    assert business is not None and "allotment" in business.targets[0], business


def test_a_spanish_or_portuguese_removal_verb_in_an_english_message_is_a_request() -> None:
    from bemula.systems.erasemem.intent import canonical_request_text

    text = "the scan I'll sort myself, I prefer it's not stored. Please apaga it, the clinic, the date, everything."
    assert parse_forget_request(text, known=lambda phrase: True) is not None, text
    assert "delete all of it" in canonical_request_text("I don't want that in your memory. bórralo todo.")
    assert canonical_request_text("the borrowed car is fine") == "the borrowed car is fine"
