"""``cognee``: Cognee (``cognee`` 1.6.x) on its embedded stores — SQLite, LanceDB, Ladybug.

Cognee turns ingested text into a knowledge graph: ``cognee.add`` stores the raw text (a
file under its data root and a row in its relational database), ``cognee.cognify`` splits
it into chunks and, per chunk, asks the LLM for a knowledge graph (entities and described
relations) and for a summary, then writes chunks, summaries, entities and relation types to
the graph store (Ladybug, the embedded Kuzu fork) and their embeddings to the vector store
(LanceDB). ``cognee.search`` finds graph triplets near the question and hands back the
context an LLM would answer from.

Forgetting: cognify has no prompt that compares new text with what is stored — nothing is
updated, invalidated or deleted by a dialogue. Cognee deletes only through its API
(``cognee.forget`` by data item or dataset, ``cognee.delete``), which a dialogue never
reaches and the harness never calls (SPEC §2). A forget request is ingested like any other
turn: its text is kept and the model may even extract it as a fact naming the value.
``dump()`` hands every store to the residue audit: the raw files, every relational table,
every LanceDB collection and the graph's nodes and edges.

Wiring, and why:

* **Stores**: Cognee's embedded defaults, no server, everything under
  ``<workdir>/cognee``: ``system/`` (``databases/``: the SQLite relational database
  ``cognee_db``, the LanceDB folder and the Ladybug graph file), ``data/`` (the raw text
  files ``add`` writes) and ``cache/``. Backend access control (Cognee's multi-user mode,
  one database set per user and dataset) is off: one user, one dataset (``bemula``).
* **LLM**: the backbone's endpoint as Cognee's ``custom`` provider (``openai/<model>`` for
  litellm, ``LLM_ENDPOINT`` = the base URL). Cognee's default structured output
  (``litellm_native``) sends the schema as ``response_format`` to a model litellm knows takes
  one, and asks any other for a JSON object with the schema in the system prompt; the
  backbone is declared to take one (``-o structured=json_object``: not), so its output is
  constrained to Cognee's schema (:func:`_declare_schema_support`). Calls and tokens are
  counted with a litellm success callback.
* **Embeddings**: the shared embedding endpoint through Cognee's ``openai_compatible``
  engine (the openai SDK; same model for every system, SPEC §2); requests are counted with
  an HTTP hook on that engine's client. For chunk sizing Cognee wants the embedding model's
  tokenizer from the Hugging Face hub; offline (``HF_HUB_OFFLINE=1``) it falls back, as its
  resolver does on any failure, to tiktoken's ``cl100k_base`` — from the copy litellm ships,
  so nothing is downloaded.
* **Feeding**: one ``add`` + ``cognify`` per session (``-o unit=turn``: per turn), the
  session's turns as ``"user: …"`` / ``"assistant: …"`` lines (a session is one chunk on
  short dialogues: two LLM calls per session). Turns wait in the dump
  (``cognee.pending_turns``) until their session ends.
* **Retrieval**: ``cognee.search`` with its default ``HYBRID_COMPLETION`` and
  ``only_context=True`` — what the answering LLM would receive, not Cognee's answer (no LLM
  call: the context is built from vector and graph search) — split into its passages
  (chunks), entity blocks and related facts; ``-o search=graph_completion`` takes
  ``GRAPH_COMPLETION``'s context instead (node blocks and ``a --[rel]--> b (description)``
  lines). ``top_k`` is Cognee's default, 15.
* **Process-wide state**: Cognee's configuration and engines are process globals, and its
  async engines belong to the loop that made them. Every instance therefore runs on one
  shared event loop thread, one operation at a time, and points Cognee at its own folders
  and endpoints before each.
* **Network and home folder**: telemetry off (``TELEMETRY_DISABLED``), log files off
  (``COGNEE_LOG_FILE``; Cognee's default folder is ``~/.cognee/logs``), litellm's local model
  cost map (``LITELLM_LOCAL_MODEL_COST_MAP``), hub offline. ``HOME`` points at
  ``<store>/home`` while a Cognee operation runs: Ladybug's graph worker makes its extension
  folders (``~/.lbdb/extension/…``) under the home folder — it loads the JSON extension Cognee
  bundles, nothing is downloaded.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import shutil
import sqlite3
import threading
from collections.abc import Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import Field

from bemula.systems.adapters.common import (
    EmbeddingEndpoint,
    EmbeddingTopKOptions,
    Endpoint,
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

DISTRIBUTION = "cognee"
PINNED_VERSION = "1.6.5"
SUPPORTED_SERIES = "1.6."
INSTALL_HINT = (
    "pip install 'bemula[cognee]'  (cognee==1.6.5) in its own environment: it pins openai 2.x and "
    "pandas 2.x (docs/systems.md)"
)
DESCRIPTION = "Cognee (cognee 1.6.x): knowledge graph + chunks + summaries on SQLite, LanceDB, Ladybug; no in-dialogue delete"
NEEDS = "LLM backbone with JSON output + embeddings"
DATASET = "bemula"
#: Cognee's own default number of results per search (``cognee.search(top_k=15)``)
DEFAULT_TOP_K = 15

FILE_STORE = "cognee.files"
RELATIONAL_STORE = "cognee.relational"
CACHE_STORE = "cognee.cache"
VECTOR_STORE = "cognee.vectors"
NODE_STORE = "cognee.graph.nodes"
EDGE_STORE = "cognee.graph.edges"
PENDING_STORE = "cognee.pending_turns"

#: set before Cognee (and litellm, huggingface_hub) is first imported: nothing may reach the
#: network, and nothing may be written outside the run folder
PROCESS_ENV = {
    "TELEMETRY_DISABLED": "1",
    "COGNEE_LOG_FILE": "false",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "HF_HUB_OFFLINE": "1",
    "ENABLE_BACKEND_ACCESS_CONTROL": "false",
    "LOG_LEVEL": "ERROR",
}

T = TypeVar("T")


class CogneeOptions(EmbeddingTopKOptions):
    unit: Literal["session", "turn"] = Field(
        default="session", description="one add + cognify per session (default) or per turn"
    )
    search: Literal["hybrid_completion", "graph_completion"] = Field(
        default="hybrid_completion", description="cognee.search's query type (its default: hybrid_completion)"
    )
    structured: Literal["json_schema", "json_object"] = Field(
        default="json_schema",
        description=(
            "how Cognee asks for its graphs and summaries: json_schema (the schema as response_format, "
            "the endpoint constrains the output, as for a model litellm knows) or json_object (Cognee's "
            "fallback for an unknown model: the schema in the prompt, unconstrained)"
        ),
    )


def _declare_schema_support(model: str, supported: bool) -> None:
    """Tell litellm whether ``model`` takes a JSON schema as ``response_format``.

    Cognee's default structured output (``litellm_native``) asks litellm's model table: a model
    it knows to take a schema (the paper's gpt-4o-mini) gets the Pydantic schema as
    ``response_format`` and the endpoint constrains its output to it; any other model gets
    ``{"type": "json_object"}`` with the schema pasted into the system prompt, and its output
    is only validated afterwards. A small local model in that mode sometimes answers with the
    schema itself (``{"description": …, "type": "object"}``), and cognify fails on the chunk.
    The backbone bemula hands a system is one that honours ``json_schema`` (bemula's own calls
    send it; llama.cpp's server turns it into a grammar), so it is declared as such unless
    ``-o structured=json_object`` asks for Cognee's behaviour with an unknown model. Set before
    every operation: the table is process-wide and instances may differ.
    """
    import litellm

    litellm.register_model({model: {"supports_response_schema": supported, "litellm_provider": "openai", "mode": "chat"}})


def cognee_installed() -> bool:
    return bool(package_version(DISTRIBUTION))


class _Runtime:
    """The one event loop (in a daemon thread) every Cognee instance of the process runs on.

    Cognee keeps its configuration and engines (SQLAlchemy's async engine, the LanceDB and
    Ladybug adapters, the embedding client) in process-wide caches, bound to the loop that
    made them; one loop and one lock make the instances take turns.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.lock = threading.RLock()
        self._thread = threading.Thread(target=self.loop.run_forever, name="cognee-loop", daemon=True)
        self._thread.start()
        #: the instance whose operation is running (litellm's callback counts for it)
        self.active: CogneeSystem | None = None

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()


_RUNTIME: _Runtime | None = None
_RUNTIME_LOCK = threading.Lock()


def _runtime() -> _Runtime:
    global _RUNTIME
    with _RUNTIME_LOCK:
        if _RUNTIME is None:
            for key, value in PROCESS_ENV.items():
                os.environ.setdefault(key, value)
            _RUNTIME = _Runtime()
            _RUNTIME.run(_import_cognee())
        return _RUNTIME


async def _import_cognee() -> None:
    """Import Cognee inside the loop, offline tokenizer first, and hook litellm's counter."""
    # litellm ships cl100k_base and points tiktoken's cache at it when this module loads;
    # Cognee's tokenizer fallback would otherwise download the file
    import cognee  # noqa: F401
    import litellm
    import litellm.litellm_core_utils.default_encoding  # noqa: F401
    from litellm.integrations.custom_logger import CustomLogger

    class _Counter(CustomLogger):
        async def async_log_success_event(self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any) -> None:
            _count_completion(response_obj)

        def log_success_event(self, kwargs: Any, response_obj: Any, start_time: Any, end_time: Any) -> None:
            _count_completion(response_obj)

    litellm.callbacks = [*getattr(litellm, "callbacks", []), _Counter()]


def _count_completion(response: Any) -> None:
    system = _RUNTIME.active if _RUNTIME is not None else None
    if system is None:
        return
    usage = getattr(response, "usage", None)
    system.usage.add(getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None))


class CogneeSystem(MemorySystem):
    """Cognee fed one document per session (or per turn), searched with HYBRID_COMPLETION.

    Options: ``top_k`` (search results; default Cognee's 15), ``unit``
    (``session``/``turn``), ``search`` (``hybrid_completion``/``graph_completion``),
    ``embedding_*`` (see ``common``).
    """

    name: ClassVar[str] = "cognee"
    description: ClassVar[str] = DESCRIPTION
    supports_fork: ClassVar[bool] = True
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = CogneeOptions
    #: one operation at a time per process (shared loop); the graph store runs in a worker
    #: process of Cognee's own
    resources: ClassVar[dict[str, float]] = {"num_cpus": 1.0, "memory_gb": 1.5}

    def __init__(self, context: SystemContext, *, _keep_store: bool = False) -> None:
        super().__init__(context)
        self.chat: Endpoint = chat_endpoint(context, self.name)
        self.embedder: EmbeddingEndpoint = embedding_endpoint(context, self.name)
        options = CogneeOptions(**context.options)
        self.top_k = options.top_k or DEFAULT_TOP_K
        self.unit = options.unit
        self.search_type = options.search
        self.structured = options.structured
        self.usage = UsageCounter()
        self.embedding_calls = 0
        self.documents_added = 0
        self.cognify_runs = 0
        self._pending: list[TurnEvent] = []
        #: bumped by a reset after Cognee opened this store: its engines stay cached by path
        #: for the process, so a reset moves to fresh folders instead of deleting open files
        self._generation = 0
        self._opened = False
        try:
            self._runtime = _runtime()
        except ImportError as exc:
            raise SystemUnavailable(f"cognee cannot be imported ({exc}): {INSTALL_HINT}") from exc
        if not _keep_store:
            fresh_dir(self.store_dir)

    # -- paths and wiring ----------------------------------------------------------------
    @property
    def store_dir(self) -> Path:
        suffix = f"-{self._generation}" if self._generation else ""
        return Path(self.context.workdir) / f"cognee{suffix}"

    @property
    def system_dir(self) -> Path:
        return self.store_dir / "system"

    @property
    def data_dir(self) -> Path:
        return self.store_dir / "data"

    @property
    def databases_dir(self) -> Path:
        return self.system_dir / "databases"

    def _call(self, make: Any) -> Any:
        """Run ``make()`` (a coroutine factory) on the shared loop with Cognee pointed here.

        ``HOME`` points into the store while it runs: Ladybug's graph worker (a process Cognee
        spawns per database, inheriting the environment) makes its extension folders under
        the home folder, and nothing of a run may land outside the run folder.
        """
        with self._runtime.lock:
            self._runtime.active = self
            home = os.environ.get("HOME")
            os.environ["HOME"] = str(self.store_dir / "home")
            try:
                return self._runtime.run(self._in_context(make))
            finally:
                self._runtime.active = None
                if home is None:
                    os.environ.pop("HOME", None)
                else:
                    os.environ["HOME"] = home

    async def _in_context(self, make: Any) -> Any:
        self._opened = True
        self._configure()
        await self._hook_embedding_client()
        return await make()

    def _configure(self) -> None:
        """Point Cognee's (process-wide) settings at this instance's folders and endpoints."""
        import cognee
        from cognee.base_config import get_base_config
        from cognee.infrastructure.databases.vector.embeddings.config import get_embedding_config
        from cognee.infrastructure.llm.config import get_llm_config

        cognee.config.system_root_directory(str(self.system_dir))
        cognee.config.data_root_directory(str(self.data_dir))
        base = get_base_config()
        base.cache_root_directory = str(self.store_dir / "cache")
        base.logs_root_directory = str(self.store_dir / "logs")
        base.repos_root_directory = str(self.store_dir / "repos")
        llm = get_llm_config()
        llm.llm_provider = "custom"
        llm.llm_model = f"openai/{self.chat.model}"
        llm.llm_endpoint = self.chat.base_url
        llm.llm_api_key = self.chat.api_key
        llm.llm_temperature = 0.0
        _declare_schema_support(llm.llm_model, self.structured == "json_schema")
        embedding = get_embedding_config()
        embedding.embedding_provider = "openai_compatible"
        embedding.embedding_model = self.embedder.model
        embedding.embedding_endpoint = self.embedder.base_url
        embedding.embedding_api_key = self.embedder.api_key
        embedding.embedding_dimensions = self.embedder.dims

    async def _hook_embedding_client(self) -> None:
        """Count embedding requests: an HTTP hook on the engine's own openai client."""
        from cognee.infrastructure.databases.vector.embeddings.get_embedding_engine import get_embedding_engine

        engine = get_embedding_engine()
        client = getattr(engine, "_client", None)
        if client is None or getattr(client, "_bemula_counted", False):
            return
        import openai

        hooked = openai.AsyncOpenAI(
            api_key=client.api_key,
            base_url=client.base_url,
            timeout=client.timeout,
            http_client=openai.DefaultAsyncHttpxClient(event_hooks={"response": [_on_embedding_response]}),
        )
        hooked._bemula_counted = True  # type: ignore[attr-defined]
        engine._client = hooked

    # -- protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        with self._runtime.lock:
            self._pending = []
            if self._opened:
                self._generation += 1
                self._opened = False
            fresh_dir(self.store_dir)
            self.documents_added = 0

    def ingest(self, turn: TurnEvent) -> None:
        self._pending.append(turn)
        if self.unit == "turn":
            self._flush()

    def end_session(self, session_id: str) -> None:
        self._flush()

    def _flush(self) -> None:
        turns, self._pending = self._pending, []
        if not turns:
            return
        text = "\n".join(f"{t.role}: {t.text}" for t in turns)

        async def add_and_cognify() -> None:
            import cognee

            await cognee.add(text, dataset_name=DATASET)
            await cognee.cognify(datasets=[DATASET])

        try:
            self._call(add_and_cognify)
        except BaseException:
            self._pending = turns + self._pending
            raise
        self.documents_added += 1
        self.cognify_runs += 1

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        if self.documents_added == 0:
            return []

        async def search() -> Any:
            import cognee
            from cognee import SearchType

            return await cognee.search(
                question,
                query_type=SearchType[self.search_type.upper()],
                datasets=[DATASET],
                top_k=self.top_k,
                only_context=True,
            )

        results = self._call(search)
        parse = hybrid_items if self.search_type == "hybrid_completion" else context_items
        items: list[RetrievedItem] = []
        for result in results or []:
            context = result.get("search_result") if isinstance(result, dict) else result
            for text in context if isinstance(context, list) else [context]:
                items += parse(str(text or ""))
        return items

    # -- the audit's view ----------------------------------------------------------------
    def dump(self) -> list[StoreRecord]:
        """Raw files, every relational and cache table row, every vector collection's
        payloads, the graph's nodes and edges, and turns not yet added."""
        with self._runtime.lock:
            records = self._file_records()
            records += sqlite_records(self.databases_dir / "cognee_db", RELATIONAL_STORE)
            records += sqlite_records(self.databases_dir / "cache.db", CACHE_STORE)
            records += self._vector_records()
            if self.documents_added:
                records += self._graph_records()
        records += [
            StoreRecord(store=PENDING_STORE, id=f"pending-{i}", text=f"{t.role}: {t.text}")
            for i, t in enumerate(self._pending)
        ]
        return records

    def _file_records(self) -> list[StoreRecord]:
        if not self.data_dir.exists():
            return []
        return [
            StoreRecord(store=FILE_STORE, id=path.name, text=path.read_text(encoding="utf-8", errors="replace"))
            for path in sorted(self.data_dir.rglob("*"))
            if path.is_file()
        ]

    def _vector_records(self) -> list[StoreRecord]:
        lance_dir = self.databases_dir / "cognee.lancedb"
        if not lance_dir.exists():
            return []
        import lancedb

        records: list[StoreRecord] = []
        db = lancedb.connect(str(lance_dir))
        for name in sorted(_table_names(db)):
            rows = db.open_table(name).to_arrow().to_pylist()
            for row in rows:
                payload = row.get("payload")
                text = _payload_text(payload if payload is not None else {k: v for k, v in row.items() if k != "vector"})
                records.append(StoreRecord(store=f"{VECTOR_STORE}.{name}", id=str(row.get("id", "")), text=text))
        return records

    def _graph_records(self) -> list[StoreRecord]:
        async def graph_data() -> Any:
            from cognee.infrastructure.databases.graph import get_graph_engine

            engine = await get_graph_engine()
            return await engine.get_graph_data()

        nodes, edges = self._call(graph_data)
        names: dict[str, str] = {}
        records: list[StoreRecord] = []
        for node_id, props in nodes:
            flat = _flatten_properties(props)
            names[str(node_id)] = str(flat.get("name") or node_id)
            records.append(StoreRecord(store=NODE_STORE, id=str(node_id), text=_property_text(flat)))
        for source, target, relation, props in edges:
            flat = _flatten_properties(props)
            head = f"{names.get(str(source), source)} -[{relation}]-> {names.get(str(target), target)}"
            rest = _property_text({k: v for k, v in flat.items() if k not in ("relationship_name",)})
            records.append(
                StoreRecord(store=EDGE_STORE, id=f"{source}-{relation}-{target}", text=f"{head} | {rest}" if rest else head)
            )
        return records

    # -- fork, close, stats --------------------------------------------------------------
    def fork(self) -> CogneeSystem:
        """A copy of every store folder (checkpointed graph, SQLite, LanceDB, files)."""
        workdir = fork_workdir(Path(self.context.workdir))

        async def checkpoint() -> None:
            if self.documents_added:
                from cognee.infrastructure.databases.graph import get_graph_engine

                engine = await get_graph_engine()
                if hasattr(engine, "checkpoint"):
                    await engine.checkpoint()

        with self._runtime.lock:
            self._call(checkpoint)
            shutil.copytree(self.store_dir, workdir / "cognee")
            _relocate(workdir / "cognee" / "system" / "databases" / "cognee_db", str(self.store_dir), str(workdir / "cognee"))
        context = dataclasses.replace(self.context, workdir=workdir, options=dict(self.context.options))
        other = CogneeSystem(context, _keep_store=True)
        other._pending = list(self._pending)
        other.usage = self.usage.copy()
        other.embedding_calls = self.embedding_calls
        other.documents_added = self.documents_added
        other.cognify_runs = self.cognify_runs
        return other

    def close(self) -> None:
        """Cognee's engines stay cached for the process (other instances may share them)."""

    def stats(self) -> dict[str, Any]:
        return {
            **self.usage.snapshot(),
            "embedding_calls": self.embedding_calls,
            "documents_added": self.documents_added,
            "cognify_runs": self.cognify_runs,
            "cognee_version": package_version(DISTRIBUTION),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


def _relocate(database: Path, old: str, new: str) -> None:
    """Point a forked relational store's file locations at the fork's copies of the files."""
    if not database.exists():
        return
    connection = sqlite3.connect(database)
    try:
        columns = [row[1] for row in connection.execute('PRAGMA table_info("data")')]
        for column in (c for c in columns if c.endswith("_location")):
            connection.execute(f'UPDATE "data" SET "{column}" = replace("{column}", ?, ?)', (old, new))
        connection.commit()
    finally:
        connection.close()


async def _on_embedding_response(response: Any) -> None:
    system = _RUNTIME.active if _RUNTIME is not None else None
    if system is not None and response.status_code == 200 and response.request.url.path.endswith("/embeddings"):
        system.embedding_calls += 1


def _table_names(db: Any) -> list[str]:
    listing = db.list_tables() if hasattr(db, "list_tables") else db.table_names()
    names = getattr(listing, "tables", listing)
    return [str(n) for n in names]


def _flatten_properties(props: Any) -> dict[str, Any]:
    """A node's or edge's properties, with Cognee's JSON ``properties`` blob spread out."""
    flat: dict[str, Any] = dict(props or {})
    blob = flat.pop("properties", None)
    if isinstance(blob, str):
        try:
            blob = json.loads(blob)
        except ValueError:
            flat["properties"] = blob
            blob = None
    if isinstance(blob, dict):
        for key, value in blob.items():
            flat.setdefault(key, value)
    return flat


#: bookkeeping keys left out of the audit text (ids, vectors, timestamps, versions)
_SKIP_KEYS = {"id", "created_at", "updated_at", "version", "topological_rank", "metadata", "vector"}


def _property_text(props: dict[str, Any]) -> str:
    parts = []
    for key, value in props.items():
        if key in _SKIP_KEYS or value in (None, "", [], {}):
            continue
        parts.append(f"{key}={value if isinstance(value, str) else json.dumps(value, default=str)}")
    return " | ".join(parts)


def _payload_text(payload: Any) -> str:
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except ValueError:
            return payload
    if isinstance(payload, dict):
        return _property_text(payload)
    return str(payload)


CHUNK_STORE = f"{VECTOR_STORE}.DocumentChunk_text"


def hybrid_items(context: str) -> list[RetrievedItem]:
    """Cognee's hybrid context as items: each passage, each entity block, each related fact.

    With ``only_context`` HYBRID_COMPLETION hands back its answering prompt: the question,
    an instruction, then ``Context:`` and the context between backticks, in sections —
    ``## Relevant passages`` (chunks separated by ``---``), ``## Relevant entities``
    (``### name (type)`` blocks of fact lines), ``## Related facts`` (``- fact`` lines).
    Another section comes back whole, as one item.
    """
    body = context.split("Context:\n", 1)[1] if "Context:\n" in context else context
    body = body.strip().strip("`").strip()
    if not body:
        return []
    found: list[tuple[str, str]] = []
    for section in re.split(r"^## ", body, flags=re.M):
        title, _, text = section.partition("\n")
        title, text = title.strip(), text.strip()
        if not text:
            continue
        if title == "Relevant passages":
            found += [(p.strip(), CHUNK_STORE) for p in re.split(r"^---$", text, flags=re.M) if p.strip()]
        elif title == "Relevant entities":
            for block in re.split(r"^### ", text, flags=re.M):
                head, _, lines = block.partition("\n")
                facts = [line[2:].strip() for line in lines.splitlines() if line.startswith("- ")]
                if head.strip():
                    found.append((f"{head.strip()}: " + "; ".join(facts), NODE_STORE))
        elif title == "Related facts":
            found += [(line[2:].strip(), EDGE_STORE) for line in text.splitlines() if line.startswith("- ")]
        else:
            found.append((f"{title}\n{text}", NODE_STORE))
    return [RetrievedItem(text=text, store=store, score=float(len(found) - rank)) for rank, (text, store) in enumerate(found)]


_NODE_RE = re.compile(r"Node: (.*?)\n__node_content_start__\n(.*?)\n__node_content_end__", re.S)


def context_items(context: str) -> list[RetrievedItem]:
    """Cognee's graph context as items: each node block, then each connection line.

    The context (what Cognee's answering prompt would get) is ``Nodes:`` — blocks of
    ``Node: name`` + content — then ``Connections:``, one ``a --[rel]--> b (description)``
    per retrieved edge. Anything else comes back whole, as one item.
    """
    if "__node_content_start__" not in context and "Connections:" not in context:
        return [RetrievedItem(text=context.strip(), store=NODE_STORE)] if context.strip() else []
    found: list[tuple[str, str]] = []
    for name, content in _NODE_RE.findall(context):
        body = content.strip()
        if body in ("", "None"):  # a document node: its file name, no content
            continue
        # a chunk's title is its first words: its content says it all; an entity's is its name
        title = " ".join(name.split("...")[0].split())
        found.append((body if " ".join(body.split()).startswith(title) else f"{name}: {body}", NODE_STORE))
    connections = context.split("Connections:", 1)[1] if "Connections:" in context else ""
    for line in connections.splitlines():
        line = line.strip().rstrip("`").strip()
        if "--[" in line:
            found.append((line, EDGE_STORE))
    return [RetrievedItem(text=text, store=store, score=float(len(found) - rank)) for rank, (text, store) in enumerate(found)]


def _register() -> None:
    version = package_version(DISTRIBUTION)
    if version.startswith(SUPPORTED_SERIES):
        register(CogneeSystem)
    elif version:
        register_unavailable(
            "cognee", DESCRIPTION, f"installed cognee {version} is not the 1.6.x series: {INSTALL_HINT}", needs=NEEDS
        )
    else:
        register_unavailable("cognee", DESCRIPTION, INSTALL_HINT, needs=NEEDS)


_register()
