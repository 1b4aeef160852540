"""``mem0``: the real ``mem0ai`` 1.0.x package (the paper's Mem0) behind the protocol.

mem0 1.x decides in dialogue: each ``Memory.add`` makes two LLM calls — fact extraction
over the new exchange, then an update prompt that sees the new facts next to the five most
similar stored memories per fact and answers ADD / UPDATE / DELETE / NONE for each. So a
forget request *can* delete a memory, but only if the update prompt chooses DELETE for it.
(2.x only ever adds; it is the same distribution, so it cannot sit beside 1.x in one
environment: ``mem0-current``, ``bemula.systems.adapters.mem0_current``, runs it in its own.)

Per instance, everything lives under ``<workdir>/mem0/``: Qdrant in local path mode
(``qdrant/``) and mem0's SQLite history (``history.db``). The history table keeps the old
text of every UPDATE and DELETE — the residue ``dump()`` hands to the audit along with the
vector payloads and any turns not yet handed to mem0. Telemetry is forced off before mem0 is
imported (its PostHog client starts at import time otherwise).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from bemula.systems.adapters.common import (
    EmbeddingEndpoint,
    EmbeddingTopKOptions,
    Endpoint,
    ExchangeBuffer,
    UsageCounter,
    chat_endpoint,
    embedding_endpoint,
    fork_workdir,
    fresh_dir,
    package_version,
    sqlite_records,
)
from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    SystemOptions,
    SystemUnavailable,
    TurnEvent,
    register,
    register_unavailable,
)

DISTRIBUTION = "mem0ai"
PINNED_VERSION = "1.0.11"
SUPPORTED_SERIES = "1.0."
INSTALL_HINT = "pip install 'bemula[mem0]'  (mem0ai==1.0.11)"
DESCRIPTION = "Mem0 (mem0ai 1.0.x): LLM facts, ADD/UPDATE/DELETE decisions; Qdrant + SQLite history"
NEEDS = "LLM backbone + embeddings"

#: mem0 scopes memories by user; an instance has exactly one user.
USER_ID = "user"
COLLECTION = "mem0"
VECTOR_STORE = "mem0.vectors"
PENDING_STORE = "mem0.pending_turns"


def _import_memory_class() -> Any:
    """mem0's ``Memory``, imported with telemetry off and its home folder out of ``~``."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ.setdefault("MEM0_DIR", str(Path(tempfile.gettempdir()) / "bemula-mem0-home"))
    from mem0 import Memory
    from mem0.memory import main as mem0_main
    from mem0.memory import telemetry as mem0_telemetry

    # mem0 was perhaps imported before us with telemetry on: switch its module flags off too
    mem0_telemetry.MEM0_TELEMETRY = False
    mem0_main.MEM0_TELEMETRY = False
    return Memory


