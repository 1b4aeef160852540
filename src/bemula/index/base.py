"""The text-index interface every memory system searches through."""

from __future__ import annotations

import abc
from dataclasses import dataclass


@dataclass(frozen=True)
class SearchHit:
    id: str
    score: float


class TextIndex(abc.ABC):
    """An incremental index of short texts keyed by id: add, remove, search."""

    kind: str = ""

    @abc.abstractmethod
    def add(self, doc_id: str, text: str) -> None:
        """Index ``text`` under ``doc_id`` (replacing any earlier text with that id)."""

    def add_tokens(self, doc_id: str, text: str, tokens: list[str]) -> None:
        """Index ``text`` under the caller's own lexical ``tokens``: a lexical index uses
        them instead of tokenising (a system may bring its own tokenizer); others use the text."""
        self.add(doc_id, text)

    def search_tokens(self, query: str, tokens: list[str], k: int = 5) -> list[SearchHit]:
        """``search`` with the caller's own tokens for ``query`` (pairs with ``add_tokens``):
        a lexical index matches the tokens; others search the text."""
        return self.search(query, k)

    @abc.abstractmethod
    def remove(self, doc_id: str) -> None:
        """Drop ``doc_id``; unknown ids are ignored."""

    @abc.abstractmethod
    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Best ``k`` hits, highest score first; only hits with a positive score."""

    @abc.abstractmethod
    def __len__(self) -> int: ...

    @abc.abstractmethod
    def copy(self) -> TextIndex:
        """An independent copy (for systems that fork)."""


def make_index(kind: str = "bm25") -> TextIndex:
    if kind == "bm25":
        from bemula.index.lexical import BM25Index

        return BM25Index()
    if kind == "dense":
        from bemula.index.dense import DenseIndex  # optional extra

        return DenseIndex()
    raise ValueError(f"unknown index kind {kind!r}; use 'bm25' or 'dense'")
