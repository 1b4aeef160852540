"""``lightmem``: LightMem (zjunlp/LightMem) behind the protocol — when installed from source.

The registry's ``lightmem`` is a 0.0.0 placeholder; the real package is installed from the
repository (``pip install -e .`` in a clone; its own pins — torch 2.8, openai 2.3, … — want
their own environment). This adapter is written against the upstream API as published:
``LightMemory.from_config``, ``add_memory(messages, force_segment=, force_extract=)``,
``retrieve(query, limit=)`` and the offline update (``construct_update_queue_all_entries``
then ``offline_update_all_entries``). Without the package the system is listed by
``bemula systems`` as unavailable, with the install hint.

Configuration, and why it differs from LightMem's README example:

* no pre-compression and no topic segmentation: both load LLMLingua-2 weights from the
  Hugging Face hub (nothing may be downloaded at run time); every exchange is one segment;
* LLM (``memory_manager``) and embedder (``text_embedder``) are LightMem's ``openai``
  backends pointed at the run's endpoint and shared embedding endpoint;
* Qdrant in path mode under ``<workdir>/lightmem/`` with ``on_disk=True`` (LightMem's Qdrant
  wrapper deletes the folder at start when ``on_disk`` is false), history DB beside it;
* exchanges are fed as in LightMem's own examples (user + assistant with a session
  ``time_stamp``); the last one is held back and sent with ``force_segment=True,
  force_extract=True`` before the first question, as its examples do on the last turn;
* the offline update is **off** by default (``--option offline_update=true`` turns it on):
  the paper describes LightMem's notes as never edited after writing.
"""

from __future__ import annotations

import importlib.util
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from bemula.systems.adapters.common import (
    EmbeddingEndpoint,
    Endpoint,
    ExchangeBuffer,
    chat_endpoint,
    embedding_endpoint,
    fresh_dir,
    package_version,
    sqlite_records,
)
from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    TurnEvent,
    register,
    register_unavailable,
)

DISTRIBUTION = "lightmem"
INSTALL_HINT = (
    "install LightMem from source in its own environment: git clone the zjunlp/LightMem "
    "repository, then pip install -e . (the registry's lightmem 0.0.0 is a placeholder)"
)
DESCRIPTION = "LightMem (source install): LLM memory entries in Qdrant; offline update"
NEEDS = "LightMem from source + LLM backbone + embeddings"
#: LightMem's README retrieves ``limit=5``; its LongMemEval example 20. ``retrieve``'s default:
DEFAULT_TOP_K = 10
COLLECTION = "lightmem"
MEMORY_STORE = "lightmem.entries"
PENDING_STORE = "lightmem.pending_turns"


def lightmem_installed() -> bool:
    """True when the real package (not the registry placeholder) can be imported."""
    try:
        return importlib.util.find_spec("lightmem.memory.lightmem") is not None
    except ModuleNotFoundError:
        return False


def lightmem_config(store_dir: Path, chat: Endpoint, embedder: EmbeddingEndpoint) -> dict[str, Any]:
    """``LightMemory.from_config`` input: our endpoints, stores under ``store_dir``."""
    return {
        "pre_compress": False,
        "topic_segment": False,
        "messages_use": "user_only",
        "metadata_generate": True,
        "text_summary": True,
        "memory_manager": {
            "model_name": "openai",
            "configs": {"model": chat.model, "api_key": chat.api_key, "openai_base_url": chat.base_url},
        },
        "index_strategy": "embedding",
        "text_embedder": {
            "model_name": "openai",
            "configs": {
                "model": embedder.model,
                "api_key": embedder.api_key,
                "openai_base_url": embedder.base_url,
                "embedding_dims": embedder.dims,
            },
        },
        "retrieve_strategy": "embedding",
        "embedding_retriever": {
            "model_name": "qdrant",
            "configs": {
                "collection_name": COLLECTION,
                "embedding_model_dims": embedder.dims,
                "path": str(store_dir / "qdrant"),
                "on_disk": True,
            },
        },
        "history_db_path": str(store_dir / "history.db"),
        "update": "offline",
    }