class Mem0System(MemorySystem):
    """mem0 1.0.x fed one exchange (user turn + assistant reply) per ``Memory.add``.

    Options: ``top_k`` (memories per question; default: mem0's own ``search`` default, 100),
    ``embedding_base_url`` / ``embedding_model`` / ``embedding_dims`` (see ``common``).
    """

    name: ClassVar[str] = "mem0"
    description: ClassVar[str] = DESCRIPTION
    supports_fork: ClassVar[bool] = True
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = EmbeddingTopKOptions

    def __init__(self, context: SystemContext, *, _keep_store: bool = False) -> None:
        super().__init__(context)
        self.chat: Endpoint = chat_endpoint(context, self.name)
        self.embedder: EmbeddingEndpoint = embedding_endpoint(context, self.name)
        top_k = context.options.get("top_k")
        self.top_k: int | None = int(top_k) if top_k is not None else None
        if self.top_k is not None and self.top_k < 1:
            raise ValueError(f"mem0: top_k must be >= 1, got {self.top_k}")
        self.usage = UsageCounter()
        self.events: dict[str, int] = {"ADD": 0, "UPDATE": 0, "DELETE": 0, "NONE": 0}
        self.add_calls = 0
        self._buffer = ExchangeBuffer()
        self._memory: Any = None
        if not _keep_store:
            fresh_dir(self.store_dir)
        self._open()

    # -- paths and configuration ---------------------------------------------------------
    @property
    def store_dir(self) -> Path:
        return Path(self.context.workdir) / "mem0"

    @property
    def history_path(self) -> Path:
        return self.store_dir / "history.db"

    def mem0_config(self) -> dict[str, Any]:
        """mem0's own config dict: our endpoint for LLM and embedder, stores in ``store_dir``."""
        return {
            "version": "v1.1",
            "llm": {
                "provider": "openai",
                "config": {
                    "model": self.chat.model,
                    "api_key": self.chat.api_key,
                    "openai_base_url": self.chat.base_url,
                    "response_callback": self._on_llm_response,
                },
            },
            "embedder": {
                "provider": "openai",
                "config": {
                    "model": self.embedder.model,
                    "api_key": self.embedder.api_key,
                    "openai_base_url": self.embedder.base_url,
                    "embedding_dims": self.embedder.dims,
                },
            },
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": COLLECTION,
                    "embedding_model_dims": self.embedder.dims,
                    "path": str(self.store_dir / "qdrant"),
                    "on_disk": True,
                },
            },
            "history_db_path": str(self.history_path),
        }

    def _on_llm_response(self, _llm: Any, response: Any, _params: dict[str, Any]) -> None:
        self.usage.add_openai_response(response)

    def _open(self) -> None:
        memory_class = _import_memory_class()
        try:
            self._memory = memory_class.from_config(self.mem0_config())
        except Exception as exc:  # mem0 raises bare exceptions of many kinds on bad config
            raise SystemUnavailable(f"mem0 could not start on {self.store_dir}: {type(exc).__name__}: {exc}") from exc

    def _close_memory(self) -> None:
        if self._memory is None:
            return
        self._memory.close()  # the SQLite history connection
        client = getattr(self._memory.vector_store, "client", None)
        if client is not None:
            client.close()  # releases the Qdrant folder lock
        self._memory = None

    # -- protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        self._close_memory()
        fresh_dir(self.store_dir)
        self._buffer = ExchangeBuffer()
        self._open()

    def ingest(self, turn: TurnEvent) -> None:
        exchange = self._buffer.push(turn)
        if exchange:
            self._add(exchange)

    def end_session(self, session_id: str) -> None:
        exchange = self._buffer.flush()
        if exchange:
            self._add(exchange)

    def _add(self, turns: list[TurnEvent]) -> None:
        messages = [{"role": t.role, "content": t.text} for t in turns]
        metadata = {"session_id": turns[0].session_id, "timestamp": turns[0].timestamp.isoformat()}
        result = self._memory.add(messages, user_id=USER_ID, metadata=metadata)
        self.add_calls += 1
        for item in result.get("results", []):
            event = str(item.get("event", ""))
            self.events[event] = self.events.get(event, 0) + 1

    def _search_kwargs(self) -> dict[str, Any]:
        """``Memory.search``'s scope and count arguments, as 1.0.x names them."""
        kwargs: dict[str, Any] = {"user_id": USER_ID}
        if self.top_k is not None:
            kwargs["limit"] = self.top_k
        return kwargs

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        found = self._memory.search(question, **self._search_kwargs())
        items = []
        for hit in found.get("results", []):
            when = (hit.get("metadata") or {}).get("timestamp")
            items.append(
                RetrievedItem(
                    text=str(hit.get("memory", "")),
                    score=float(hit.get("score") or 0.0),
                    store=VECTOR_STORE,
                    id=str(hit.get("id", "")),
                    timestamp=datetime.fromisoformat(when) if when else None,
                )
            )
        return items

    def dump(self) -> list[StoreRecord]:
        """The vector payloads, every row of the SQLite history, and turns not yet added."""
        return self._vector_records() + sqlite_records(self.history_path, "mem0.history_db") + self._buffer.records(
            PENDING_STORE
        )

    def _vector_records(self) -> list[StoreRecord]:
        return self._collection_records(self._memory.vector_store.collection_name, VECTOR_STORE)

    def _collection_records(self, collection: str, store_name: str) -> list[StoreRecord]:
        """Every point's payload text in one Qdrant collection of the store."""
        client = self._memory.vector_store.client
        records: list[StoreRecord] = []
        offset = None
        while True:
            points, offset = client.scroll(
                collection_name=collection,
                limit=256,
                offset=offset,
                with_payload=True,
                with_vectors=False,
            )
            for point in points:
                payload = point.payload or {}
                text = str(payload.get("data", "")) or " | ".join(f"{k}={v}" for k, v in payload.items())
                records.append(StoreRecord(store=store_name, id=str(point.id), text=text))
            if offset is None:
                return records

    def fork(self) -> Mem0System:
        """A copy of the stores in a new folder, opened by a second mem0 ``Memory``."""
        workdir = fork_workdir(Path(self.context.workdir))
        self._close_memory()  # releases Qdrant's folder lock: copy a quiet store
        try:
            shutil.copytree(self.store_dir, workdir / "mem0")
        finally:
            self._open()
        (workdir / "mem0" / "qdrant" / ".lock").unlink(missing_ok=True)
        context = dataclasses.replace(self.context, workdir=workdir, options=dict(self.context.options))
        other = type(self)(context, _keep_store=True)
        other._buffer.turns = list(self._buffer.turns)
        other.usage = self.usage.copy()
        other.events = dict(self.events)
        other.add_calls = self.add_calls
        return other

    def close(self) -> None:
        self._close_memory()

    def stats(self) -> dict[str, Any]:
        return {
            **self.usage.snapshot(),
            "add_calls": self.add_calls,
            "events": dict(self.events),
            "mem0_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


def _register() -> None:
    version = package_version(DISTRIBUTION)
    if version.startswith(SUPPORTED_SERIES):
        register(Mem0System)
    elif version:
        register_unavailable(
            "mem0",
            DESCRIPTION,
            f"installed mem0ai {version} is not the 1.0.x series the paper used (this environment "
            f"serves `mem0-current`): {INSTALL_HINT} in another environment",
            needs=NEEDS,
        )
    else:
        register_unavailable("mem0", DESCRIPTION, INSTALL_HINT, needs=NEEDS)


_register()
