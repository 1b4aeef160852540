"""Surface wording: how facts are stated, how requests are made and confirmed, what a
neutral control exchange says, and how questions are asked.

Every kind of utterance has at least five phrasings (tests check the counts), and most are
composed from two or three independently chosen parts, so the same template text rarely
appears twice and a memory system cannot spot requests by a fixed string.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from bemula.model import RequestType

_T = TypeVar("_T")

# --------------------------------------------------------------------------- fact statements

#: generic statement cores; ``{noun}`` is the attribute in plain words, ``{v}`` the value
GENERIC_CORES: tuple[str, ...] = (
    "my {noun} is {v}",
    "my {noun}? That's {v}",
    "for the record, my {noun} is {v}",
    "you should know my {noun} is {v}",
    "if it ever comes up, my {noun} is {v}",
    "I should mention that my {noun} is {v}",
    "my {noun}, if you need it, is {v}",
    "my {noun} happens to be {v}",
)

STATEMENT_LEADS: tuple[str, ...] = (
    "By the way, ", "Oh, before I forget: ", "Just so you know, ", "Random thing, but ",
    "For future reference, ", "I meant to mention this earlier: ", "Quick note: ",
    "Something useful to keep in mind: ", "While I think of it, ", "", "", "",
    "Not sure I ever said this, but ", "Small detail, ", "Also, ",
)

STATEMENT_TAILS: tuple[str, ...] = (
    ".", ". Might come in handy later.", ". Just keep that in mind.", ", in case you need it.",
    ".", ". Figured you should know.", ". Anyway.", ". Thought I'd mention it.", ".",
)

# the lead-in that puts a fact statement into a chat turn
STATEMENT_CONTEXTS: tuple[str, ...] = (
    "I was sorting out some paperwork {when} and it reminded me. ",
    "My {person} asked me about this {when}. ",
    "Filling in a form {when} made me think of it. ",
    "", "", "", "", "",
    "Had a long day {when}. ",
    "Talked to my {person} {when}. ",
)

WHEN = ("this morning", "earlier today", "yesterday", "last night", "over lunch", "on the train",
        "at the weekend", "just now", "a minute ago", "before work")
PERSONS = ("colleague", "neighbour", "friend", "cousin", "old flatmate", "coworker", "mum", "dad")

ACK_OPENERS: tuple[str, ...] = (
    "Got it", "Noted", "Thanks for telling me", "Understood", "Okay, I'll keep that in mind",
    "Good to know", "Thanks, noted", "All right", "Makes sense", "Thanks for the detail",
)
ACK_BODIES: tuple[str, ...] = (
    "I've made a note about your {noun}.",
    "I'll remember your {noun} for later.",
    "that's saved with the rest of your details.",
    "I'll keep your {noun} in mind when it's relevant.",
    "I'll use that when it comes up.",
    "your {noun} is noted.",
    "I'll remember that.",
)
ACK_FOLLOWUPS: tuple[str, ...] = (
    "", "", "", " Anything else on your mind today?", " Is there anything you want me to do with it?",
    " Let me know if it changes.", " Want me to remind you of anything related?",
    " How's the rest of your {part} going?", " Hope the {part} is treating you well.",
)
DAY_PARTS = ("day", "week", "morning", "evening", "afternoon")

# --------------------------------------------------------------------------- requests

REQUEST_STYLES: dict[RequestType, tuple[str, ...]] = {
    RequestType.F1: (
        "Please forget my {noun}. I don't want you to keep it.",
        "Can you delete what I told you about my {noun}? Forget it completely.",
        "I'd like you to erase my {noun} from your memory, please.",
        "Forget that {statement_low} I don't want that stored anywhere.",
        "Please remove my {noun} from everything you remember about me.",
        "I changed my mind about sharing my {noun}. Delete it and don't bring it up again.",
    ),
    RequestType.F2: (
        "Please forget {nouns}. Delete all of them.",
        "Can you erase {nouns} from your memory? I don't want any of them kept.",
        "Delete {nouns}, please. Forget them completely.",
        "I'd like you to remove {nouns}. None of that should stay stored.",
        "Forget {nouns}. Please wipe those details.",
        "I shouldn't have shared {nouns}. Delete those, all of them.",
    ),
    RequestType.F3: (
        "Forget everything about {category}. Delete all of it.",
        "Please erase anything I've told you about {category}. I don't want any of it kept.",
        "I'd like you to delete everything related to {category}, all of it.",
        "Can you forget all the details about {category}? Wipe them completely.",
        "Remove everything you know about {category}, please. None of it should stay.",
        "I've decided {category} is off limits. Forget everything I said about it.",
    ),
    RequestType.F4: (
        "Don't keep or use any conclusion about {about}. Forget anything you worked out about that.",
        "Please forget whatever you may have inferred about {about}. Don't store or use that conclusion.",
        "I don't want you drawing or keeping any conclusion about {about}. Delete it if you have one.",
        "Whatever you put together about {about}, forget it and don't use it.",
        "Please delete any inference about {about}. Don't work it out again either.",
        "You might be able to figure out {about} from what I said. Don't. Forget any such conclusion.",
    ),
    RequestType.F5: (
        "Please forget everything I told you {window}. Delete all of it.",
        "Can you erase whatever I said {window}? I don't want any of it kept.",
        "I'd like you to delete everything from our conversation {window}.",
        "Forget what I told you {window}, please. All of it.",
        "Remove everything I shared {window} from your memory.",
        "I overshared {window}. Please forget all of that conversation.",
    ),
    RequestType.F6: (
        "My {noun} has changed: it's {new} now, not {old}. Please forget {old}.",
        "Update: I switched from {old} to {new}. Forget the {old} part completely, just keep {new}.",
        "I no longer have {old} as my {noun}. It's {new} now. Delete the old one.",
        "Please replace my {noun}: forget {old}, the new one is {new}.",
        "Quick correction for my {noun}: it's {new} these days. Forget {old}, I don't want it kept.",
        "{new} is my {noun} from now on. Please erase {old} from your memory.",
    ),
}

REQUEST_LEADS: tuple[str, ...] = ("", "", "Hey, one thing. ", "Before we go on: ", "Important: ",
                                  "Sorry, quick request. ", "Okay, so. ", "One more thing. ")

CONFIRMATIONS: tuple[str, ...] = (
    "Done. I've deleted that and won't use it again.",
    "Understood. That information is forgotten and I won't bring it up.",
    "Okay, I've removed it from memory.",
    "Of course. It's erased, and I won't refer to it in future.",
    "Got it, that's been deleted. Thanks for letting me know.",
    "No problem, I've forgotten it as you asked.",
)
CONFIRMATION_TAILS: tuple[str, ...] = ("", "", " Anything else you'd like me to remove?",
                                       " Let me know if there's more.", " Is there anything else?",
                                       " Your other details are unchanged.")
F6_CONFIRMATIONS: tuple[str, ...] = (
    "Updated. I'll only use {new} from now on and I've dropped the old one.",
    "Done: {new} it is. The previous value is forgotten.",
    "Okay, I've replaced it with {new} and deleted the old value.",
    "Got it, {new} from now on. The old one is gone.",
    "Noted, it's {new} now, and I've erased what you asked me to forget.",
)

# --------------------------------------------------------------------------- neutral exchanges

#: content-free exchanges that stand in for a request in the control version: (user, replies)
NEUTRAL_EXCHANGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Can you remind me to drink some water in a bit? I keep forgetting.",
     ("Sure, consider this your nudge: grab a glass of water now and another in an hour.",
      "Of course. A glass now, and maybe keep a bottle on your desk so it's in sight.")),
    ("What's a good way to take a short break from the screen? My eyes are tired.",
     ("Try the 20-20-20 rule: every 20 minutes, look at something 20 feet away for 20 seconds.",
      "Step away for two minutes, look at something far away, and blink a few times slowly.")),
    ("Could you suggest a quick stretch I can do at my desk? I've been sitting for ages.",
     ("Stand up, roll your shoulders back a few times, then reach your arms overhead and hold for ten seconds.",
      "Try a seated twist: turn gently to each side and hold for a few breaths.")),
    ("Give me one tip to stay focused for the next hour, please.",
     ("Set a timer for 25 minutes, work on one thing only, then take a five-minute break.",
      "Close every tab you don't need and put your phone in another room.")),
    ("I need a two-minute breather. Any idea how to reset my head quickly?",
     ("Try the 4-7-8 breathing pattern once or twice; it tends to settle things down.",
      "Close your eyes, take five slow breaths, and notice three sounds around you.")),
    ("Tell me something calming, it's been a hectic {part}.",
     ("Here's one: whatever didn't get done today will still be there tomorrow, and that's fine.",
      "Picture a quiet lake at dawn, completely still. Take a slow breath with that picture in mind.")),
    ("What's a quick way to tidy my desk before I get back to it?",
     ("Clear everything into one pile, put back only what you need today, and bin the rest.",
      "Two minutes: rubbish out, cups to the kitchen, papers in one stack. Done.")),
    ("Any idea for a short walk? I need to clear my head.",
     ("Walk around the block once without your phone; ten minutes is plenty.",
      "Pick a direction you don't usually take and just go for fifteen minutes.")),
)
#: flat views of NEUTRAL_EXCHANGES (kept for callers that pick user and reply separately;
#: prefer the pairs, whose replies answer their question)
NEUTRAL_USER: tuple[str, ...] = tuple(u for u, _ in NEUTRAL_EXCHANGES)
NEUTRAL_ASSISTANT: tuple[str, ...] = tuple(r for _, rs in NEUTRAL_EXCHANGES for r in rs)
NEUTRAL_USER_PADS: tuple[str, ...] = ("", " Nothing fancy.", " Keep it short.", " Thanks in advance.",
                                      " Just something simple.", " I'll try it right away.")
NEUTRAL_ASSISTANT_TAILS: tuple[str, ...] = ("", " Hope that helps.", " Let me know how it goes.",
                                            " You've got this.", " Back to it whenever you're ready.")

# --------------------------------------------------------------------------- questions

QUESTION_WRAPPERS: tuple[str, ...] = (
    "{q}",
    "Quick question: {q}",
    "Can you remind me? {q}",
    "{q} I can't remember what I told you.",
    "Do you remember this one? {q}",
    "I need this for a form. {q}",
    "Help me out here: {q}",
)


def pick(rng: random.Random, options: Sequence[_T]) -> _T:
    return options[rng.randrange(len(options))]


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text else text


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def join_nouns(nouns: list[str]) -> str:
    items = [f"my {n}" for n in nouns]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- category talk

#: a question the user may attach to a fact statement, with an assistant reply that answers
#: it without repeating the value (keeps the value in exactly one turn)
CATEGORY_TALK: dict[str, tuple[tuple[str, str], ...]] = {
    "health": (("Is that something I should mention to new doctors?", "Yes, always mention it at a first appointment and to any pharmacist."),
               ("Anything I should keep in mind because of that?", "Mostly just keep your records up to date and tell anyone treating you.")),
    "family": (("We're trying to see each other more often. Any ideas?", "A fixed monthly dinner or call makes it much easier to keep up."),
               ("Family stuff has been busy lately.", "That happens. Blocking a quiet evening for yourself can help.")),
    "finance": (("Should I be tracking that more carefully?", "A quick monthly check-in with your numbers is usually enough."),
                ("Money's been on my mind a lot.", "Understandable. Writing down the next one or two steps often takes the edge off.")),
    "work": (("Work has been hectic this month.", "Sounds like a lot. Protecting a little time for breaks will help you keep going."),
             ("Any tips for staying organised at work?", "A short list of the day's top three tasks each morning works well for many people.")),
    "home": (("The flat needs some attention soon.", "Making a short list of small fixes and doing one a week keeps it manageable."),
             ("I'm trying to make the place cosier.", "Warm lamps, a throw and a few plants go a long way.")),
    "contacts": (("Can you help me keep track of things like that?", "Of course, that's exactly what I'm here for."),
                 ("I always lose details like this.", "No problem, that's what I'm for.")),
    "schedule": (("My weeks are getting packed.", "It might help to keep one evening a week completely free."),
                 ("Can you help me plan around that?", "Sure, just ask when you're planning something and I'll factor it in.")),
    "food": (("Any recipe ideas along those lines?", "Happy to suggest some whenever you're planning meals."),
             ("I've been trying to cook more at home.", "Nice! Batch cooking on Sundays makes weekdays much easier.")),
    "hobbies": (("I want to make more time for it.", "Putting it in your calendar like an appointment really helps."),
                ("It's the best part of my week honestly.", "Love that. Hobbies like that are great for recharging.")),
    "travel": (("Any packing tips?", "Roll your clothes, pack a day early, and keep documents in one pouch."),
               ("I can't wait to get away.", "A break will do you good. Want help with a checklist closer to the date?")),
    "pets": (("They keep me busy, that's for sure.", "Pets are a lot of work, but they're worth it."),
             ("Any tips for keeping them happy while I'm at work?", "Puzzle feeders and a predictable routine help a lot.")),
    "education": (("I sometimes miss studying.", "Evening courses or online lectures are an easy way back in."),
                  ("It feels like a long time ago now.", "Those years tend to shape a lot, even when they feel distant.")),
    "identity": (("Keep that safe, please.", "Understood, I'll only use it when you need it."),
                 ("I never remember details like that when I need them.", "That's what I'm here for; just ask.")),
    "tech": (("Any tips for keeping it running smoothly?", "Regular updates and a restart now and then solve most problems."),
             ("I'm not very techy, honestly.", "No problem, I can walk you through anything step by step.")),
    "transport": (("Getting around has been a hassle lately.", "Planning routes the night before can take some stress out of it."),
                  ("Any tips for keeping costs down?", "Regular maintenance and comparing prices once a year usually help.")),
}

#: how the assistant brings up an earlier (untargeted) fact in later small talk, per category
CATEGORY_ECHO: dict[str, tuple[str, ...]] = {
    "health": ("Since your {noun} is {v}, maybe keep {time} low-key and look after yourself.",),
    "family": ("You could check in with family {time}; you mentioned your {noun} is {v}.",),
    "finance": ("With your {noun} being {v}, a free activity {time} might be nice.",),
    "work": ("Given your {noun} is {v}, maybe keep {time} for recharging away from work.",),
    "home": ("Since your {noun} is {v}, a cosy evening at home {time} could be perfect.",),
    "contacts": ("You could reach out to someone {time}; I have your {noun} as {v} if it helps.",),
    "schedule": ("Just keep in mind your {noun} is {v} when you plan {time}.",),
    "food": ("Since your {noun} is {v}, maybe cook something along those lines {time}.",),
    "hobbies": ("Your {noun} is {v}, so maybe make some time for that {time}.",),
    "travel": ("With your {noun} being {v}, you could start planning a bit {time}.",),
    "pets": ("Your {noun} is {v}; maybe a long walk or playtime {time}?",),
    "education": ("Since your {noun} is {v}, a good book or lecture on that {time} might be fun.",),
    "identity": ("Knowing your {noun} is {v}, I'd keep {time} simple and relaxed.",),
    "tech": ("Since your {noun} is {v}, you could finally sort out those updates {time}.",),
    "transport": ("With your {noun} being {v}, a little trip somewhere {time} could be nice.",),
}
