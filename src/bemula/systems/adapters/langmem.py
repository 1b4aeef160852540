"""``langmem``: LangMem's memory store manager behind the protocol.

Each exchange (a user turn and the assistant's reply) is one batch for
``create_memory_store_manager``: LangMem searches its store for the ``query_limit`` (stock: 5)
memories nearest the batch, shows them to the LLM, and the LLM answers with **tool calls** —
``Memory`` (insert), ``PatchDoc`` (JSON-patch an existing memory) and, with the removal
channel enabled as in the paper, ``RemoveDoc``. So LangMem can only remove a memory that the
search put in front of the LLM for the current batch (with the stock limit, its search query
is just the batch's last message).

The store is LangGraph's in-process ``InMemoryStore`` with an embedding index fed by the
run's shared embedding endpoint; the LLM is LangChain's ``ChatOpenAI`` on the backbone's
endpoint, which **must support function calling** (OpenAI, vLLM with a tool parser, llama.cpp
``--jinja``); an endpoint that answers without tool calls stores nothing, and ``stats()``
counts those answers as ``responses_without_tool_calls``.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, ClassVar

from pydantic import Field

from bemula.systems.adapters.common import (
    EmbeddingClient,
    EmbeddingTopKOptions,
    ExchangeBuffer,
    UsageCounter,
    chat_endpoint,
    embedding_endpoint,
    package_version,
)
from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    SystemOptions,
    TurnEvent,
    register,
    register_unavailable,
)

DISTRIBUTION = "langmem"
INSTALL_HINT = "pip install 'bemula[langmem]'  (langmem==0.0.30)"
DESCRIPTION = "LangMem: store manager, tool calls insert/patch/remove (deletes on)"
NEEDS = "LLM backbone with tool calls + embeddings"
#: LangMem's stock number of memories searched per batch
QUERY_LIMIT = 5
USER_ID = "user"
MEMORY_STORE = "langmem.memories"
PENDING_STORE = "langmem.pending_turns"


class LangMemOptions(EmbeddingTopKOptions):
    query_limit: int = Field(default=QUERY_LIMIT, ge=1, description="memories shown to the manager per batch")


class LangMemSystem(MemorySystem):
    """LangMem's ``MemoryStoreManager`` with deletes enabled, fed one exchange per batch.

    Options: ``top_k`` (memories per question; default LangMem's ``search`` default, 10),
    ``query_limit`` (memories shown per batch; stock 5), ``embedding_*`` (see ``common``).
    """

    name: ClassVar[str] = "langmem"
    description: ClassVar[str] = DESCRIPTION
    supports_fork: ClassVar[bool] = True
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = LangMemOptions

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.chat = chat_endpoint(context, self.name)
        self.embedder = EmbeddingClient(embedding_endpoint(context, self.name))
        top_k = context.options.get("top_k")
        self.top_k: int | None = int(top_k) if top_k is not None else None
        self.query_limit = int(context.options.get("query_limit", QUERY_LIMIT))
        self.usage = UsageCounter()
        self.batches = 0
        self.responses_without_tool_calls = 0
        self.config = {"configurable": {"langgraph_user_id": USER_ID}}
        self._buffer = ExchangeBuffer()
        self._model = self._chat_model()
        self.store = self._new_store()
        self.manager = self._new_manager()

    def _chat_model(self) -> Any:
        import openai
        from langchain_openai import ChatOpenAI

        usage = self.usage
        system = self

        def on_response(response: Any) -> None:
            if not response.request.url.path.endswith("/chat/completions") or response.status_code != 200:
                return
            response.read()
            try:
                body = response.json()
            except ValueError:
                body = {}
            block = body.get("usage") or {}
            usage.add(block.get("prompt_tokens"), block.get("completion_tokens"))
            choices = body.get("choices") or [{}]
            if not (choices[0].get("message") or {}).get("tool_calls"):
                system.responses_without_tool_calls += 1

        return ChatOpenAI(
            model=self.chat.model,
            base_url=self.chat.base_url,
            api_key=self.chat.api_key,
            temperature=0,
            max_retries=2,
            http_client=openai.DefaultHttpxClient(event_hooks={"response": [on_response]}),
        )

    def _new_store(self) -> Any:
        from langgraph.store.memory import InMemoryStore

        return InMemoryStore(
            index={"dims": self.embedder.dims, "embed": self.embedder.embed}
        )

    def _new_manager(self) -> Any:
        from langmem import create_memory_store_manager

        return create_memory_store_manager(
            self._model,
            enable_inserts=True,
            enable_deletes=True,
            query_limit=self.query_limit,
            namespace=("memories", "{langgraph_user_id}"),
            store=self.store,
        )

    # -- protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        self._buffer = ExchangeBuffer()
        self.store = self._new_store()
        self.manager = self._new_manager()

    def ingest(self, turn: TurnEvent) -> None:
        exchange = self._buffer.push(turn)
        if exchange:
            self._process(exchange)

    def end_session(self, session_id: str) -> None:
        exchange = self._buffer.flush()
        if exchange:
            self._process(exchange)

    def _process(self, turns: list[TurnEvent]) -> None:
        messages = [{"role": t.role, "content": t.text} for t in turns]
        self.manager.invoke({"messages": messages}, config=self.config)
        self.batches += 1

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        kwargs: dict[str, Any] = {"query": question, "config": self.config}
        if self.top_k is not None:
            kwargs["limit"] = self.top_k
        return [
            RetrievedItem(
                text=_memory_text(item.value),
                score=float(item.score or 0.0),
                store=MEMORY_STORE,
                id=str(item.key),
                timestamp=item.updated_at,
            )
            for item in self.manager.search(**kwargs)
        ]

    def dump(self) -> list[StoreRecord]:
        records = []
        for namespace in self.store.list_namespaces():
            offset = 0
            while True:
                items = self.store.search(namespace, limit=500, offset=offset)
                records += [StoreRecord(store=MEMORY_STORE, id=str(i.key), text=_memory_text(i.value)) for i in items]
                if len(items) < 500:
                    break
                offset += 500
        return records + self._buffer.records(PENDING_STORE)

    def fork(self) -> LangMemSystem:
        """A second manager over a copy of the in-process store (same endpoint and embedder)."""
        other = copy.copy(self)
        other.usage = self.usage.copy()
        other._buffer = ExchangeBuffer()
        other._buffer.turns = list(self._buffer.turns)
        other._model = other._chat_model()
        other.store = other._new_store()
        other.store._data = copy.deepcopy(self.store._data)
        other.store._vectors = copy.deepcopy(self.store._vectors)
        other.manager = other._new_manager()
        return other

    def close(self) -> None:
        self.embedder.close()

    def stats(self) -> dict[str, Any]:
        return {
            **self.usage.snapshot(),
            "embedding_calls": self.embedder.calls,
            "batches": self.batches,
            "responses_without_tool_calls": self.responses_without_tool_calls,
            "memories": len(self.dump()),
            "langmem_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


def _memory_text(value: Any) -> str:
    """The text of a memory: the store keeps ``{"kind": "Memory", "content": {"content": …}}``,
    ``manager.search`` returns the ``Memory`` model itself."""
    if hasattr(value, "content") and not isinstance(value, dict):
        return str(value.content)
    content = value.get("content", value) if isinstance(value, dict) else value
    if isinstance(content, dict):
        return str(content.get("content", content))
    return str(content)


if package_version(DISTRIBUTION):
    register(LangMemSystem)
else:
    register_unavailable("langmem", DESCRIPTION, INSTALL_HINT, needs=NEEDS)
