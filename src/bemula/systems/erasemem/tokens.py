"""erasemem's own word tokens: what it indexes, matches, hashes and purges.

Why its own (issue 16, "don't borrow the yardstick"): the retrieval probe decides relevance
with ``bemula.index.tokenize`` and the rule judge with its normaliser. A system that shared
either would move whenever the yardstick is improved. Nothing here is imported from the
judge, the probe or the answering agent.

A token is a run of letters or digits, lower-cased, with accents folded ("München" and
"munchen" are one word; a value the dialogue wrote both ways is one value), an English
possessive dropped, stop words removed, and plural and common verb endings trimmed ("lives"
and "live" are one word).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: a run of letters or digits of any script ("교수님", "Αθήνα" and "Москва" are words too: a
#: value written in them is matched and purged like any other), with an apostrophe ending
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")

#: function words that never identify what a sentence is about
STOPWORDS = frozenset(
    """a an the and or nor but so if than then as at by for from in into of off on onto out
    over to under up upon with within without via per about again also am is are was were be
    been being do does did doing done have has had having can could shall should will would
    might must i me my myself mine we us our ours you your yours yourself he him his she
    her hers it its they them their theirs this that these those there here what which who
    whom whose when where why how not no yes yeah ok okay oh hi hey hello please thanks thank
    just very really too some any each both few more most other same such only own once
    because before while until i'm im i've ive i'd id i'll ill got get""".split()
)


#: punctuation that makes a text non-ASCII without touching a word: written plainly first, so
#: such a text takes the fast path (an assistant's reply with a dash or a curly quote)
_PLAIN_PUNCTUATION = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-",
                                    "\u2013": "-", "\u2026": "...", "\u00a0": " ", "\u2022": "*", "\u20ac": " ",
                                    "\u00a3": " "})


#: Latin letters that NFKD does not split into a base letter and an accent ("Południe",
#: "Tromsø", "Straße"): written as the letters they are read as, not dropped from the word
_UNDECOMPOSED = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ß": "ss", "æ": "ae",
                               "Æ": "AE", "œ": "oe", "Œ": "OE", "þ": "th", "Þ": "Th", "ı": "i", "ħ": "h"})


def fold(text: str) -> str:
    """Lower-case, compatibility-normalised text without accents or curly apostrophes."""
    text = text.translate(_PLAIN_PUNCTUATION)
    if text.isascii():  # most text: nothing to normalise
        return text.lower()
    text = unicodedata.normalize("NFKD", text).translate(_UNDECOMPOSED)
    return "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()


@lru_cache(maxsize=1 << 16)
def stem(token: str) -> str:
    """Trim a plural or a common verb ending; short words are left alone."""
    if token.isdigit():
        return token
    if len(token) >= 5 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) >= 6 and token.endswith("ing"):
        return token[:-3]
    if len(token) >= 5 and token.endswith("ed"):
        return token[:-2]
    if len(token) >= 5 and token.endswith("es") and token[:-2].endswith(("s", "x", "z", "ch", "sh")):
        return token[:-2]  # boxes, wishes, classes; but lives -> live, notes -> note
    if len(token) >= 4 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


#: texting abbreviations of the words a question uses: "home wifi pw is …" answers "what's
#: my home wifi password?" (the full word is what memory and questions are matched on)
ABBREVIATIONS = {"pw": "password", "pwd": "password", "passwd": "password", "bday": "birthday",
                 "addy": "address", "addr": "address", "appt": "appointment", "appts": "appointment",
                 # "Dr Ann Liddle" is a doctor: "her doctor's details" names her
                 "dr": "doctor", "drs": "doctor"}


def _token_of(word: str) -> str:
    """The token one folded word stands for; "" for a stop word or a contraction."""
    if word.endswith("'s"):
        word = word[:-2]
    if word in STOPWORDS or "'" in word:
        return ""
    return stem(ABBREVIATIONS.get(word, word))


#: folded word -> its token ("" when none): a dialogue repeats a small vocabulary, and every
#: sentence is tokenised at least once (emptied when it grows past a bound)
_TOKEN_OF: dict[str, str] = {}
_TOKEN_CACHE_LIMIT = 1 << 17


def tokenize(text: str) -> list[str]:
    """erasemem's content tokens of ``text``, in order (duplicates kept)."""
    cache = _TOKEN_OF
    out: list[str] = []
    for word in _WORD.findall(fold(text)):
        token = cache.get(word)
        if token is None:
            if len(cache) >= _TOKEN_CACHE_LIMIT:
                cache.clear()
            token = cache[word] = _token_of(word)
        if token:
            out.append(token)
    return out


def surface_forms(text: str) -> dict[str, set[str]]:
    """token -> the words ``text`` writes it as (folded): "reports" and "report" are one
    token in two forms."""
    out: dict[str, set[str]] = {}
    for word in _WORD.findall(fold(text)):
        for token in tokenize(word):
            out.setdefault(token, set()).add(word)
    return out
