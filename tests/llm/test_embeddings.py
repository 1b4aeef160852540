"""Embedders: the endpoint one against the fake server; MiniLM when its weights are installed."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from bemula.llm.embeddings import (
    EmbedderUnavailable,
    EndpointEmbedder,
    HashingEmbedder,
    _erf,
    hashed_embedding,
    make_embedder,
)
from bemula.testing.fake_server import FakeOpenAIServer

SENTENCES = [
    "My cat is called Tom.",
    "What is my cat's name?",
    "I moved to Lyon last spring and started a new job at the bakery.",
    "Ünïcödé text — with dashes and CAPITALS",
]


def test_endpoint_embedder_matches_fake_server_vectors() -> None:
    with FakeOpenAIServer(embedding_dim=48) as server:
        embedder = EndpointEmbedder("e", server.base_url)
        vectors = embedder.embed(["red apple", "green pear"])
        again = embedder.embed(["red apple"])
        embeddings_calls = [p for p, _ in server.requests if p.endswith("/embeddings")]
    assert embedder.dim == 48 and vectors.shape == (2, 48)
    np.testing.assert_allclose(vectors[0], hashed_embedding("red apple", 48), rtol=1e-6)
    np.testing.assert_array_equal(again[0], vectors[0])
    assert len(embeddings_calls) == 2  # the dimension probe + one batch; the repeat was cached


def test_empty_input_and_unknown_kind() -> None:
    assert HashingEmbedder(16).embed([]).shape == (0, 16)
    with pytest.raises(EmbedderUnavailable, match="unknown embedder"):
        make_embedder("word2vec")


def test_erf_approximation() -> None:
    import math

    xs = np.linspace(-4, 4, 81)
    assert max(abs(_erf(xs) - np.array([math.erf(x) for x in xs]))) < 2e-7


@functools.lru_cache(maxsize=1)
def _load_numpy_minilm():
    from bemula.llm.embeddings import NumpyMiniLMEmbedder

    return NumpyMiniLMEmbedder()


def _numpy_minilm():
    pytest.importorskip("tokenizers", reason="dense extra not installed")
    try:
        return _load_numpy_minilm()
    except EmbedderUnavailable as exc:
        pytest.skip(str(exc))


def test_numpy_minilm_ranks_paraphrase_first() -> None:
    embedder = _numpy_minilm()
    vectors = embedder.embed(SENTENCES)
    assert vectors.shape == (4, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    similarity = vectors @ vectors.T
    assert similarity[0, 1] > similarity[0, 2] and similarity[0, 1] > 0.5


@pytest.mark.slow  # importing torch alone takes seconds to minutes on a busy 2-core machine
def test_numpy_minilm_matches_sentence_transformers() -> None:
    embedder = _numpy_minilm()
    pytest.importorskip("sentence_transformers", reason="sentence-transformers not installed")
    from bemula.llm.embeddings import SentenceTransformerEmbedder

    reference = SentenceTransformerEmbedder().embed(SENTENCES)
    ours = embedder.embed(SENTENCES)
    assert np.min(np.sum(reference * ours, axis=1)) > 0.9999
