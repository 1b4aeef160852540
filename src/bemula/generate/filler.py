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
from typing import TYPE_CHECKING

from bemula.generate.phrasing import CATEGORY_ECHO, lower_first, pick, upper_first

if TYPE_CHECKING:
    from bemula.generate.dialogue import ValueBlocklist

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
    "day": ("tomorrow", "this weekend", "on Saturday", "later this week", "on Monday", "all week"),
    "topic": (
        "why the sky looks orange at sunset||sunlight travels through more air near the horizon, so blue light is scattered away and the reds and oranges are left",
        "how bread rises||yeast eats the sugars in the dough and gives off carbon dioxide, and the gluten traps the gas like tiny balloons",
        "why cats purr||it comes from rapid twitching of the muscles in the voice box; they do it when content but also to soothe themselves",
        "how noise-cancelling headphones work||tiny microphones listen to the outside noise and the headphones play the opposite sound wave so the two cancel out",
        "why onions make you cry||cutting them releases a compound that turns into a mild irritant gas, and your eyes make tears to wash it away",
        "how tides work||the moon's gravity pulls the oceans into a bulge on the near side and the far side, and the Earth turns underneath them",
        "why leaves change colour||trees stop making green chlorophyll in autumn, which uncovers the yellows and oranges that were there all along",
        "how a rainbow forms||sunlight bends as it enters raindrops, reflects off the back and splits into its colours on the way out",
        "why ice floats||water expands when it freezes into a crystal lattice, so ice is less dense than the liquid around it",
        "why yawns are contagious||nobody knows for sure, but it seems linked to empathy and social bonding; we even catch yawns from dogs",
        "how compasses work||the needle is a small magnet that lines up with the Earth's magnetic field, which runs roughly north to south",
        "why the moon looks bigger near the horizon||it's an illusion; the moon is the same size, but your brain compares it with trees and buildings",
        "how bees make honey||they collect nectar, pass it between them to add enzymes, and fan it with their wings until most of the water evaporates",
        "why the sea is salty||rivers carry dissolved minerals from rocks into the sea, and when water evaporates the salt stays behind",
        "how planes stay in the air||the wings are shaped and angled so air pushes up on them harder than it pushes down",
        "why we get goosebumps||tiny muscles pull each hair upright, a leftover reflex from when our ancestors had more fur to fluff up",
    ),
    "word": ("serendipity", "petrichor", "hygge", "ennui", "sonder", "schadenfreude", "ubiquitous",
             "ephemeral", "quixotic", "liminal", "sonorous", "halcyon"),
    "plan": ("a picnic", "a quiet weekend", "a movie night", "a day trip", "a dinner with friends",
             "a spring clean", "a long walk", "a games evening", "a lazy Sunday", "a museum visit"),
}

OPENERS = ("", "", "", "Hey, ", "Hi again. ", "Okay, ", "So, ", "Quick one: ", "Random question: ",
           "Hmm, ", "Right, ", "Another thing: ", "Sorry to bother you, ", "Oh, and ", "Also, ")
#: greetings by time of day, used on some first exchanges of a session
GREETINGS = {
    "morning": ("Good morning! ", "Morning! ", "Morning, quick one. ", "Hi, early start today. "),
    "afternoon": ("Good afternoon! ", "Hi there. ", "Afternoon! ", "Hey, lunch break question. "),
    "evening": ("Good evening! ", "Evening! ", "Hi, long day. ", "Hey, winding down now. "),
    "night": ("Still up, sorry. ", "Late one, I know. ", "Can't sleep, so: ", "Hi, it's late but "),
}

