"""DenseIndex behaviour, with the weightless hashing embedder (the MiniLM path is tested in
test_embeddings.py when its weights are installed)."""

from __future__ import annotations

import numpy as np
import pytest

from bemula.index.base import make_index
from bemula.index.dense import DenseIndex
from bemula.llm.embeddings import HashingEmbedder


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__(dim=128)
        self.calls: list[list[str]] = []

    def _embed_batch(self, texts):
        self.calls.append(list(texts))
        return super()._embed_batch(texts)


def build() -> DenseIndex:
    index = DenseIndex(HashingEmbedder(dim=256))
    index.add("cat", "my cat is called tom")
    index.add("city", "i live in lyon near the river")
    index.add("job", "i work as a baker in a small bakery")
    return index


def test_best_match_first_and_only_positive_scores() -> None:
    index = build()
    hits = index.search("what is my cat called", k=3)
    assert hits[0].id == "cat"
    assert all(hit.score > 0 for hit in hits)
    # shares the words "my", "cat", "called" (and "is" with no other doc): 3-4 of 5 query words
    assert hits[0].score == pytest.approx(
        float(np.dot(*HashingEmbedder(256).embed(["my cat is called tom", "what is my cat called"]))), rel=1e-5)
    assert index.search("zebra", k=3) == []  # no shared word: cosine 0, nothing returned
    assert index.search("   ") == []


def test_remove_swaps_rows_and_keeps_ids_right() -> None:
    index = build()
    index.remove("cat")
    index.remove("unknown")
    assert len(index) == 2
    assert [hit.id for hit in index.search("lyon river", k=5)] == ["city"]
    assert [hit.id for hit in index.search("baker bakery", k=5)] == ["job"]
    assert index.search("cat tom") == []


def test_add_replaces_text_of_same_id() -> None:
    index = build()
    index.add("cat", "my dog is called rex")
    assert len(index) == 3
    assert index.search("cat tom") == []
    assert index.search("dog rex")[0].id == "cat"


def test_copy_is_independent() -> None:
    index = build()
    clone = index.copy()
    clone.remove("city")
    clone.add("new", "lyon is where i was born")
    assert [h.id for h in index.search("lyon", k=5)] == ["city"]
    assert [h.id for h in clone.search("lyon", k=5)] == ["new"]


def test_growth_past_initial_capacity_and_k() -> None:
    index = DenseIndex(HashingEmbedder(dim=4096))  # wide: no bucket collisions among 151 words
    for i in range(150):
        index.add(f"d{i}", f"word{i} shared")
    assert len(index) == 150
    assert len(index.search("shared", k=7)) == 7
    assert index.search("word149", k=1)[0].id == "d149"


def test_batched_add_and_text_cache() -> None:
    embedder = CountingEmbedder()
    index = DenseIndex(embedder)
    index.add_many([("a", "alpha beta"), ("b", "gamma delta"), ("a", "alpha again")])
    assert embedder.calls == [["alpha again", "gamma delta"]]  # one batch, latest text per id
    DenseIndex(embedder).add("z", "gamma delta")  # already embedded once: no new call
    assert len(embedder.calls) == 1
    assert len(index) == 2 and index.search("again")[0].id == "a"


def test_make_index_dense_uses_env_embedder(monkeypatch) -> None:
    monkeypatch.setenv("BEMULA_EMBEDDER", "hashing")
    index = make_index("dense")
    assert isinstance(index, DenseIndex) and index.embedder.name == "hashing"
