"""``simplemem``: the authors' ``simplemem`` 0.1.0 package behind the protocol.

SimpleMem buffers dialogue turns and, every 40 turns (its stock window), asks the LLM to
rewrite the window as self-contained "lossless restatements" with keywords, persons,
entities, topic and time. Entries are appended to a LanceDB table (with a Tantivy full-text
index) and **never edited or deleted**: a forget request becomes one more entry. Retrieval is
its stock planning + reflection loop (2–6 LLM calls per question) over dense search.

What we wire differently from ``SimpleMemSystem`` and why:

* embeddings come from the run's shared endpoint (:class:`EmbeddingClient`) instead of
  SimpleMem's ``EmbeddingModel``, which loads ``Qwen/Qwen3-Embedding-0.6B`` from the
  Hugging Face hub at construction (SPEC §2: one embedding model for all systems; no
  download at run time). So we assemble its own ``VectorStore``, ``MemoryBuilder`` and
  ``HybridRetriever`` with its stock settings, exactly as ``SimpleMemSystem.__init__`` does;
* streaming is off (``use_streaming=False``): the same text, but countable;
* the last partial window is processed before the first question (``finalize()`` in
  SimpleMem's own usage), not at every session end, so windows span sessions as in stock use;
* its ``print`` chatter is captured and sent to the debug log.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging
import shutil
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, cast

from pydantic import Field

from bemula.systems.adapters.common import (
    EmbeddingClient,
    EmbeddingOptions,
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

DISTRIBUTION = "simplemem"
INSTALL_HINT = "pip install 'bemula[simplemem]'  (simplemem==0.1.0; install torch==2.13.0+cpu first)"
DESCRIPTION = "SimpleMem: LLM restatements of 40-turn windows; append-only LanceDB"
NEEDS = "LLM backbone + embeddings"
TABLE = "memory_entries"
ENTRY_STORE = "simplemem.entries"
PENDING_STORE = "simplemem.pending_turns"
CONTEXT_STORE = "simplemem.previous_entries"
SPEAKERS = {"user": "User", "assistant": "Assistant"}

logger = logging.getLogger(__name__)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """SimpleMem prints progress on every step; keep it out of bemula's output."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        yield
    if buffer.getvalue().strip():
        logger.debug("simplemem: %s", buffer.getvalue().strip())


class _SimpleMemEmbedding:
    """SimpleMem's ``EmbeddingModel`` interface over the shared embedding endpoint."""

    def __init__(self, embedder: EmbeddingClient) -> None:
        self.embedder = embedder
        self.model_name = embedder.endpoint.model
        self.dimension = embedder.dims
        self.model_type = "openai-compatible-endpoint"
        self.supports_query_prompt = False

    def encode(self, texts: list[str] | str, is_query: bool = False) -> Any:
        import numpy as np

        if isinstance(texts, str):
            texts = [texts]
        return np.asarray(self.embedder.embed(list(texts)), dtype=np.float32)

    def encode_single(self, text: str, is_query: bool = False) -> Any:
        return self.encode([text], is_query=is_query)[0]

    def encode_query(self, queries: list[str]) -> Any:
        return self.encode(queries, is_query=True)

    def encode_documents(self, documents: list[str]) -> Any:
        return self.encode(documents, is_query=False)


class SimpleMemOptions(EmbeddingOptions):
    window_size: int | None = Field(default=None, ge=1, description="turns per extraction call (stock 40)")


