"""Filler conversation: small talk, errands, how-to questions, follow-ups, and assistant
replies that use facts the user told earlier.

A 3,500-turn instance needs thousands of distinct turns, so each turn is composed from an
opener, a topic sentence with slots (items, places, times, people) and an optional
follow-up; a per-instance set of used texts rejects any repeat (the caller retries), and
a per-instance blocklist keeps every fact value out of filler so a judge never finds a
protected value in small talk.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from bemula.generate.phrasing import lower_first, pick

SLOTS: dict[str, tuple[str, ...]] = {
    "item": ("batteries", "a phone charger", "dish soap", "lightbulbs", "printer paper", "a birthday card",
             "bin bags", "a new umbrella", "sticky notes", "a doormat", "coat hangers", "a shower curtain",
             "a bread knife", "laundry pods", "a cheese grater", "a spare key ring", "an extension cord",
             "envelopes", "sunscreen", "a water filter"),
    "dish": ("lentil soup", "a tray bake", "fried rice", "a frittata", "stuffed peppers", "banana bread",
             "a big salad", "chickpea stew", "pancakes", "roast vegetables", "a noodle stir-fry",
             "tomato pasta", "a potato gratin", "fish tacos", "mushroom toast"),
    "place": ("the post office", "the hardware store", "the library", "the pharmacy counter",
              "the farmers' market", "the town hall", "the dry cleaner", "the bakery", "the bike shop",
              "the garden centre", "the supermarket", "the repair café", "the copy shop"),
    "task": ("answer a pile of emails", "clean the oven", "sort the recycling", "file some receipts",
             "fix a squeaky door", "back up my photos", "return a parcel", "iron some shirts",
             "renew a library book", "defrost the freezer", "hang a picture frame", "update my CV",
             "reorganise the wardrobe", "descale the kettle", "plan next week's meals"),
    "show": ("a documentary about deep-sea creatures", "an old black-and-white film", "a cooking competition",
             "a nature series", "a crime drama", "a sitcom rerun", "a history documentary",
             "a stand-up special", "a space documentary", "a baking show"),
    "weather": ("rainy", "windy", "foggy", "sunny", "grey", "freezing", "muggy", "stormy", "drizzly", "bright"),
    "gadget": ("the printer", "my laptop's trackpad", "the router", "the dishwasher", "the microwave clock",
               "my headphones", "the smoke alarm", "the TV remote", "the bathroom fan", "the doorbell"),
    "problem": ("keeps beeping", "won't turn on", "is acting up", "makes a weird noise", "keeps disconnecting",
                "is stuck on a blinking light", "stopped responding", "shows an error"),
    "person": ("a coworker", "my neighbour", "an old schoolfriend", "the delivery guy", "a cousin",
               "someone from the gym", "my flatmate", "a friend of a friend", "the barista"),
    "time": ("at ten past four", "around noon", "at half past six", "after dinner", "first thing tomorrow",
             "on Saturday morning", "on Thursday evening", "before lunch", "late tonight", "on Sunday"),
    "number": ("three", "four", "five", "six", "a dozen", "a couple of", "seven", "eight"),
    "topic": ("why the sky looks orange at sunset", "how bread rises", "why cats purr",
              "how noise-cancelling headphones work", "why onions make you cry", "how tides work",
              "why leaves change colour", "how a rainbow forms", "why ice floats", "how vaccines are tested",
              "why yawns are contagious", "how compasses work", "why the moon looks bigger near the horizon"),
    "word": ("serendipity", "petrichor", "hygge", "ennui", "sonder", "schadenfreude", "ubiquitous",
             "ephemeral", "quixotic", "liminal", "sonorous", "halcyon"),
    "plan": ("a picnic", "a quiet weekend", "a movie night", "a day trip", "a dinner with friends",
             "a spring clean", "a long walk", "a games evening", "a lazy Sunday", "a museum visit"),
}

OPENERS = ("", "", "", "Hey, ", "Hi again. ", "Okay, ", "So, ", "Quick one: ", "Random question: ",
           "Morning! ", "Evening. ", "Hmm, ", "Right, ", "Another thing: ", "Sorry to bother you, ")

USER_TEMPLATES: dict[str, tuple[str, ...]] = {
    "errand": ("I need to pick up {item} from {place} {time}. Is it worth combining that with another errand?",
               "Remind me what else I could grab at {place} besides {item}?",
               "I keep forgetting {item}. How do I make sure I remember {time}?",
               "Is {place} usually busy {time}? I want to get {item}."),
    "cooking": ("Thinking of making {dish} {time}. Any tips?",
                "How long does {dish} keep in the fridge?",
                "I have leftovers from {dish}. What can I turn them into?",
                "What goes well on the side with {dish}?",
                "Can {dish} be frozen, do you think?"),
    "chores": ("I really have to {task} {time}. How do I get motivated?",
               "What's the fastest way to {task}?",
               "I've put off having to {task} for {number} days now. Any advice?",
               "Should I {task} before or after the weekend?"),
    "weather": ("It's so {weather} out today. Any ideas for what to do indoors?",
                "The forecast says {weather} again {time}. Should I still go out?",
                "Another {weather} day. How do people stay cheerful in this?",
                "It turned {weather} all of a sudden. Is a jacket enough?"),
    "tech": ("{gadget} {problem}. What should I try first?",
             "Ugh, {gadget} {problem} again. Is it worth fixing?",
             "Any idea why {gadget} {problem} after I moved it?",
             "How do I reset {gadget}? It {problem}."),
    "tv": ("I watched {show} last night. Can you recommend something similar?",
           "Is {show} a good thing to put on {time}?",
           "I fell asleep halfway through {show}. Is that a bad sign?",
           "What should I watch after {show}?"),
    "social": ("I ran into {person} {time}. How do I keep a conversation going when I'm tired?",
               "{person} invited me to {plan}. How do I say no politely?",
               "I want to thank {person} for a favour. Any small gift ideas?",
               "Is it weird to text {person} after {number} months of silence?"),
    "curious": ("I've always wondered {topic}. Can you explain it simply?",
                "Settle a debate for me: {topic}?",
                "Explain {topic} like I'm ten, please.",
                "My friend asked me {topic} and I had no idea."),
    "words": ("What does '{word}' actually mean?", "Can you use '{word}' in a sentence for me?",
              "Is '{word}' a word people really use?", "Where does the word '{word}' come from?"),
    "planning": ("I'm thinking about {plan} {time}. What do I need?",
                 "Help me plan {plan} with {number} people.",
                 "Is {plan} a good idea if it's {weather}?",
                 "What's a cheap way to do {plan}?"),
    "wellbeing": ("I slept badly again. Any tricks for falling asleep faster?",
                  "Feeling a bit flat {time}. Any small pick-me-up ideas?",
                  "How many breaks should I take when working {number} hours straight?",
                  "I've been staring at screens all day. What's a good way to unwind {time}?"),
}

ASSISTANT_TEMPLATES: dict[str, tuple[str, ...]] = {
    "errand": ("If you're passing {place} anyway, bundle it with anything else on that side of town.",
               "A quick list on your phone helps; add {item} now so it's there when you need it.",
               "Going {time} is usually quieter, so it should be quick.",
               "I'd set a reminder for {time} and keep the receipt in case you need to return it."),
    "cooking": ("For {dish}, season a little more than you think and let it rest a few minutes.",
                "{dish} usually keeps two or three days in a sealed container in the fridge.",
                "Leftover {dish} works well in a wrap or on toast with something fresh on top.",
                "A simple green salad or some crusty bread goes well with {dish}."),
    "chores": ("Try doing it in short bursts: ten minutes on, then a short break.",
               "Put on a podcast and start with the smallest part; momentum does the rest.",
               "Tackle it {time} when your energy is higher, and reward yourself afterwards.",
               "Break it into {number} small steps and tick them off as you go."),
    "weather": ("On a {weather} day a good book, a warm drink and a tidy-up can feel great.",
                "If it's {weather}, keep plans flexible and have an indoor backup ready.",
                "Layers are your friend when it's {weather}; you can always take one off.",
                "Even on {weather} days a short walk at lunch helps a lot."),
    "tech": ("First try switching {gadget} off at the wall for thirty seconds, then back on.",
             "Check the cables and any update notifications; that fixes most cases.",
             "If {gadget} still {problem} after a restart, the manual usually has a reset sequence.",
             "Sometimes moving it away from other electronics helps more than you'd think."),
    "tv": ("If you liked {show}, look for something from the same makers; the tone is usually similar.",
           "{show} is great for winding down, especially with the lights low.",
           "Falling asleep to {show} just means you were tired, not that it was bad.",
           "After {show}, a lighter comedy might be a nice change."),
    "social": ("Ask open questions and let them talk; people love sharing what they're excited about.",
               "A short, warm message works best: thank them for thinking of you and suggest another time.",
               "Something small and personal, like a handwritten note, goes a long way.",
               "Not weird at all. A simple 'thought of you today' is a friendly way back in."),
    "curious": ("In short: it comes down to how light and matter interact, plus a bit of physics of scale.",
                "The simple version is that small effects add up; I can go into detail if you like.",
                "Think of it like a chain reaction: one step triggers the next until you see the result.",
                "Good question. The everyday explanation is mostly right, with one twist worth knowing."),
    "words": ("'{word}' is a lovely word; it describes something people often feel but rarely name.",
              "Here's one: 'The afternoon had a {word} quality that made everyone slow down.'",
              "People do use '{word}', mostly in writing rather than casual speech.",
              "'{word}' has an interesting history; it was borrowed and shifted meaning over time."),
    "planning": ("For {plan}, think about food, timing and a backup if the weather turns.",
                 "With {number} people, keep it simple and ask everyone to bring one thing.",
                 "If it's {weather}, move {plan} indoors or pick a covered spot.",
                 "Free options like parks and libraries make {plan} cheap and still fun."),
    "wellbeing": ("A dark room, no screens for half an hour and a fixed wake time help most people.",
                  "Something tiny helps: a short walk, a song you love, or calling someone for five minutes.",
                  "Roughly every hour, get up for five minutes; your eyes and back will thank you.",
                  "Try a warm shower and a chapter of a book instead of scrolling."),
}

USER_FOLLOWUPS = ("", "", "", " Thanks!", " No rush.", " Just curious.", " Be honest.", " Short answer is fine.",
                  " I'm open to ideas.", " What do you think?")
ASSISTANT_OPENERS = ("", "", "Good question. ", "Sure. ", "Of course. ", "Happy to help. ", "Ah, ",
                     "Honestly, ", "Great idea. ", "Fair enough. ")
ASSISTANT_CLOSERS = ("", "", "", " Want more ideas?", " Let me know how it goes.", " Good luck!",
                     " Anything else?", " Hope that helps.", " Enjoy!", " Tell me if that works.")

# replies that use an earlier fact (only ever an untargeted fact, see plan.py)
ECHO_USER = (
    "Any suggestions for what I could do this {part}?",
    "What should I prioritise {time}?",
    "I have a free hour {time}. Ideas?",
    "Can you help me think through my plans for {time}?",
    "I'm a bit bored. What could I do {time}?",
    "Got any recommendations for me {time}?",
)
ECHO_ASSISTANT = (
    "Since your {noun} is {v}, maybe plan around that {time}.",
    "Knowing your {noun} is {v}, I'd keep that in mind when you plan {time}.",
    "You mentioned your {noun} is {v}; that might shape what you pick {time}.",
    "Given that your {noun} is {v}, something related could be fun {time}.",
    "With your {noun} being {v}, I'd factor that in {time}.",
)
DAY_PARTS = ("day", "week", "morning", "evening", "afternoon", "weekend")


def _fill(template: str, rng: random.Random, chosen: dict[str, str]) -> str:
    def repl(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in chosen:
            chosen[key] = pick(rng, SLOTS[key])
        return chosen[key]

    return re.sub(r"\{(\w+)\}", repl, template)


@dataclass
class FillerMaker:
    """Makes distinct filler exchanges for one instance.

    ``used`` is shared with everything else that writes turns, so no turn text repeats
    anywhere in the instance; ``blocked`` matches every fact value and alias of the
    instance, so filler never contains one.
    """

    rng: random.Random
    used: set[str]
    blocked: re.Pattern[str] | None
    user_name: str

    def _ok(self, text: str) -> bool:
        if text in self.used:
            return False
        return not (self.blocked is not None and self.blocked.search(text))

    def exchange(self) -> tuple[str, str]:
        for _attempt in range(200):
            topic = pick(self.rng, sorted(USER_TEMPLATES))
            chosen: dict[str, str] = {}
            user = pick(self.rng, OPENERS) + _fill(pick(self.rng, USER_TEMPLATES[topic]), self.rng, chosen)
            user = user[:1].upper() + user[1:] + pick(self.rng, USER_FOLLOWUPS)
            body = _fill(pick(self.rng, ASSISTANT_TEMPLATES[topic]), self.rng, chosen)
            opener = pick(self.rng, ASSISTANT_OPENERS)
            if opener and self.rng.random() < 0.25:
                opener = opener.rstrip(". ") + f", {self.user_name}. "
            assistant = opener + (lower_first(body) if opener.endswith(", ") else body)
            assistant = assistant[:1].upper() + assistant[1:] + pick(self.rng, ASSISTANT_CLOSERS)
            if self._ok(user) and self._ok(assistant):
                self.used.add(user)
                self.used.add(assistant)
                return user, assistant
        raise RuntimeError("filler space exhausted; add templates or slots")

    def echo(self, noun: str, value: str) -> tuple[str, str]:
        """A follow-up where the assistant uses an earlier (untargeted) fact."""
        for _attempt in range(200):
            chosen = {"part": pick(self.rng, DAY_PARTS), "noun": noun, "v": value}
            user = pick(self.rng, OPENERS) + _fill(pick(self.rng, ECHO_USER), self.rng, chosen)
            user = user[:1].upper() + user[1:]
            assistant = _fill(pick(self.rng, ECHO_ASSISTANT), self.rng, chosen)
            assistant = pick(self.rng, ASSISTANT_OPENERS) + assistant + pick(self.rng, ASSISTANT_CLOSERS)
            assistant = assistant[:1].upper() + assistant[1:]
            if self._ok(user) and assistant not in self.used:
                self.used.add(user)
                self.used.add(assistant)
                return user, assistant
        return self.exchange()
