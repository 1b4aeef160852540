"""``full-context``: the raw dialogue history is the memory.

With an LLM backbone, ``retrieve`` returns the whole history in chronological order,
truncated from the **oldest** side so it fits the backbone's context window (minus
``bemula.agent.RESERVED_TOKENS`` for prompt, question and answer) — the paper's Full Context
baseline, which can only forget by the backbone honouring the request it reads.

With the retrieval probe there is no window and no LLM to read the history, so retrieval
runs over **every** turn: each turn that shares a content word with the question is
returned, best BM25 match first, with no top-k budget. (A turn sharing no content word has
zero probe relevance, so leaving it out changes no probe answer.)
"""

from __future__ import annotations

import copy
from datetime import datetime

from bemula.agent import RESERVED_TOKENS, item_tokens
from bemula.index import BM25Index
from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    TurnEvent,
    register,
)

STORE = "history"


@register
class FullContext(MemorySystem):
    name = "full-context"
    description = "the raw history in the prompt (truncated to the backbone's window); no store edits"
    supports_fork = True

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.window = context.context_window_tokens
        self.reset()

    @property
    def budget_tokens(self) -> int | None:
        """Tokens of history that fit the window, or ``None`` when there is no window."""
        if self.window is None:
            return None
        return max(0, self.window - RESERVED_TOKENS)

    def reset(self) -> None:
        self._history: list[RetrievedItem] = []
        # only the probe path searches; an LLM reads the history itself
        self._index: BM25Index | None = BM25Index() if self.window is None else None

    def ingest(self, turn: TurnEvent) -> None:
        item = RetrievedItem(
            text=f"{turn.role}: {turn.text}",
            store=STORE,
            id=f"t{len(self._history):06d}",
            timestamp=turn.timestamp,
        )
        if self._index is not None:
            self._index.add(str(len(self._history)), item.text)
        self._history.append(item)

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        budget = self.budget_tokens
        if budget is None:
            assert self._index is not None
            hits = self._index.search(question, k=len(self._history))
            return [_with_score(self._history[int(h.id)], h.score) for h in hits]
        kept: list[RetrievedItem] = []
        used = 0
        for item in reversed(self._history):
            cost = item_tokens(item)
            if used + cost > budget:
                break
            kept.append(item)
            used += cost
        kept.reverse()
        return kept

    def dump(self) -> list[StoreRecord]:
        return [StoreRecord(store=STORE, id=item.id, text=item.text) for item in self._history]

    def fork(self) -> FullContext:
        other = copy.copy(self)
        other._history = list(self._history)
        other._index = self._index.copy() if self._index is not None else None
        return other

    def stats(self) -> dict[str, int]:
        return {"turns": len(self._history)}


def _with_score(item: RetrievedItem, score: float) -> RetrievedItem:
    return RetrievedItem(item.text, score, item.store, item.id, item.timestamp)