class LightMemSystem(MemorySystem):
    """LightMem fed one exchange per ``add_memory``; embedding retrieval.

    Options: ``top_k`` (entries per question; default 10, ``retrieve``'s default),
    ``offline_update`` (run LightMem's offline update before the first question; default
    false), ``embedding_*`` (see ``common``).
    """

    name: ClassVar[str] = "lightmem"
    description: ClassVar[str] = DESCRIPTION
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.chat = chat_endpoint(context, self.name)
        self.embedder = embedding_endpoint(context, self.name)
        self.top_k = int(context.options.get("top_k", DEFAULT_TOP_K))
        self.offline_update = str(context.options.get("offline_update", "false")).lower() in ("1", "true", "yes")
        self.add_calls = 0
        self._memory: Any = None
        self.reset()

    @property
    def store_dir(self) -> Path:
        return Path(self.context.workdir) / "lightmem"

    def reset(self) -> None:
        from lightmem.memory.lightmem import LightMemory

        self._close_store()
        fresh_dir(self.store_dir)
        self._buffer = ExchangeBuffer()
        self._held: list[TurnEvent] | None = None
        self._finalized = False
        self._memory = LightMemory.from_config(lightmem_config(self.store_dir, self.chat, self.embedder))

    def _close_store(self) -> None:
        if self._memory is not None:
            client = getattr(getattr(self._memory, "embedding_retriever", None), "client", None)
            if client is not None:
                client.close()
            self._memory = None

    def ingest(self, turn: TurnEvent) -> None:
        self._finalized = False
        exchange = self._buffer.push(turn)
        if exchange:
            self._hold(exchange)

    def end_session(self, session_id: str) -> None:
        exchange = self._buffer.flush()
        if exchange:
            self._hold(exchange)

    def _hold(self, exchange: list[TurnEvent]) -> None:
        """Send the previously held exchange; hold this one (the last is sent forced)."""
        if self._held is not None:
            self._add(self._held, force=False)
        self._held = exchange

    def _add(self, turns: list[TurnEvent], *, force: bool) -> None:
        stamp = turns[0].timestamp.replace(microsecond=0).isoformat()
        messages = [{"role": t.role, "content": t.text, "time_stamp": stamp} for t in turns]
        self._memory.add_memory(messages=messages, force_segment=force, force_extract=force)
        self.add_calls += 1

    def finalize(self) -> None:
        if self._finalized:
            return
        pending = self._buffer.flush()
        if pending:
            self._hold(pending)
        if self._held is not None:
            self._add(self._held, force=True)
            self._held = None
        if self.offline_update:
            self._memory.construct_update_queue_all_entries()
            self._memory.offline_update_all_entries(score_threshold=0.8)
        self._finalized = True

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        self.finalize()
        lines = self._memory.retrieve(question, limit=self.top_k)
        return [RetrievedItem(text=str(line), store=MEMORY_STORE, id=f"hit-{i}") for i, line in enumerate(lines)]

    def dump(self) -> list[StoreRecord]:
        records = []
        for entry in self._memory.embedding_retriever.get_all(with_vectors=False):
            payload = entry.get("payload") or {}
            fields = [str(payload.get("memory", ""))] + [
                f"{k}={v}"
                for k, v in sorted(payload.items())
                if k != "memory" and isinstance(v, str) and v
            ]
            records.append(StoreRecord(store=MEMORY_STORE, id=str(entry.get("id")), text=" | ".join(fields)))
        records += sqlite_records(self.store_dir / "history.db", "lightmem.history_db")
        held = [*(self._held or []), *self._buffer.turns]
        records += [StoreRecord(PENDING_STORE, f"pending-{i}", f"{t.role}: {t.text}") for i, t in enumerate(held)]
        return records

    def close(self) -> None:
        self._close_store()

    def stats(self) -> dict[str, Any]:
        token_stats = dict(getattr(self._memory, "token_stats", {}) or {})

        def both(kind: str) -> int:  # LightMem counts extraction and offline update apart
            return int(token_stats.get(f"add_memory_{kind}", 0)) + int(token_stats.get(f"update_{kind}", 0))

        return {
            "llm_calls": both("calls"),
            "prompt_tokens": both("prompt_tokens"),
            "completion_tokens": both("completion_tokens"),
            "add_calls": self.add_calls,
            "lightmem_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


if lightmem_installed():
    register(LightMemSystem)
else:
    register_unavailable("lightmem", DESCRIPTION, INSTALL_HINT, needs=NEEDS)
