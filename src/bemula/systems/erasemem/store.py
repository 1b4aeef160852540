"""The stores of erasemem, each purgeable: raw turns, memory units, one text index.

* **turns** — the raw dialogue history (both roles), kept as an agent keeps its history.
  A forget request *redacts* it: removed sentences disappear, removed values become
  ``[removed]``; the directive itself is not kept.
* **units** — one sentence of a user turn each: what retrieval ranks. Deletion removes the
  unit and its index entry; an edited unit is re-indexed.
* **index** — BM25 over live units *and* tombstones (hashed tokens, see ``tombstones``), so
  one ranking says whether a question is closest to something kept or something forgotten.

Assistant turns are kept in the history but not indexed: questions are about the user, and
the assistant's words are echoes of the user's (indexing them only adds stale copies).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from bemula.index import TextIndex
from bemula.systems.erasemem.categories import unit_categories
from bemula.systems.erasemem.textutil import REDACTED, literal_pattern, redact_tokens
from bemula.systems.erasemem.tokens import fold, tokenize


@lru_cache(maxsize=64)
def _substring_stems(tokens: frozenset[str]) -> list[str]:
    """Strings one of which the lower-cased text of any word carrying one of ``tokens``
    contains. The index's stemmer only strips endings (and turns "-ies" into "-y"), so every
    token, minus a final "y", is a substring of the lower-cased word it came from."""
    return sorted({t[:-1] if t.endswith("y") and len(t) > 1 else t for t in tokens}, key=len, reverse=True)


def _screen_for(tokens: frozenset[str]) -> re.Pattern[str]:
    """A regex that finds every text holding one of ``tokens`` (and a few more)."""
    return re.compile(literal_pattern(_substring_stems(tokens)), re.IGNORECASE)


_HAS_WORD = re.compile(r"[^\W_]")  # a letter or digit of any script
#: a subject put back before a trimmed unit's rest ("My dentist: …", ``resolve._ungapped``)
_GIVEN_SUBJECT = re.compile(r"My (?:[a-z][\w-]*\s){0,2}[a-z][\w-]*: ")


@dataclass
class RawTurn:
    id: str
    role: str
    session_id: str
    timestamp: datetime
    text: str
    unit_ids: list[str] = field(default_factory=list)
    #: what the text holds, to skip turns a purge cannot touch; computed on first need
    tokens: frozenset[str] | None = None
    edited: bool = False  # the text no longer is what was said (a purge touched it)
    #: (text, text.lower()) kept for purge screens; valid only while ``text`` is that object
    _lowered: tuple[str, str] | None = field(default=None, repr=False, compare=False)

    def lowered(self) -> str:
        """The text as tokens see it: lower case, accents folded ("Zsófia" holds "zsofia")."""
        if self._lowered is None or self._lowered[0] is not self.text:
            self._lowered = (self.text, fold(self.text))
        return self._lowered[1]

    def copy(self) -> RawTurn:
        """A copy with its own unit list (the constructor directly: ``dataclasses.replace``
        and ``copy.copy`` cost several times more, on every turn of every fork)."""
        return RawTurn(self.id, self.role, self.session_id, self.timestamp, self.text,
                       list(self.unit_ids), self.tokens, self.edited, self._lowered)

    def token_set(self) -> frozenset[str]:
        if self.tokens is None:
            self.tokens = frozenset(tokenize(self.text))
        return self.tokens


@dataclass
class Unit:
    """One sentence of a user turn. Its tokens and categories are worked out on first use:
    most units are never part of a request, and the control version may see none at all.
    A unit's text never changes in place (an edit makes a new ``Unit``), so the cached
    values stay true even when forked memories share the object."""

    id: str
    turn_id: str
    session_id: str
    timestamp: datetime
    text: str
    _tokens: frozenset[str] | None = field(default=None, repr=False, compare=False)
    _categories: frozenset[str] | None = field(default=None, repr=False, compare=False)

    @property
    def tokens(self) -> frozenset[str]:
        if self._tokens is None:
            self._tokens = frozenset(tokenize(self.text))
        return self._tokens

    @property
    def categories(self) -> frozenset[str]:
        if self._categories is None:
            self._categories = unit_categories(self.text, self.tokens)
        return self._categories


@dataclass
class MemoryStore:
    index: TextIndex
    turns: dict[str, RawTurn] = field(default_factory=dict)
    units: dict[str, Unit] = field(default_factory=dict)
    sessions: list[str] = field(default_factory=list)
    #: document frequency of each token over live units; built on first need (a request)
    _doc_freq: Counter[str] | None = None
    _next_turn: int = 0
    _next_unit: int = 0

    # ------------------------------------------------------------------ adding

    def add_turn(self, role: str, session_id: str, timestamp: datetime, text: str) -> RawTurn:
        if not self.sessions or self.sessions[-1] != session_id:
            if session_id not in self.sessions:
                self.sessions.append(session_id)
        turn = RawTurn(f"t{self._next_turn:06d}", role, session_id, timestamp, text)
        self._next_turn += 1
        self.turns[turn.id] = turn
        return turn

    @property
    def doc_freq(self) -> Counter[str]:
        if self._doc_freq is None:
            self._doc_freq = Counter()
            for unit in self.units.values():
                self._doc_freq.update(unit.tokens)
        return self._doc_freq

    def df(self, token: str) -> int:
        """Live units holding ``token`` (the table is built on the first request)."""
        return self.doc_freq.get(token, 0)

    def units_containing(self, tokens: set[str] | frozenset[str]) -> list[Unit]:
        """Units that may hold one of ``tokens`` (a substring screen; check ``unit.tokens``)."""
        if not tokens:
            return []
        if self._doc_freq is not None:  # every unit's tokens are known: intersect, no regex
            return [u for u in self.units.values() if not u.tokens.isdisjoint(tokens)]
        screen = _screen_for(frozenset(tokens))
        return [u for u in self.units.values() if screen.search(u.text if u.text.isascii() else fold(u.text))]

    def turns_containing(self, tokens: set[str] | frozenset[str]) -> list[RawTurn]:
        """Turns holding one of ``tokens``. A turn whose tokens are not known yet (assistant
        turns, mostly) is first screened by plain substring tests of the tokens' stems on its
        lower-cased text, and tokenised only on a hit: a purge then costs microseconds per
        untouched turn instead of a tokenisation of the whole dialogue."""
        if not tokens:
            return []
        # one literal alternation on lower-cased text (no IGNORECASE: several times faster)
        # (written as a trie: a category's purge holds a hundred words)
        screen = re.compile(literal_pattern(_substring_stems(frozenset(tokens))))
        out = []
        for turn in self.turns.values():
            if turn.tokens is None and turn.role == "user" and not turn.edited and turn.unit_ids:
                # an untouched user turn is exactly its sentences: reuse their tokens
                turn.tokens = frozenset().union(*(self.units[u].tokens for u in turn.unit_ids if u in self.units))
            if turn.tokens is None and not screen.search(turn.lowered()):
                continue
            if not turn.token_set().isdisjoint(tokens):
                out.append(turn)
        return out

    def add_unit(self, turn: RawTurn, text: str) -> Unit | None:
        if not _HAS_WORD.search(text):
            return None
        tokens = tokenize(text)  # once, for the index and the unit
        unit = Unit(f"u{self._next_unit:06d}", turn.id, turn.session_id, turn.timestamp, text,
                    _tokens=frozenset(tokens))
        self._next_unit += 1
        self.units[unit.id] = unit
        turn.unit_ids.append(unit.id)
        self.index.add_tokens(unit.id, text, tokens)
        if self._doc_freq is not None:
            self._doc_freq.update(unit.tokens)
        return unit

    # ------------------------------------------------------------------ removing

    def delete_unit(self, unit_id: str) -> Unit | None:
        """Remove a unit everywhere: unit table, index, and its sentence in the raw turn."""
        unit = self.units.pop(unit_id, None)
        if unit is None:
            return None
        self.index.remove(unit_id)
        self._forget_tokens(unit.tokens)
        self._blank_in_turn(unit.turn_id, unit.text, set(unit.tokens))
        turn = self.turns.get(unit.turn_id)
        if turn is not None and unit_id in turn.unit_ids:
            turn.unit_ids.remove(unit_id)
        return unit

    def redact_unit(self, unit_id: str, tokens: set[str] | frozenset[str],
                    beside_only: set[str] | frozenset[str] = frozenset()) -> bool:
        """Blank ``tokens`` inside a unit that stays; re-index its new text."""
        unit = self.units.get(unit_id)
        if unit is None:
            return False
        text, count = redact_tokens(unit.text, tokens, beside_only)
        return bool(count) and self.rewrite_unit(unit_id, text)

    def trim_unit(self, unit_id: str, part: str, rest: str) -> str | None:
        """A compound unit loses one part: the unit keeps ``rest``, its raw turn loses
        ``part`` (blanked). Returns the turn's id, or ``None`` if the unit is gone."""
        unit = self.units.get(unit_id)
        if unit is None:
            return None
        # a subject the rest was given back ("My dentist: after the price rise I switched to
        # …") stays in the turn too, before the blank: the turn is what retrieval hands over
        subject = _GIVEN_SUBJECT.match(rest)
        given = subject.group(0) if subject and not unit.text.startswith(subject.group(0)) else ""
        self.rewrite_unit(unit_id, rest)
        self._blank_in_turn(unit.turn_id, part, set(tokenize(part)), given)
        return unit.turn_id

    def _blank_in_turn(self, turn_id: str, text: str, tokens: set[str], subject: str = "") -> None:
        """Blank ``text`` in a raw turn (after ``subject``, if given); if the turn was edited
        since, its words."""
        turn = self.turns.get(turn_id)
        if turn is None:
            return
        if text in turn.text:
            turn.text = turn.text.replace(text, subject + REDACTED)
        else:
            turn.text, _ = redact_tokens(turn.text, tokens)
        turn.tokens = None
        turn.edited = True

    def rewrite_unit(self, unit_id: str, text: str) -> bool:
        """Give a unit that stays new text (a value's other spelling blanked); re-index it."""
        unit = self.units.get(unit_id)
        if unit is None or unit.text == text:
            return False
        new_unit = replace(unit, text=text, _tokens=None, _categories=None)
        self._forget_tokens(unit.tokens)
        if self._doc_freq is not None:
            self._doc_freq.update(new_unit.tokens)
        self.units[unit_id] = new_unit
        self.index.add_tokens(unit_id, text, tokenize(text))  # replaces: the stale entry is gone
        return True

    def _forget_tokens(self, tokens: frozenset[str]) -> None:
        if self._doc_freq is None:
            return
        for token in tokens:
            left = self._doc_freq.get(token, 0) - 1
            if left > 0:
                self._doc_freq[token] = left
            else:
                self._doc_freq.pop(token, None)

    def redact_turn(self, turn_id: str, tokens: set[str] | frozenset[str],
                    beside_only: set[str] | frozenset[str] = frozenset()) -> int:
        turn = self.turns[turn_id]
        if not turn.token_set() & tokens:
            return 0
        turn.text, count = redact_tokens(turn.text, tokens, beside_only)
        turn.tokens = None
        turn.edited = True
        return count

    def set_turn_text(self, turn_id: str, text: str) -> None:
        turn = self.turns[turn_id]
        turn.text = text
        turn.tokens = None
        turn.edited = True

    # ------------------------------------------------------------------ reading

    def said_before(self, unit: Unit, lookback: int = 2) -> Unit | None:
        """The live sentence the user said just before ``unit``: the one before it in its
        turn, else the last one of the user's previous turn (looking at most ``lookback``
        turns back, across a session break too, as a person picks up where they left off).
        "My husband Rafael's is O+" states a blood type only with the sentence before it
        ("my blood type is O negative")."""
        live = [i for i in self.turns[unit.turn_id].unit_ids if i in self.units]
        if unit.id in live and live.index(unit.id) > 0:
            return self.units[live[live.index(unit.id) - 1]]
        number = int(unit.turn_id[1:])
        for k in range(number - 1, max(number - 1 - lookback, -1), -1):
            turn = self.turns.get(f"t{k:06d}")
            if turn is None:
                return None
            if turn.role != "user":
                continue
            earlier = [i for i in turn.unit_ids if i in self.units]
            return self.units[earlier[-1]] if earlier else None
        return None

    def user_units(self) -> list[Unit]:
        return list(self.units.values())

    def turn_text_without_removed(self, turn_id: str) -> str:
        return self.turns[turn_id].text

    def copy(self) -> MemoryStore:
        other = MemoryStore(
            index=self.index.copy(),
            turns={tid: t.copy() for tid, t in self.turns.items()},
            units=dict(self.units),
            sessions=list(self.sessions),
            _doc_freq=Counter(self._doc_freq) if self._doc_freq is not None else None,
        )
        other._next_turn = self._next_turn
        other._next_unit = self._next_unit
        return other
