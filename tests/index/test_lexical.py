"""BM25 index: tokenisation, ranking, incremental add/remove, copies are independent."""

from __future__ import annotations

import math

import pytest

from bemula.index import BM25Index, make_index, tokenize


def test_tokenize_drops_stopwords_and_stems_plurals() -> None:
    assert tokenize("My cats are allergic to the peanuts!") == ["cat", "allergic", "peanut"]
    assert tokenize("I'm going to Lyon") == ["going", "lyon"]  # -ing needs 6+ letters
    assert tokenize("Anna's son") == ["anna", "son"]  # possessive dropped
    assert tokenize("I've been cooking") == ["cook"]
    assert tokenize("glass") == ["glass"]  # double s is not a plural


def test_bm25_scores_match_hand_computation() -> None:
    index = BM25Index(k1=1.2, b=0.75)
    index.add("a", "penicillin allergy")  # tokens: penicillin, allergy (len 2)
    index.add("b", "coffee coffee tea")  # tokens: coffee x2, tea (len 3)
    # query "penicillin": df=1, n=2 -> idf = ln(1 + (2-1+0.5)/(1+0.5)) = ln 2
    # doc a: tf=1, len=2, avg=2.5 -> norm = 1 + 1.2*(0.25 + 0.75*2/2.5) = 2.02
    hits = index.search("penicillin")
    assert [h.id for h in hits] == ["a"]
    assert hits[0].score == pytest.approx(math.log(2) * 2.2 / 2.02)


def test_remove_and_replace_update_statistics() -> None:
    index = make_index("bm25")
    index.add("a", "blood type O negative")
    index.add("b", "blood pressure fine")
    assert {h.id for h in index.search("blood")} == {"a", "b"}
    index.remove("a")
    assert [h.id for h in index.search("blood")] == ["b"]
    assert index.search("negative") == []
    index.add("b", "lives in Lyon")  # replacing b drops its old tokens
    assert index.search("blood") == []
    assert len(index) == 1
    index.remove("missing")  # unknown ids are ignored


def test_copy_is_independent() -> None:
    index = BM25Index()
    index.add("a", "tea in the morning")
    clone = index.copy()
    clone.remove("a")
    assert [h.id for h in index.search("tea")] == ["a"]
    assert clone.search("tea") == []


def test_unknown_index_kind_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown index kind"):
        make_index("nope")


def test_add_tokens_is_add_without_tokenising_again() -> None:
    """A caller that already tokenised a text (erasemem's units) gets the same index."""
    from bemula.index import tokenize
    from bemula.index.lexical import BM25Index

    texts = {"a": "I moved to Lyon in March.", "b": "My sister lives in Lyon.", "c": "Tea every morning."}
    plain, pre = BM25Index(), BM25Index()
    for doc_id, text in texts.items():
        plain.add(doc_id, text)
        pre.add_tokens(doc_id, text, tokenize(text))
    pre.add_tokens("a", texts["a"], tokenize(texts["a"]))  # replacing keeps the counts right
    assert len(pre) == len(plain) == 3
    assert pre.search("Lyon sister", k=3) == plain.search("Lyon sister", k=3)