class SimpleMemSystem(MemorySystem):
    """SimpleMem's builder and retriever on one per-instance LanceDB folder.

    Options: ``window_size`` (turns per extraction call; stock 40), ``embedding_*`` (see
    ``common``). The retrieval budget is SimpleMem's stock one (semantic top 25 per query).
    """

    name: ClassVar[str] = "simplemem"
    description: ClassVar[str] = DESCRIPTION
    supports_fork: ClassVar[bool] = True
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = SimpleMemOptions

    def __init__(self, context: SystemContext, *, _keep_store: bool = False) -> None:
        super().__init__(context)
        self.chat = chat_endpoint(context, self.name)
        self.embedder = EmbeddingClient(embedding_endpoint(context, self.name))
        window = context.options.get("window_size")
        self.window_size: int | None = int(window) if window is not None else None
        self.usage = UsageCounter()
        self._finalized = False
        if not _keep_store:
            fresh_dir(self.store_dir)
        self._open()

    @property
    def store_dir(self) -> Path:
        return Path(self.context.workdir) / "simplemem"

    def _open(self) -> None:
        from simplemem.core.hybrid_retriever import HybridRetriever
        from simplemem.core.memory_builder import MemoryBuilder
        from simplemem.database.vector_store import VectorStore
        from simplemem.utils.llm_client import LLMClient

        with _quiet():
            self.llm = LLMClient(
                api_key=self.chat.api_key,
                model=self.chat.model,
                base_url=self.chat.base_url,
                enable_thinking=False,
                use_streaming=False,
            )
            self.llm.client = counting_openai_client(self.chat.base_url, self.chat.api_key, self.usage)
            self.vector_store = VectorStore(
                db_path=str(self.store_dir / "lancedb"),
                # a duck-typed stand-in for SimpleMem's EmbeddingModel class (not a subclass):
                # Any, so the check holds with SimpleMem installed or not
                embedding_model=cast(Any, _SimpleMemEmbedding(self.embedder)),
                table_name=TABLE,
            )
            self.builder = MemoryBuilder(
                llm_client=self.llm, vector_store=self.vector_store, window_size=self.window_size
            )
            self.retriever = HybridRetriever(llm_client=self.llm, vector_store=self.vector_store)

    # -- protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        fresh_dir(self.store_dir)
        self._finalized = False
        self._open()

    def ingest(self, turn: TurnEvent) -> None:
        from simplemem.models.memory_entry import Dialogue

        dialogue = Dialogue(
            dialogue_id=self.builder.processed_count + len(self.builder.dialogue_buffer) + 1,
            speaker=SPEAKERS.get(turn.role, turn.role),
            content=turn.text,
            timestamp=turn.timestamp.isoformat(),
        )
        self._finalized = False
        with _quiet():
            self.builder.add_dialogue(dialogue)

    def finalize(self) -> None:
        """Process the last partial window (SimpleMem's ``finalize()``)."""
        if not self._finalized:
            with _quiet():
                self.builder.process_remaining()
            self._finalized = True

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        self.finalize()
        with _quiet():
            entries = self.retriever.retrieve(question)
        return [
            RetrievedItem(
                text=entry.lossless_restatement,
                store=ENTRY_STORE,
                id=entry.entry_id,
                timestamp=_parse_time(entry.timestamp),
            )
            for entry in entries
        ]

    def dump(self) -> list[StoreRecord]:
        """Every LanceDB row (all text columns), the unprocessed turns, the prompt context."""
        records = []
        for row in self.vector_store.table.to_arrow().to_pylist():
            fields = [row.get("lossless_restatement") or ""]
            for key in ("keywords", "persons", "entities"):
                if row.get(key):
                    fields.append(f"{key}: {', '.join(row[key])}")
            for key in ("topic", "location", "timestamp"):
                if row.get(key):
                    fields.append(f"{key}: {row[key]}")
            records.append(StoreRecord(store=ENTRY_STORE, id=str(row["entry_id"]), text=" | ".join(fields)))
        records += [
            StoreRecord(store=PENDING_STORE, id=f"pending-{d.dialogue_id}", text=str(d))
            for d in self.builder.dialogue_buffer
        ]
        records += [
            StoreRecord(store=CONTEXT_STORE, id=e.entry_id, text=e.lossless_restatement)
            for e in self.builder.previous_entries
        ]
        return records

    def fork(self) -> SimpleMemSystem:
        workdir = fork_workdir(Path(self.context.workdir))
        shutil.copytree(self.store_dir, workdir / "simplemem")
        other = SimpleMemSystem(dataclasses.replace(self.context, workdir=workdir), _keep_store=True)
        other.builder.dialogue_buffer = list(self.builder.dialogue_buffer)
        other.builder.previous_entries = list(self.builder.previous_entries)
        other.builder.processed_count = self.builder.processed_count
        other._finalized = self._finalized
        other.usage = self.usage.copy()
        return other

    def close(self) -> None:
        self.llm.client.close()
        self.embedder.close()

    def stats(self) -> dict[str, Any]:
        return {
            **self.usage.snapshot(),
            "embedding_calls": self.embedder.calls,
            "entries": self.vector_store.table.count_rows(),
            "simplemem_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


def _parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


if package_version(DISTRIBUTION):
    register(SimpleMemSystem)
else:
    register_unavailable("simplemem", DESCRIPTION, INSTALL_HINT, needs=NEEDS)
