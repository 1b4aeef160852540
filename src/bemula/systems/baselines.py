"""Two degenerate baselines that bound what "forgetting" can mean (issue 16).

* ``null`` stores nothing and answers nothing: every efficacy and attack question passes,
  every retention, preservation and relearning question fails.
* ``forget-all`` keeps every turn like ``naive-rag`` and, at any turn it reads as a forget
  request, drops its whole memory (the request included), then goes on storing.

A selective forgetting system has to beat both on Score: matching ``null`` on efficacy is
free, and matching ``forget-all`` means deleting far more than was asked.
"""

from __future__ import annotations

import copy
from datetime import datetime

from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    TopKOptions,
    TurnEvent,
    register,
)
from bemula.systems.erasemem.intent import parse_forget_request
from bemula.systems.naive_rag import DEFAULT_TOP_K, chunk_text

STORE = "chunks"


@register
class NullMemory(MemorySystem):
    name = "null"
    description = "baseline: stores nothing, retrieves nothing"
    supports_fork = True

    def reset(self) -> None:
        return None

    def ingest(self, turn: TurnEvent) -> None:
        return None

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        return []

    def dump(self) -> list[StoreRecord]:
        return []

    def fork(self) -> NullMemory:
        return copy.copy(self)


@register
class ForgetAll(MemorySystem):
    name = "forget-all"
    description = "baseline: every turn a chunk; any forget request it detects drops the whole memory"
    supports_fork = True
    Options = TopKOptions

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.top_k = int(context.options.get("top_k", DEFAULT_TOP_K))
        if self.top_k < 1:
            raise ValueError(f"forget-all: top_k must be >= 1, got {self.top_k}")
        self.reset()

    def reset(self) -> None:
        self._index = self.context.make_index()
        self._chunks: dict[str, tuple[str, datetime]] = {}
        self._next = 0
        self.wipes = 0

    def ingest(self, turn: TurnEvent) -> None:
        if turn.role == "user" and parse_forget_request(turn.text) is not None:
            self._index = self.context.make_index()
            self._chunks = {}
            self.wipes += 1
            return
        chunk_id = f"c{self._next:06d}"
        self._next += 1
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

    def fork(self) -> ForgetAll:
        other = copy.copy(self)
        other._index = self._index.copy()
        other._chunks = dict(self._chunks)
        return other

    def stats(self) -> dict[str, int]:
        return {"chunks": len(self._chunks), "wipes": self.wipes}
