"""Text indexes shared by memory systems: one interface, lexical by default.

``make_index("bm25")`` needs no weights and is the offline default. Dense indexes (a local
embedding model shipped in a registry package) live behind the same interface in
``bemula.index.dense`` as an optional extra. SPEC §2: one embedding model for all systems —
a run picks the index kind once and every system gets the same one.
"""

from __future__ import annotations

from bemula.index.base import SearchHit, TextIndex, make_index
from bemula.index.lexical import BM25Index, tokenize

__all__ = ["BM25Index", "SearchHit", "TextIndex", "make_index", "tokenize"]