#: topic -> (user template, assistant replies that answer it); slots are shared by the pair
EXCHANGES: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "errand": (
        ("I need to pick up {item} from {place} {time}. Is it worth combining that with another errand?",
         ("If you're passing {place} anyway, bundle it with anything else on that side of town.",
          "Yes, if anything else is nearby; otherwise a quick in-and-out trip for {item} is fine.")),
        ("What else could I grab at {place} besides {item}?",
         ("Check what's running low at home first; people often forget the basics when they're out.",
          "Maybe look at what you'll need next week too, so you save yourself a second trip.")),
        ("I keep forgetting {item}. How do I make sure I remember {time}?",
         ("Add {item} to a list on your phone now and set a reminder for {time}.",
          "Put a note by the door or on your keys; it's hard to miss on the way out.")),
        ("Is {place} usually busy {time}? I want to get {item}.",
         ("It depends on the area, but {time} is often calmer than the after-work rush.",
          "Hard to say for sure; if it's busy, a short queue for {item} shouldn't take long.")),
    ),
    "cooking": (
        ("Thinking of making {dish} {time}. Any tips?",
         ("For {dish}, season a little more than you think and let it rest a few minutes.",
          "Prep everything before you start; {dish} is much calmer to cook that way.")),
        ("How long does {dish} keep in the fridge?",
         ("{dish} usually keeps two or three days in a sealed container in the fridge.",
          "Two to three days is a safe rule for {dish}; smell and look before eating.")),
        ("I have leftovers from {dish}. What can I turn them into?",
         ("Leftover {dish} works well in a wrap or on toast with something fresh on top.",
          "Try reheating the leftover {dish} with an egg on top; it makes a quick lunch.")),
        ("What goes well on the side with {dish}?",
         ("A simple green salad or some crusty bread goes well with {dish}.",
          "Something fresh and crunchy balances {dish}: a slaw or a cucumber salad.")),
        ("Can {dish} be frozen, do you think?",
         ("Most people freeze {dish} without trouble; cool it first and use it within a couple of months.",
          "Yes, in portions; thaw it overnight in the fridge before reheating.")),
    ),
    "chores": (
        ("I really have to {task} {time}. How do I get motivated?",
         ("Try doing it in short bursts: ten minutes on, then a short break.",
          "Promise yourself something nice afterwards and start with the smallest part.")),
        ("What's the fastest way to {task}?",
         ("Gather everything you need first, then do it in one go without switching tasks.",
          "Put on a podcast and start with the smallest part; momentum does the rest.")),
        ("I've put off having to {task} for {number} days now. Any advice?",
         ("Break it into {number} small steps and tick them off as you go.",
          "Set a timer for fifteen minutes and just begin; it's rarely as bad as it looks.")),
        ("Should I {task} before or after the weekend?",
         ("Before, if you can; it's nicer to start the weekend with it done.",
          "After is fine if the weekend is busy; just put it in your calendar so it happens.")),
    ),
    "weather": (
        ("It's so {weather} out today. Any ideas for what to do indoors?",
         ("On a {weather} day a good book, a warm drink and a tidy-up can feel great.",
          "Maybe a film, a puzzle, or finally cooking something slow.")),
        ("The forecast says {weather} again {day}. Should I still go out?",
         ("If it's {weather}, keep plans flexible and have an indoor backup ready.",
          "Probably yes; dress for it and keep the outing short if it gets worse.")),
        ("Another {weather} day. How do people stay cheerful in this?",
         ("Even on {weather} days a short walk at lunch helps a lot.",
          "Small routines help: good light indoors, a walk, and something to look forward to.")),
        ("It turned {weather} all of a sudden. Is a jacket enough?",
         ("Layers are your friend when it's {weather}; you can always take one off.",
          "A jacket plus one warm layer underneath should cover it.")),
    ),
    "tech": (
        ("{gadget} {problem}. What should I try first?",
         ("First try switching {gadget} off at the wall for thirty seconds, then back on.",
          "Check the cables and any update notifications; that fixes most cases.")),
        ("Ugh, {gadget} {problem} again. Is it worth fixing?",
         ("If it's more than a few years old, a repair may cost close to a new one; check the warranty first.",
          "Worth one proper reset before giving up on it.")),
        ("Any idea why {gadget} {problem} after I moved it?",
         ("Moving it may have loosened a cable or changed the power supply; check both.",
          "Sometimes moving it away from other electronics helps more than you'd think.")),
        ("How do I reset {gadget}? It {problem}.",
         ("If {gadget} still {problem} after a restart, the manual usually has a reset sequence.",
          "Look for a small reset button or hold the power button for ten seconds.")),
    ),
    "tv": (
        ("I watched {show} last night. Can you recommend something similar?",
         ("If you liked {show}, look for something from the same makers; the tone is usually similar.",
          "Try browsing the 'more like this' row under {show}; it's often surprisingly good.")),
        ("Is {show} a good thing to put on {time}?",
         ("{show} is great for winding down, especially with the lights low.",
          "Sure, as long as you're not planning an early night.")),
        ("I fell asleep halfway through {show}. Is that a bad sign?",
         ("Falling asleep to {show} just means you were tired, not that it was bad.",
          "Not at all; it probably just means it was relaxing.")),
        ("What should I watch after {show}?",
         ("After {show}, a lighter comedy might be a nice change.",
          "Something short might be good; a single episode of a comedy resets the mood.")),
    ),
    "social": (
        ("I ran into {person} {time}. How do I keep a conversation going when I'm tired?",
         ("Ask open questions and let them talk; people love sharing what they're excited about.",
          "Keep it short and warm; it's fine to say you're tired and suggest catching up properly later.")),
        ("{person} invited me to {plan}. How do I say no politely?",
         ("A short, warm message works best: thank them for thinking of you and suggest another time.",
          "Be honest and brief; 'I can't make it this time, but thanks for asking' is enough.")),
        ("I want to thank {person} for a favour. Any small gift ideas?",
         ("Something small and personal, like a handwritten note, goes a long way.",
          "Homemade biscuits or a nice coffee are simple and always welcome.")),
        ("Is it weird to text {person} after {number} months of silence?",
         ("Not weird at all. A simple 'thought of you today' is a friendly way back in.",
          "Most people are happy to hear from someone; just keep the first message light.")),
    ),
    "curious": (
        ("I've always wondered {topic}. Can you explain it simply?", ("In short: {answer}.", "Here's the idea: {answer}.")),
        ("Settle a debate for me: {topic}?", ("The simple version: {answer}.", "Roughly speaking, {answer}.")),
        ("Explain {topic} like I'm ten, please.", ("Okay: {answer}.", "Imagine this: {answer}.")),
        ("My friend asked me {topic} and I had no idea.", ("You can tell them {answer}.", "The answer: {answer}.")),
    ),
    "words": (
        ("What does '{word}' actually mean?",
         ("'{word}' describes something people often feel but rarely name; a dictionary gives the exact sense.",
          "It's one of those words with a very specific shade of meaning; I can give you examples.")),
        ("Can you use '{word}' in a sentence for me?",
         ("Here's one: 'The afternoon had a {word} quality that made everyone slow down.'",
          "Try: 'There was something {word} about that old station at dusk.'")),
        ("Is '{word}' a word people really use?",
         ("People do use '{word}', mostly in writing rather than casual speech.",
          "Now and then, yes; it shows up more in books and articles than in conversation.")),
        ("Where does the word '{word}' come from?",
         ("'{word}' has an interesting history; it was borrowed and shifted meaning over time.",
          "It came into English from another language and picked up its current sense later.")),
    ),
    "planning": (
        ("I'm thinking about {plan} {time}. What do I need?",
         ("For {plan}, think about food, timing and a backup if the weather turns.",
          "Mostly good company; sort out snacks and a rough start time and you're set.")),
        ("Help me plan {plan} with {number} people.",
         ("With {number} people, keep it simple and ask everyone to bring one thing.",
          "Pick a date first, then a place, then split the shopping between everyone.")),
        ("Is {plan} a good idea if it's {weather}?",
         ("If it's {weather}, move {plan} indoors or pick a covered spot.",
          "It can still work; just have a plan B in case it gets worse.")),
        ("What's a cheap way to do {plan}?",
         ("Free options like parks and libraries make {plan} cheap and still fun.",
          "Share the costs and make the food yourselves; that's most of the budget.")),
    ),
    "wellbeing": (
        ("I slept badly again. Any tricks for falling asleep faster?",
         ("A dark room, no screens for half an hour and a fixed wake time help most people.",
          "Try writing tomorrow's to-do list before bed so your head can let go of it.")),
        ("Feeling a bit flat {time}. Any small pick-me-up ideas?",
         ("Something tiny helps: a short walk, a song you love, or calling someone for five minutes.",
          "A glass of water, some daylight and a snack can do more than you'd expect.")),
        ("How many breaks should I take when working {number} hours straight?",
         ("Roughly every hour, get up for five minutes; your eyes and back will thank you.",
          "A short break every fifty minutes or so keeps your focus up.")),
        ("I've been staring at screens all day. What's a good way to unwind {time}?",
         ("Try a warm shower and a chapter of a book instead of scrolling.",
          "Get outside for a bit if you can, even just around the block.")),
    ),
}
TOPICS = tuple(sorted(EXCHANGES))

