"""Content-free tombstones: salted hashes of the normalised tokens of what was forgotten.

Why tombstones at all: after deletion, a question about the forgotten item would otherwise
fall through to the next-best memory (a same-category neighbour, a source of an inferred
conclusion) and the backbone would answer with that. A tombstone lets retrieval *recognise*
a question about something forgotten — "this question is more about a deleted thing than
about anything still stored" — and return nothing, without keeping the deleted text.

Each token is hashed with a per-memory random salt (BLAKE2b, 8 bytes), so a tombstone
cannot be reversed by hashing a dictionary of likely values without the salt, and the
stored strings contain no word of the original. Hashes are written as ``t<16 letters>x``:
the hex digest with its digits spelled as the letters g–p, so the BM25 tokenizer keeps each
one as a single term that its stemmer leaves alone, and no digit run appears in a stored
string. With plain hex a random "…c3e500a…" holds "500", which a reader that splits letters
from digits (the residue audit, a person grepping a dump) would take for a forgotten "£500".
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from bemula.systems.erasemem.tokens import tokenize

_DIGITS_AS_LETTERS = str.maketrans("0123456789", "ghijklmnop")


@dataclass(frozen=True)
class Tombstone:
    """One forgotten thing: hashed tokens, what kind of thing it was, when it was forgotten."""

    id: str
    kind: str  # "unit" (a deleted memory unit), "value" (F6 old value), "conclusion" (F4)
    hashes: tuple[str, ...]
    request_no: int
    when: datetime | None = None  # the request's time: newer statements outrank it
    #: hashes that count half when a question matches them: the head noun of a request's
    #: phrase ("number" in "the savings account number") names the kind of fact, which kept
    #: siblings share ("the current account number")
    discounted: frozenset[str] = frozenset()
    #: hashes of the people other than the user whose things it held ("Jonas's number")
    owners: frozenset[str] = frozenset()
    #: when the user said what it stands for: a kept statement said later is newer (an update)
    said: datetime | None = None


@dataclass
class TombstoneSet:
    """The tombstones of one memory, with the salt that makes their hashes unlinkable."""

    salt: bytes = field(default_factory=lambda: os.urandom(16))
    items: dict[str, Tombstone] = field(default_factory=dict)
    doc_freq: Counter[str] = field(default_factory=Counter)  # hashed token -> tombstones

    def hash_token(self, token: str) -> str:
        digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8, key=self.salt).hexdigest()
        return f"t{digest.translate(_DIGITS_AS_LETTERS)}x"

    def hash_tokens(self, tokens: list[str] | set[str] | tuple[str, ...]) -> tuple[str, ...]:
        return tuple(self.hash_token(t) for t in tokens)

    def hash_text(self, text: str) -> tuple[str, ...]:
        return self.hash_tokens(tokenize(text))

    def add(
        self, kind: str, tokens: list[str] | tuple[str, ...], request_no: int, when: datetime | None = None,
        *, head: str | None = None, owners: tuple[str, ...] | frozenset[str] = (), said: datetime | None = None,
    ) -> Tombstone | None:
        if not tokens:
            return None
        discounted = frozenset({self.hash_token(head)}) if head else frozenset()
        stone = Tombstone(f"g{len(self.items):06d}", kind, self.hash_tokens(tokens), request_no, when, discounted,
                          frozenset(self.hash_tokens(tuple(owners))), said)
        self.items[stone.id] = stone
        self.doc_freq.update(set(stone.hashes))
        return stone

    def of_kind(self, kind: str) -> list[Tombstone]:
        return [t for t in self.items.values() if t.kind == kind]

    def copy(self) -> TombstoneSet:
        return TombstoneSet(self.salt, dict(self.items), Counter(self.doc_freq))
