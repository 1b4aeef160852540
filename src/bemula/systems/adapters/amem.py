"""``a-mem``: A-MEM's ``AgenticMemorySystem`` from the registry package ``a-mem`` 0.2.6.

Each dialogue turn becomes a note (``add_note``): the LLM writes its keywords, context and
tags, then the *evolution* step shows it the five nearest notes and may link the new note to
them ("strengthen") and rewrite their context and tags ("update_neighbor"). Nothing is ever
deleted from dialogue: A-MEM has no delete path, so a forget request is one more note, and
evolution can only rewrite the neighbours' context and tags — never their content.

Wiring, and why:

* the Chroma store is a ``PersistentClient`` in ``<workdir>/amem/chroma`` — one per
  instance. (Upstream A-MEM uses one in-memory client and calls ``client.reset()`` on every
  construction, which wipes every other instance in the process; 0.2.6 does not.)
* Chroma embeds with the run's shared endpoint (:class:`_ChromaEndpointEmbedding`) instead
  of A-MEM's ``SentenceTransformerEmbeddingFunction('all-MiniLM-L6-v2')``, which downloads
  the model from the Hugging Face hub. A-MEM builds that function inside its constructor,
  so we swap the module attribute for the duration of the constructor (under a lock).
* the LLM is A-MEM's own ``OpenAIController``; its OpenAI client is replaced by one on the
  backbone's endpoint that counts tokens (A-MEM would read ``OPENAI_BASE_URL`` otherwise).
* telemetry is off: Chroma's (``ANONYMIZED_TELEMETRY``) and litellm's cost-map download
  (``LITELLM_LOCAL_MODEL_COST_MAP``), both read at import time.

See ``docs/systems.md`` for how 0.2.6 differs from the upstream repository.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import threading
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from bemula.systems.adapters.common import (
    EMBED_API_KEY_ENV,
    NO_KEY,
    EmbeddingClient,
    EmbeddingEndpoint,
    EmbeddingTopKOptions,
    UsageCounter,
    chat_endpoint,
    counting_openai_client,
    embedding_endpoint,
    fork_workdir,
    fresh_dir,
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

DISTRIBUTION = "a-mem"
INSTALL_HINT = "pip install 'bemula[amem]'  (a-mem==0.2.6; install torch==2.13.0+cpu first)"
DESCRIPTION = "A-MEM: a note per turn; evolution rewrites neighbours; no delete path; Chroma"
NEEDS = "LLM backbone + embeddings"
#: A-MEM's own default number of notes per search (``k=5`` in every search method)
DEFAULT_TOP_K = 5
#: the Chroma collection A-MEM creates (``ChromaRetriever(collection_name="memories")``)
COLLECTION = "memories"
NOTE_STORE = "amem.notes"
CACHE_STORE = "amem.cache"
SPEAKERS = {"user": "User", "assistant": "Assistant"}

_CONSTRUCT_LOCK = threading.Lock()


def _quiet_imports() -> None:
    os.environ["ANONYMIZED_TELEMETRY"] = "False"
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def _chroma_embedding_class() -> type:
    """A Chroma embedding function over the shared endpoint (built lazily: chromadb is optional)."""
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings

    class _ChromaEndpointEmbedding(EmbeddingFunction[Documents]):
        def __init__(self, embedder: EmbeddingClient) -> None:
            self.embedder = embedder

        def __call__(self, input: Documents) -> Embeddings:  # noqa: A002 - Chroma's name
            import numpy as np

            return [np.asarray(v, dtype=np.float32) for v in self.embedder.embed(list(input))]

        @staticmethod
        def name() -> str:
            return "bemula-endpoint"

        def get_config(self) -> dict[str, Any]:
            endpoint = self.embedder.endpoint
            return {"base_url": endpoint.base_url, "model": endpoint.model, "dims": endpoint.dims}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> _ChromaEndpointEmbedding:
            endpoint = EmbeddingEndpoint(
                base_url=config["base_url"],
                model=config["model"],
                dims=int(config["dims"]),
                api_key=os.environ.get(EMBED_API_KEY_ENV) or NO_KEY,
            )
            return _ChromaEndpointEmbedding(EmbeddingClient(endpoint))

    return _ChromaEndpointEmbedding


class AMemSystem(MemorySystem):
    """A-MEM's ``AgenticMemorySystem``, one note per dialogue turn.

    Options: ``top_k`` (notes per question, plus their linked notes; default A-MEM's 5),
    ``embedding_*`` (see ``common``).
    """

    name: ClassVar[str] = "a-mem"
    description: ClassVar[str] = DESCRIPTION
    supports_fork: ClassVar[bool] = True
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = EmbeddingTopKOptions

    def __init__(self, context: SystemContext, *, _keep_store: bool = False) -> None:
        super().__init__(context)
        self.chat = chat_endpoint(context, self.name)
        self.embedder = EmbeddingClient(embedding_endpoint(context, self.name))
        self.top_k = int(context.options.get("top_k", DEFAULT_TOP_K))
        if self.top_k < 1:
            raise ValueError(f"a-mem: top_k must be >= 1, got {self.top_k}")
        self.usage = UsageCounter()
        self.notes_added = 0
        self._amem: Any = None
        if not _keep_store:
            fresh_dir(self.store_dir)
        self._open()

    @property
    def store_dir(self) -> Path:
        return Path(self.context.workdir) / "amem"

    @property
    def chroma_dir(self) -> Path:
        return self.store_dir / "chroma"

    def _open(self) -> None:
        _quiet_imports()
        from agentic_memory import memory_system, retrievers

        embedding = _chroma_embedding_class()(self.embedder)
        with _CONSTRUCT_LOCK:
            original = retrievers.SentenceTransformerEmbeddingFunction
            retrievers.SentenceTransformerEmbeddingFunction = lambda model_name: embedding
            try:
                self._amem = memory_system.AgenticMemorySystem(
                    model_name="bemula-endpoint",
                    llm_backend="openai",
                    llm_model=self.chat.model,
                    api_key=self.chat.api_key,
                    storage_path=str(self.chroma_dir),
                )
            finally:
                retrievers.SentenceTransformerEmbeddingFunction = original
        self._amem.llm_controller.llm.client = counting_openai_client(
            self.chat.base_url, self.chat.api_key, self.usage
        )

    def _close_store(self) -> None:
        if self._amem is None:
            return
        self._amem.llm_controller.llm.client.close()
        self._amem = None

    # -- protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        """Drop the notes collection through Chroma and start a new A-MEM on the same folder.

        Not ``rmtree``: Chroma caches one system per path for the whole process, so a folder
        deleted under an open client turns into a read-only database.
        """
        if self._amem is not None:
            self._amem.retriever.client.delete_collection(COLLECTION)
        self._close_store()
        self.notes_added = 0
        self._open()

    def ingest(self, turn: TurnEvent) -> None:
        content = f"{SPEAKERS.get(turn.role, turn.role)} says: {turn.text}"
        self._amem.add_note(content, time=turn.timestamp.strftime("%Y%m%d%H%M"))
        self.notes_added += 1

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        """A-MEM's own retrieval for answering: the nearest notes and the notes linked to them."""
        raw = self._amem.find_related_memories_raw(question, k=self.top_k)
        return [
            RetrievedItem(text=line, store=NOTE_STORE, id=f"hit-{i}")
            for i, line in enumerate(row for row in raw.splitlines() if row.strip())
        ]

    def dump(self) -> list[StoreRecord]:
        """Every Chroma note (document + all metadata) and every note in A-MEM's LRU cache."""
        collection = self._amem.retriever.collection
        got = collection.get(include=["documents", "metadatas"])
        records = []
        for doc_id, document, metadata in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
            fields = [document or ""]
            fields += [f"{k}={v}" for k, v in sorted((metadata or {}).items()) if k != "enhanced_content"]
            records.append(StoreRecord(store=NOTE_STORE, id=str(doc_id), text=" | ".join(fields)))
        cache = self._amem.cache  # ThreadSafeMemoryCache around an LRU MemoryCache
        with cache._lock:
            notes = list(cache._cache.cache.values())
        for note in notes:
            parts = [note.content, f"context={note.context}", f"keywords={json.dumps(note.keywords)}"]
            text = " | ".join([*parts, f"tags={json.dumps(note.tags)}"])
            records.append(StoreRecord(store=CACHE_STORE, id=note.id, text=text))
        return records

    def fork(self) -> AMemSystem:
        workdir = fork_workdir(Path(self.context.workdir))
        shutil.copytree(self.store_dir, workdir / "amem")
        other = AMemSystem(dataclasses.replace(self.context, workdir=workdir), _keep_store=True)
        other.notes_added = self.notes_added
        other.usage = self.usage.copy()
        return other

    def close(self) -> None:
        self._close_store()
        self.embedder.close()

    def stats(self) -> dict[str, Any]:
        return {
            **self.usage.snapshot(),
            "embedding_calls": self.embedder.calls,
            "notes_added": self.notes_added,
            "evolutions": self._amem.evo_cnt if self._amem is not None else 0,
            "a_mem_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


if package_version(DISTRIBUTION):
    register(AMemSystem)
else:
    register_unavailable("a-mem", DESCRIPTION, INSTALL_HINT, needs=NEEDS)
