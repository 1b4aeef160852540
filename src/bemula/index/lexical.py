"""An incremental BM25 index in pure Python.

Why not ``bm25s``: memory systems add and delete one turn at a time and search between
additions; a batch-built sparse matrix would be rebuilt after every turn. An inverted index
with running document frequencies makes add/remove O(len(text)) and search
O(postings of the query terms), which is what live ingestion needs.
"""

from __future__ import annotations

import math
from collections import Counter

from bemula.index.base import SearchHit, TextIndex
from bemula.text import retrieval_tokens as tokenize

#: ``tokenize`` is the benchmark's retrieval tokeniser (``bemula.text.retrieval_tokens``),
#: under the name the index package has always exported
__all__ = ["BM25Index", "tokenize"]


class BM25Index(TextIndex):
    kind = "bm25"

    def __init__(self, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1 = k1
        self.b = b
        self._docs: dict[str, Counter[str]] = {}
        self._lengths: dict[str, int] = {}
        self._postings: dict[str, set[str]] = {}
        self._total_length = 0

    def __len__(self) -> int:
        return len(self._docs)

    def add(self, doc_id: str, text: str) -> None:
        self.add_tokens(doc_id, text, tokenize(text))

    def add_tokens(self, doc_id: str, text: str, tokens: list[str]) -> None:
        if doc_id in self._docs:
            self.remove(doc_id)
        counts = Counter(tokens)
        self._docs[doc_id] = counts
        length = sum(counts.values())
        self._lengths[doc_id] = length
        self._total_length += length
        for term in counts:
            self._postings.setdefault(term, set()).add(doc_id)

    def remove(self, doc_id: str) -> None:
        counts = self._docs.pop(doc_id, None)
        if counts is None:
            return
        self._total_length -= self._lengths.pop(doc_id)
        for term in counts:
            posting = self._postings.get(term)
            if posting is not None:
                posting.discard(doc_id)
                if not posting:
                    del self._postings[term]

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        return self.search_tokens(query, tokenize(query), k)

    def search_tokens(self, query: str, tokens: list[str], k: int = 5) -> list[SearchHit]:
        n = len(self._docs)
        if n == 0 or k <= 0:
            return []
        avg_len = self._total_length / n or 1.0
        scores: dict[str, float] = {}
        for term in set(tokens):
            posting = self._postings.get(term)
            if not posting:
                continue
            df = len(posting)
            idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            for doc_id in posting:
                tf = self._docs[doc_id][term]
                norm = tf + self.k1 * (1.0 - self.b + self.b * self._lengths[doc_id] / avg_len)
                scores[doc_id] = scores.get(doc_id, 0.0) + idf * tf * (self.k1 + 1.0) / norm
        best = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        return [SearchHit(doc_id, score) for doc_id, score in best if score > 0]

    def copy(self) -> BM25Index:
        other = BM25Index(self.k1, self.b)
        other._docs = {d: Counter(c) for d, c in self._docs.items()}
        other._lengths = dict(self._lengths)
        other._postings = {t: set(p) for t, p in self._postings.items()}
        other._total_length = self._total_length
        return other