#: optional second sentences, so assistant replies vary in length like real ones
EXTRAS: dict[str, tuple[str, ...]] = {
    "errand": ("Shops tend to be quietest mid-morning on weekdays.", "Keeping a running list on the fridge saves a lot of trips.",
               "If it's heavy, a small trolley bag makes it much easier.", "Some places let you order ahead and just collect."),
    "cooking": ("Tasting as you go is the best habit in any kitchen.", "A sharp knife makes the prep much faster and safer.",
                "Leftovers often taste better the next day once the flavours settle.", "Writing down what you changed helps next time."),
    "chores": ("Music with a good beat genuinely makes chores go quicker.", "Doing a little every day beats one huge session.",
               "Ticking things off a list gives a nice sense of progress.", "It's fine if it isn't perfect; done is better."),
    "weather": ("Forecasts more than three days out are only rough guesses.", "Good socks make a bigger difference than people think.",
                "A warm drink when you get back in is half the fun.", "Checking the hourly forecast helps you pick a dry window."),
    "tech": ("Writing down the model number before you call support saves time.", "Most devices have a help page with the reset steps.",
             "If it's still under warranty, a replacement may be free.", "Restarting fixes more problems than anyone likes to admit."),
    "tv": ("Reviews from people with similar taste are usually the best guide.", "Watching with subtitles can make dialogue-heavy shows easier.",
           "A short episode before bed is better than a late binge.", "Sometimes the second season is where a show really finds itself."),
    "social": ("Most people remember kindness far longer than the details.", "Short and sincere almost always lands well.",
               "It's okay to protect your energy now and then.", "A follow-up message a few days later keeps things warm."),
    "curious": ("There's a lot more detail behind it if you ever want to dig in.", "It's one of those things that gets more interesting the closer you look.",
                "Scientists are still studying some parts of it.", "A good documentary on it would explain it with nice visuals."),
    "words": ("Reading more widely is the easiest way to pick up words like that.", "Context usually tells you how formal a word feels.",
              "Etymology dictionaries online are fun to browse.", "Using a new word once or twice helps it stick."),
    "planning": ("Sending a quick poll in the group chat makes choosing a date easier.", "A simple checklist the day before avoids last-minute stress.",
                 "Keeping one thing flexible leaves room for surprises.", "Asking people about dietary needs early saves hassle later."),
    "wellbeing": ("Small habits repeated daily tend to matter most.", "Be kind to yourself; some weeks are just harder.",
                  "Daylight in the morning helps your body clock a lot.", "A regular routine makes all of this easier."),
}

