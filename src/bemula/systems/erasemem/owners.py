"""Whose thing is it? Owners of facts, so that forgetting one person's thing keeps another's.

"Forget my GP" is not "forget my mum's GP"; a question about Jonas's number is not about the
user's own deleted number; "all the health stuff I told you" is the user's health, not
Dad's prescription. These helpers read owners from the words: named possessives ("Jonas's",
"Rafael's"), first-person words, kin words and third-person pronouns. Kin words are not
*named* owners ("my brother's name" and "my brother is Dmitri" are one fact).
"""

from __future__ import annotations

import re

from bemula.systems.erasemem.tokens import tokenize

#: the user's own things, as a tombstone records them (hashed like any token)
SELF = "~me"

#: categories whose facts are about other people: a request for them keeps those people in
PEOPLE_CATEGORIES = frozenset({"family", "relationships", "contacts", "pets"})
#: relatives and others whose facts a request about "my health stuff" does not mean
KIN_WORDS = (r"(?:dad|mum|mom|mother|father|son|daughter|wife|husband|partner|sister|brother|grandma|"
              r"grandmother|grandpa|grandfather|aunt|uncle|cousin|niece|nephew|friend|boss|kids?|child|baby|"
              r"girlfriend|boyfriend|flatmate|roommate|colleague|granddaughter|grandson|grandchild|grandkids?|spouse|"
              r"fianc[eé]e?)")
KIN = re.compile(r"\b" + KIN_WORDS + r"(?:'s|’s)?\b", re.I)
_MY_KIN = re.compile(r"\bmy\s+(?:\w+\s+)?" + KIN_WORDS + r"(?:'s|’s)?\b", re.I)
_SELF_SUBJECT = re.compile(r"\b(?:i|i'm|i’m|i've|i’ve|my|me|mine)\b", re.I)


#: where a sentence about someone turns to what the user does about it: ", so I'll …", "; I …"
_THEN_I = re.compile(r"(?:,\s*|\s+)(?:so|and|but)\s+(?=(?:i|i'll|i’ll|i'm|i’m|i've|i’ve|i'd|i’d)\b)|;\s*(?=i\b)", re.I)
#: a clause that opens with another person as its subject: "Isla's got …", "My granddaughter Isla has …"
_OTHER_SUBJECT_START = re.compile(
    r"^\W*(?:(?:my|our)\s+(?:\w+\s+)?" + KIN_WORDS + r"\b|(?:(?!(?:it|this|that|there|here|what|which|who|the|today|tomorrow|yesterday|"
    r"everything|everyone|nothing|one|work|life|(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|"
    r"may|june|july|august|september|october|november|december)\b)(?-i:[A-Z][a-z]+)|" + KIN_WORDS + r")"
    r"(?:(?:'s|’s)\s+(?:got|been|on|having|taking|started)|\s+(?:has|had|is|was|takes|took|needs|gets|uses))\b"
    r"|(?:he|she|they)\b)", re.I)


def names_no_one(text: str) -> bool:
    """``text`` says nobody's: no "I"/"my", no person, no pronoun ("Booked with the panel
    physician in Guangzhou on March 12.")."""
    return not (_SELF_SUBJECT.search(text) or owners_of(text) or KIN.search(text) or OTHER_PRONOUNS.search(text))


def about_someone_else(text: str) -> bool:
    """A unit about another person's things and not the user's own ("Dad's been prescribed
    donepezil"; "Julia takes sumatriptan for her migraines"; "Isla's got the asthma though, so
    I'll need to watch the flour": the first clause is hers, what follows is what I do about it)."""
    first = _THEN_I.split(text, maxsplit=1)[0]
    if first != text and _OTHER_SUBJECT_START.match(first) and not _SELF_SUBJECT.search(_MY_KIN.sub("", first)):
        return True
    if _SELF_SUBJECT.search(_MY_KIN.sub("", text)):
        return False
    return bool(owners_of(text) or KIN.search(text) or OTHER_PRONOUNS.search(text)
                or re.search(r"(?:^|[:;.!?]\s+)[A-Z][a-z]+\s+(?:is|was|has|had|takes|took|sees|uses|does|works|lives|"
                             r"flew|went|came|got|gets|says|said)\b", text.strip()))


#: what a phrase says is the user's own: "my (own) GP's details" -> GP, "my work email" -> work email
MY_THING = re.compile(r"\bmy\s+(?:own\s+)?((?:(?![\w-]+(?:'s|’s)\b)[\w-]+\s+){0,2}[\w-]+?)(?:'s|’s)?(?=\s|$|[,.;:!?])", re.I)
#: "mum's GP", "Rafael's blood type", "his number": the owner, then up to three words owned
_OWNER = re.compile(r"\b(?!(?:it|that|what|there|here|who|he|she|let)(?:'s|’s))([a-z]+)(?:'s|’s)\s+((?:[\w-]+\s+){0,2}[\w-]+)"
                    r"|\b(?:his|her|their)\s+((?:[\w-]+\s+){0,2}[\w-]+)", re.I)


#: a possessive naming a person: "Jonas's", "mum's", "Dr Patel's" (not "it's", "that's")
_POSSESSOR = re.compile(r"\b(?!(?:it|that|what|there|here|who|he|she|let|where|how|everyone|everybody|"
                        r"today|tomorrow|yesterday|year|week|month|day)(?:'s|’s))([A-Za-z]+)(?:'s|’s)\b")


_KIN_POSSESSIVE = re.compile(r"\b(?:my|our)\s+(?:\w+\s+)?" + KIN_WORDS + r"(?:'s|’s)\s", re.I)


def names_someone_elses(text: str) -> bool:
    """The text names a thing as another person's outright ("Jonas's number", "My mum's GP
    is …"), not merely with a pronoun ("Now he sold the flat, the new landlord is …")."""
    return bool(owners_of(text) or _KIN_POSSESSIVE.search(text))


def owners_of(text: str) -> set[str]:
    """The people other than the user, by name, whose things ``text`` names ("Jonas's
    number"). Names only: "my brother's name" and "my brother is Dmitri" are one fact, so
    kin words are not owners here."""
    return {t for m in _POSSESSOR.finditer(text) if m.group(1)[:1].isupper() and m.group(1) not in _NOT_NAMES
            for t in tokenize(m.group(1))}


_SELF_WORDS = re.compile(r"\b(?:my|mine|i|i'm|i’m|i've|i’ve|me)\b", re.I)
OTHER_PRONOUNS = re.compile(r"\b(?:he|she|his|her|hers|him|their|they|them|he's|she's)\b", re.I)


def ghost_owners(text: str) -> tuple[str, ...]:
    """What a tombstone records of whose thing it was: the named owners, and ``SELF`` when
    the text speaks of the user's own things and of no one else's."""
    owners = owners_of(text)
    if not owners and _SELF_WORDS.search(text) and not OTHER_PRONOUNS.search(text):
        owners.add(SELF)
    return tuple(sorted(owners))


_NOT_NAMES = frozenset({"My", "Mum", "Mom", "Dad", "Today", "Tomorrow", "Yesterday", "Everyone", "Nobody", "Somebody"})


def owned_by_someone_else(text: str, tokens: set[str]) -> bool:
    """Whether ``text`` says a target word belongs to someone other than the user."""
    for m in _OWNER.finditer(text):
        owned = m.group(2) or m.group(3) or ""
        if set(tokenize(owned)) & tokens:
            return True
    return False
