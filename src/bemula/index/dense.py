"""A dense (embedding) text index behind the same ``TextIndex`` interface as BM25.

Optional: needs the ``dense`` extra (the MiniLM weights package and its runtime). BM25 stays
the default because it needs no weights and is what the paper's baselines use unless stated.

Why exact search over a numpy matrix: a memory holds thousands of turns at most; one matrix-
vector product over 384-dim rows is microseconds to a millisecond at that size, exact, and
removal is a row swap — no approximate index to rebuild after every forget request.
"""

from __future__ import annotations

import numpy as np

from bemula.index.base import SearchHit, TextIndex


class DenseIndex(TextIndex):
    """Cosine-similarity index over unit-norm embeddings; ids map to matrix rows."""

    kind = "dense"

    def __init__(self, embedder=None, *, min_score: float = 0.0) -> None:
        if embedder is None:
            from bemula.llm.embeddings import make_embedder

            embedder = make_embedder()
        self.embedder = embedder
        self.min_score = min_score
        self._ids: list[str] = []
        self._row_of: dict[str, int] = {}
        self._matrix = np.zeros((0, embedder.dim), dtype=np.float32)
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def _ensure_capacity(self, extra: int) -> None:
        needed = self._size + extra
        if needed > self._matrix.shape[0]:
            grown = np.zeros((max(needed, 2 * self._matrix.shape[0], 64), self.embedder.dim), dtype=np.float32)
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown

    def add(self, doc_id: str, text: str) -> None:
        self.add_many([(doc_id, text)])

    def add_many(self, items: list[tuple[str, str]]) -> None:
        """Add several (id, text) pairs with one batched embedding call."""
        if not items:
            return
        latest = dict(items)  # a repeated id keeps its last text, as with repeated add()
        vectors = self.embedder.embed(list(latest.values()))
        for doc_id in latest:
            self.remove(doc_id)
        self._ensure_capacity(len(latest))
        for doc_id, vector in zip(latest, vectors):
            row = self._size
            self._matrix[row] = vector
            self._ids.append(doc_id)
            self._row_of[doc_id] = row
            self._size += 1

    def remove(self, doc_id: str) -> None:
        row = self._row_of.pop(doc_id, None)
        if row is None:
            return
        last = self._size - 1
        if row != last:  # move the last row into the hole
            moved = self._ids[last]
            self._matrix[row] = self._matrix[last]
            self._ids[row] = moved
            self._row_of[moved] = row
        self._ids.pop()
        self._size -= 1

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        if self._size == 0 or k <= 0 or not query.strip():
            return []
        vector = self.embedder.embed([query])[0]
        scores = self._matrix[: self._size] @ vector
        k = min(k, self._size)
        top = np.argpartition(-scores, k - 1)[:k]
        # ties broken by id so results do not depend on row order (which removals shuffle)
        ranked = sorted(top, key=lambda r: (-float(scores[r]), self._ids[r]))
        return [
            SearchHit(id=self._ids[r], score=float(scores[r]))
            for r in ranked
            if scores[r] > self.min_score
        ]

    def copy(self) -> DenseIndex:
        clone = DenseIndex(self.embedder, min_score=self.min_score)
        clone._ids = list(self._ids)
        clone._row_of = dict(self._row_of)
        clone._matrix = self._matrix[: max(self._size, 1)].copy()
        clone._size = self._size
        return clone


__all__ = ["DenseIndex"]