#: a later exchange that picks up the previous one (same slots): "that worked, but ..."
FOLLOWUPS: dict[str, tuple[tuple[str, str], ...]] = {
    "errand": (("Got {item} in the end. {place} was fine, by the way.", "Great, one thing off the list then."),
               ("Update: {place} was closed, so I still need {item}.", "Annoying! Maybe try again tomorrow, or look for {item} somewhere nearby.")),
    "cooking": (("Made the {dish}, it turned out well! Could I make it ahead next time?", "Glad the {dish} worked! Yes, most of it can be prepped a day ahead."),
                ("The {dish} was a bit bland. What would you add?", "A squeeze of lemon, more salt or a pinch of chilli usually wakes {dish} up.")),
    "chores": (("Did it: managed to {task}. Took less time than I feared.", "Nicely done. Those jobs are always bigger in your head."),
               ("Only got halfway with trying to {task}. Is that okay?", "Halfway is real progress; finish the rest in another short burst.")),
    "weather": (("It's still {weather}. Starting to get to me.", "Understandable. Even ten minutes outside or by a bright window can help."),
                ("Went out anyway despite it being {weather}. Worth it!", "Love that. Fresh air usually wins.")),
    "tech": (("That didn't fix it, {gadget} still {problem}.", "Then I'd check for a firmware update or contact the manufacturer's support."),
             ("The reset worked for {gadget}, thanks!", "Great! Note what you did in case it happens again.")),
    "tv": (("Finished {show}. Loved the ending.", "Nice! Endings like that are rare; enjoy the afterglow."),
           ("Gave up on {show}, it lost me.", "Fair enough; life's too short for shows that don't grab you.")),
    "social": (("I talked to {person} in the end and it was fine.", "Good to hear. Those things usually go better than we expect."),
               ("Still haven't replied to {person}. Am I overthinking it?", "Probably a little. A short, friendly reply is all it needs.")),
    "curious": (("Follow-up on {topic}: is that true everywhere?", "Mostly, yes; local conditions can change the details, but the basic idea holds."),
                ("I told someone about {topic} and they were impressed.", "Ha, nice. It's a good one to have up your sleeve.")),
    "words": (("I used '{word}' in an email today.", "Bold move! It probably made the email more memorable."),
              ("Is there a simpler word than '{word}'?", "Often, yes; a plainer synonym works better in everyday writing.")),
    "planning": (("{plan} went well in the end!", "Great to hear! Sounds like the planning paid off."),
                 ("We had to cancel {plan}. Any quick alternative?", "A short walk and a coffee together is an easy stand-in.")),
    "wellbeing": (("Tried your suggestion and it helped a bit.", "That's good progress. Keep it up for a week and see how it goes."),
                  ("Still feeling a bit meh about it, honestly.", "Sorry to hear that. If it lasts, it's worth talking to someone you trust.")),
}

