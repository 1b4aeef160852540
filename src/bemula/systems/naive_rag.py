"""``naive-rag``: every dialogue turn is a chunk in one text index; top-k retrieval.

As in the paper, it has **no deletion path**: a forget request is just one more chunk, and
the chunks it asks to remove stay indexed and retrievable. It is the baseline whose stored
values the residue audit must find.
"""

from __future__ import annotations

import copy
from datetime import datetime

from pydantic import Field

from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    TopKOptions,
    TurnEvent,
    register,
)

#: Stock retrieval budget (chunks per question); override with ``--option top_k=N``.
DEFAULT_TOP_K = 10

STORE = "chunks"


def chunk_text(turn: TurnEvent) -> str:
    """The text a chunk stores: who said it and what was said."""
    return f"{turn.role}: {turn.text}"


@register
class NaiveRAG(MemorySystem):
    name = "naive-rag"
    description = "every turn is a chunk in one text index; top-k retrieval; no deletion path"
    supports_fork = True

    class Options(TopKOptions):
        top_k: int = Field(default=DEFAULT_TOP_K, ge=1, description="how many chunks retrieve() returns")

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.top_k = int(context.options.get("top_k", DEFAULT_TOP_K))
        if self.top_k < 1:
            raise ValueError(f"naive-rag: top_k must be >= 1, got {self.top_k}")
        self.reset()

    def reset(self) -> None:
        self._index = self.context.make_index()
        self._chunks: dict[str, tuple[str, datetime]] = {}

    def ingest(self, turn: TurnEvent) -> None:
        chunk_id = f"c{len(self._chunks):06d}"
        text = chunk_text(turn)
        self._chunks[chunk_id] = (text, turn.timestamp)
        self._index.add(chunk_id, text)

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        items = []
        for hit in self._index.search(question, k=self.top_k):
            text, when = self._chunks[hit.id]
            items.append(RetrievedItem(text=text, score=hit.score, store=STORE, id=hit.id, timestamp=when))
        return items

    def dump(self) -> list[StoreRecord]:
        return [StoreRecord(store=STORE, id=cid, text=text) for cid, (text, _) in self._chunks.items()]

    def fork(self) -> NaiveRAG:
        other = copy.copy(self)
        other._index = self._index.copy()
        other._chunks = dict(self._chunks)
        return other

    def stats(self) -> dict[str, int]:
        return {"chunks": len(self._chunks)}