USER_FOLLOWUPS = ("", "", "", " Thanks!", " No rush.", " Just curious.", " Be honest.", " Short answer is fine.",
                  " I'm open to ideas.", " What do you think?")
ASSISTANT_OPENERS = ("", "", "", "Good question. ", "Sure. ", "Of course. ", "Happy to help. ", "Hmm, ",
                     "Honestly, ", "Okay, ", "Right, ")
ASSISTANT_CLOSERS = ("", "", "", " Want more ideas?", " Let me know how it goes.", " Good luck!",
                     " Anything else?", " Hope that helps.", " Enjoy!", " Tell me if that works.")

# replies that use an earlier fact (only ever an untargeted fact, see plan.py)
ECHO_USER = (
    "Any suggestions for what I could do {time}?",
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


def _fill(template: str, rng: random.Random, chosen: dict[str, str]) -> str:
    def repl(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in chosen:
            value = pick(rng, SLOTS[key])
            if "||" in value:  # a question with its answer ("topic" -> "answer")
                value, chosen["answer"] = value.split("||", 1)
            chosen[key] = value
        return chosen[key]

    return re.sub(r"\{(\w+)\}", repl, template)


def _join(opener: str, text: str) -> str:
    """Opener + sentence with sensible capitalisation ("Hmm, it turned..." / "Quick one: It...")."""
    if not opener:
        return upper_first(text)
    if opener.rstrip()[-1:] in (".", "!", "?", ":") or re.match(r"I\b|I'", text):
        return opener + upper_first(text)
    return opener + lower_first(text)


def pick_pair(rng: random.Random, options: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    return options[rng.randrange(len(options))]


@dataclass
class FillerMaker:
    """Makes distinct filler exchanges for one instance.

    ``used`` is shared with everything else that writes turns, so no turn text repeats
    anywhere in the instance; ``blocked`` matches every fact value and alias of the
    instance, so filler never contains one.
    """

    rng: random.Random
    used: set[str]
    blocked: ValueBlocklist | None
    user_name: str
    #: the previous small-talk exchange's topic and slots, for an occasional follow-up
    last: tuple[str, dict[str, str]] | None = None
    followup_share: float = 0.15

    def _ok(self, text: str) -> bool:
        if text in self.used:
            return False
        return not (self.blocked is not None and self.blocked.search(text))

    def exchange(self, day_part: str | None = None) -> tuple[str, str]:
        """A small-talk exchange; ``day_part`` (morning...night) allows a greeting. Some
        exchanges follow up the previous one with the same details."""
        if self.last is not None and day_part is None and self.rng.random() < self.followup_share:
            topic, earlier = self.last
            self.last = None
            user_t, reply_t = pick_pair(self.rng, FOLLOWUPS[topic])
            user = _fill(user_t, self.rng, dict(earlier))
            user = upper_first(user) + pick(self.rng, USER_FOLLOWUPS)
            assistant = upper_first(_fill(reply_t, self.rng, dict(earlier))) + pick(self.rng, ASSISTANT_CLOSERS)
            if self._ok(user) and self._ok(assistant):
                self.used.add(user)
                self.used.add(assistant)
                return user, assistant
        for _attempt in range(200):
            topic = pick(self.rng, TOPICS)
            chosen: dict[str, str] = {}
            opener = pick(self.rng, OPENERS)
            if day_part in GREETINGS and self.rng.random() < 0.5:
                opener = pick(self.rng, GREETINGS[day_part])
            options = EXCHANGES[topic]
            user_t, replies = options[self.rng.randrange(len(options))]
            user = _join(opener, _fill(user_t, self.rng, chosen)) + pick(self.rng, USER_FOLLOWUPS)
            body = _fill(pick(self.rng, replies), self.rng, chosen)
            if self.rng.random() < 0.5:
                body += " " + pick(self.rng, EXTRAS[topic])
            a_opener = pick(self.rng, ASSISTANT_OPENERS)
            if a_opener.endswith(". ") and self.rng.random() < 0.25:
                a_opener = a_opener[:-2] + f", {self.user_name}. "
            assistant = _join(a_opener, body) + pick(self.rng, ASSISTANT_CLOSERS)
            if self._ok(user) and self._ok(assistant):
                self.used.add(user)
                self.used.add(assistant)
                self.last = (topic, chosen)
                return user, assistant
        raise RuntimeError("filler space exhausted; add templates or slots")

    def echo(self, noun: str, value: str, category: str = "") -> tuple[str, str]:
        """A follow-up where the assistant uses an earlier (untargeted) fact."""
        templates = ECHO_ASSISTANT + CATEGORY_ECHO.get(category, ()) * 3
        for _attempt in range(200):
            chosen = {"noun": noun, "v": value}
            user = _join(pick(self.rng, OPENERS), _fill(pick(self.rng, ECHO_USER), self.rng, chosen))
            assistant = _join(pick(self.rng, ASSISTANT_OPENERS), _fill(pick(self.rng, templates), self.rng, chosen))
            assistant += pick(self.rng, ASSISTANT_CLOSERS)
            if self._ok(user) and assistant not in self.used:
                self.used.add(user)
                self.used.add(assistant)
                return user, assistant
        return self.exchange()
