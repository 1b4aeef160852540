"""``graphiti``: Zep's Graphiti (``graphiti-core`` 0.31.x) on the embedded graph store Kuzu.

Graphiti builds a temporal knowledge graph from *episodes*. Each ``add_episode`` extracts
entities (LLM), resolves them against the graph (exact names first, then an LLM dedupe
prompt), extracts fact triples between them (LLM), and resolves each new fact against the
facts that share its endpoints and the facts a hybrid search finds for it: one LLM prompt
answers which are duplicates and which the new fact *contradicts*. A contradicted fact is
never deleted: it gets ``invalid_at`` (when it stopped being true) and ``expired_at`` and
stays in the graph, where search still finds it. Entity summaries grow by appending the new
facts' text. Episodes keep the raw dialogue text. So a forget request can at best invalidate
an edge; the value stays in the edge, in the summaries and in the episodes — the stores
``dump()`` hands to the residue audit (invalidated edges in a store of their own).

Wiring, and why:

* **Store**: Kuzu in ``<workdir>/graphiti/graph.kuzu`` (no server). Graphiti's
  ``KuzuDriver.build_indices_and_constraints`` is a no-op, yet its search queries Kuzu's
  full-text indexes, so the adapter creates them on a fresh database with Graphiti's own
  Kuzu index statements (``graph_ops.build_indices_and_constraints``).
* **LLM**: ``OpenAIGenericClient`` (plain ``/chat/completions``, what local servers speak;
  Graphiti's ``OpenAIClient`` uses the Responses API) on the backbone's endpoint, with the
  backbone's model as both the medium and the small model, temperature 0. Structured output
  is Graphiti's default ``json_schema`` (``-o structured_output=json_object`` for servers
  without it). Calls and tokens are counted from the HTTP answers.
* **Embeddings**: Graphiti's ``OpenAIEmbedder`` on the shared embedding endpoint; the
  reranker (unused by the search below, built anyway so nothing reaches api.openai.com) on
  the backbone's endpoint.
* **Feeding**: one ``message`` episode per turn (``"user: …"`` / ``"assistant: …"``), as
  Graphiti's conversation examples do, with the turn's time as ``reference_time``;
  ``-o episode=session`` sends a whole session as one episode at ``end_session``.
* **Retrieval**: Graphiti's basic edge search (hybrid BM25 + cosine, RRF), Graphiti's
  default of 10 facts, each with its validity window — invalidated facts included, as
  Graphiti returns them. Called through ``search_`` with a *copy* of the recipe:
  ``Graphiti.search`` writes its ``num_results`` into the shared module-level recipe, which
  ingestion also uses for its duplicate search. The question loses Kuzu's full-text
  wildcards first (:func:`kuzu_safe_query`).
* **Async**: Graphiti is async; every coroutine runs on one private event loop in a thread
  of its own, so the HTTP clients stay bound to one loop and callers inside a running loop
  still work.
* **Telemetry** is off (``GRAPHITI_TELEMETRY_ENABLED=false``, read at each event).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import re
import shutil
import threading
from collections.abc import Coroutine
from datetime import UTC, datetime
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

DISTRIBUTION = "graphiti-core"
SUPPORTED_SERIES = "0.31."
INSTALL_HINT = "pip install 'bemula[graphiti]'  (graphiti-core[kuzu]==0.31.2, kuzu==0.11.3, httpx)"
DESCRIPTION = "Graphiti (graphiti-core 0.31.x) on Kuzu: temporal knowledge graph; contradicted facts invalidated"
NEEDS = "LLM backbone with JSON output + embeddings"
TELEMETRY_ENV = "GRAPHITI_TELEMETRY_ENABLED"
#: Graphiti's default number of facts per search (``DEFAULT_SEARCH_LIMIT``)
DEFAULT_TOP_K = 10
DB_FILE = "graph.kuzu"
SOURCE_DESCRIPTION = "conversation between the user and their assistant"

EDGE_STORE = "graphiti.edges"
INVALIDATED_EDGE_STORE = "graphiti.edges_invalidated"
NODE_STORE = "graphiti.nodes"
EPISODE_STORE = "graphiti.episodes"
COMMUNITY_STORE = "graphiti.communities"
SAGA_STORE = "graphiti.sagas"
PENDING_STORE = "graphiti.pending_turns"

T = TypeVar("T")


class GraphitiOptions(EmbeddingTopKOptions):
    episode: Literal["turn", "session"] = Field(
        default="turn", description="one add_episode per turn, or per session (at end_session)"
    )
    structured_output: Literal["json_schema", "json_object"] = Field(
        default="json_schema", description="how Graphiti asks the endpoint for JSON"
    )
    max_tokens: int | None = Field(
        default=None, ge=16,
        description="cap on every LLM call's completion tokens (Graphiti asks for up to 16,384, "
                    "which a small local model may spend on one call)",
    )


def _cap_completion_tokens(client: Any, cap: int) -> None:
    """Every chat call of ``client`` asks for at most ``cap`` completion tokens: some of
    Graphiti's steps pass 16,384 themselves (edge extraction), past the client's setting."""
    create = client.chat.completions.create

    async def capped(*args: Any, **kwargs: Any) -> Any:
        for key in ("max_tokens", "max_completion_tokens"):
            if key in kwargs and kwargs[key] is not None:
                kwargs[key] = min(int(kwargs[key]), cap)
        return await create(*args, **kwargs)

    client.chat.completions.create = capped


def graphiti_installed() -> bool:
    """Graphiti, Kuzu and httpx (imported by graphiti-core without declaring it) are here."""
    return bool(package_version(DISTRIBUTION) and package_version("kuzu") and package_version("httpx"))


class _LoopThread:
    """A private event loop in a daemon thread: runs Graphiti's coroutines one at a time.

    Why not ``asyncio.run`` per call: the async OpenAI clients bind their connection pools to
    the first loop that uses them; a fresh loop per call breaks them on the second call.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="graphiti-loop", daemon=True)
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result()

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        self.loop.close()


class _HttpCounter:
    """Counts the package's chat completions (calls, tokens) and embedding requests.

    Graphiti's generic client has no usage callback, so an httpx response hook reads the
    ``usage`` block of each ``/chat/completions`` answer, as ``counting_openai_client`` does.
    """

    def __init__(self, usage: UsageCounter) -> None:
        self.usage = usage
        self.embedding_calls = 0

    async def on_response(self, response: Any) -> None:
        path = response.request.url.path
        if response.status_code != 200:
            return
        if path.endswith("/embeddings"):
            self.embedding_calls += 1
            return
        if not path.endswith("/chat/completions"):
            return
        await response.aread()
        try:
            block = json.loads(response.content).get("usage") or {}
        except ValueError:
            block = {}
        self.usage.add(block.get("prompt_tokens"), block.get("completion_tokens"))


def _utc(when: datetime) -> datetime:
    """Turn timestamps are naive (read as UTC): Graphiti compares timezone-aware datetimes."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _naive(when: Any) -> datetime | None:
    """Kuzu hands back naive timestamps, Graphiti's fresh objects aware ones: one form out."""
    if not isinstance(when, datetime):
        return None
    return when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo is not None else when


def _when(value: Any) -> str:
    when = _naive(value)
    return when.strftime("%Y-%m-%d %H:%M") if when is not None else ""


def _load_llama_cpp_first() -> None:
    """Load the embedded model's library (when installed) before Kuzu's.

    Why: with kuzu 0.11.3's native library loaded first, importing ``xllamacpp`` aborts the
    process (``std::bad_alloc`` while loading it; the other order works). A run of Graphiti
    on an endpoint followed, in the same process, by anything on the embedded model (an
    LLM judge, ``bemula eval``) would die without a word. Loading it first costs one import.
    """
    try:
        import xllamacpp  # noqa: F401
    except ImportError:
        pass


def kuzu_safe_query(question: str) -> str:
    """The question without Kuzu's full-text wildcards (``?``, ``*``, ``\\``).

    On Neo4j Graphiti escapes Lucene syntax; its Kuzu path passes the raw text to
    ``QUERY_FTS_INDEX``, where a term ending in ``?`` is a wildcard that matches nothing —
    every question would lose its BM25 half. Dropping them changes nothing else.
    """
    return " ".join(re.sub(r"[?*\\]", " ", question).split())


def edge_text(fact: str, valid_at: Any, invalid_at: Any) -> str:
    """A fact with its validity window, as Zep's context template shows it to a model."""
    start, end = _when(valid_at), _when(invalid_at)
    if not start and not end:
        return fact
    return f"{fact} (valid {start or 'unknown'} to {end or 'present'})"


class GraphitiSystem(MemorySystem):
    """Graphiti on Kuzu, fed one ``message`` episode per turn (or per session).

    Options: ``top_k`` (facts per question; default Graphiti's 10), ``episode``
    (``turn``/``session``), ``structured_output`` (``json_schema``/``json_object``),
    ``embedding_*`` (see ``common``).
    """

    name: ClassVar[str] = "graphiti"
    description: ClassVar[str] = DESCRIPTION
    supports_fork: ClassVar[bool] = True
    requires_llm: ClassVar[bool] = True
    needs: ClassVar[str] = NEEDS
    Options: ClassVar[type[SystemOptions]] = GraphitiOptions
    #: one episode at a time (LLM calls are sequential); tiny-a peaked at ~380 MB RSS. Kuzu's
    #: buffer pool may grow up to its default cap (80% of RAM): KuzuDriver does not expose it
    resources: ClassVar[dict[str, float]] = {"num_cpus": 1.0, "memory_gb": 1.0}

    def __init__(self, context: SystemContext, *, _keep_store: bool = False) -> None:
        super().__init__(context)
        self.chat: Endpoint = chat_endpoint(context, self.name)
        self.embedder: EmbeddingEndpoint = embedding_endpoint(context, self.name)
        options = GraphitiOptions(**context.options)
        self.top_k = options.top_k or DEFAULT_TOP_K
        self.episode_unit = options.episode
        self.structured_output = options.structured_output
        self.max_tokens = options.max_tokens
        self.usage = UsageCounter()
        self._counter = _HttpCounter(self.usage)
        self.episodes_added = 0
        self.edges_invalidated = 0
        self._pending: list[TurnEvent] = []
        self._loop = _LoopThread()
        self._graphiti: Any = None
        self._clients: list[Any] = []
        if not _keep_store:
            fresh_dir(self.store_dir)
        self._open()

    # -- paths and wiring ----------------------------------------------------------------
    @property
    def store_dir(self) -> Path:
        return Path(self.context.workdir) / "graphiti"

    @property
    def db_path(self) -> Path:
        return self.store_dir / DB_FILE

    def _async_client(self, base_url: str, api_key: str) -> Any:
        """An ``AsyncOpenAI`` whose answers are counted (kept, to be closed with the store)."""
        import openai

        client = openai.AsyncOpenAI(
            base_url=base_url,
            api_key=api_key,
            max_retries=2,
            http_client=openai.DefaultAsyncHttpxClient(event_hooks={"response": [self._on_response]}),
        )
        self._clients.append(client)
        return client

    async def _on_response(self, response: Any) -> None:
        # looked up per answer: a fork swaps in its own copy of the counter
        await self._counter.on_response(response)

    def _open(self) -> None:
        os.environ[TELEMETRY_ENV] = "false"
        try:
            self._graphiti = self._loop.run(self._build())
        except ImportError as exc:
            raise SystemUnavailable(f"graphiti cannot be imported ({exc}): {INSTALL_HINT}") from exc

    async def _build(self) -> Any:
        """Graphiti on a Kuzu file, every client on the run's endpoints (inside the loop)."""
        import warnings

        from graphiti_core import Graphiti
        from graphiti_core.cross_encoder.openai_reranker_client import OpenAIRerankerClient
        _load_llama_cpp_first()
        from graphiti_core.driver.kuzu_driver import KuzuDriver
        from graphiti_core.embedder.openai import OpenAIEmbedder, OpenAIEmbedderConfig
        from graphiti_core.llm_client.config import DEFAULT_MAX_TOKENS, LLMConfig
        from graphiti_core.llm_client.openai_generic_client import OpenAIGenericClient

        fresh = not self.db_path.exists()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # "Kuzu backend is deprecated"
            driver = KuzuDriver(db=str(self.db_path))
        if fresh:
            await driver.graph_ops.build_indices_and_constraints(driver)
        config = LLMConfig(
            api_key=self.chat.api_key,
            model=self.chat.model,
            small_model=self.chat.model,
            base_url=self.chat.base_url,
            temperature=0,
            max_tokens=self.max_tokens or DEFAULT_MAX_TOKENS,
        )
        chat_client = self._async_client(self.chat.base_url, self.chat.api_key)
        if self.max_tokens:
            _cap_completion_tokens(chat_client, self.max_tokens)
        embedder = OpenAIEmbedder(
            OpenAIEmbedderConfig(
                embedding_model=self.embedder.model,
                embedding_dim=self.embedder.dims,
                api_key=self.embedder.api_key,
                base_url=self.embedder.base_url,
            ),
            client=self._async_client(self.embedder.base_url, self.embedder.api_key),
        )
        return Graphiti(
            graph_driver=driver,
            llm_client=OpenAIGenericClient(config, client=chat_client, structured_output_mode=self.structured_output,
                                           max_tokens=self.max_tokens or DEFAULT_MAX_TOKENS),
            embedder=embedder,
            cross_encoder=OpenAIRerankerClient(config, client=chat_client),
        )

    def _close_graphiti(self) -> None:
        """Close Kuzu (a checkpoint: the file is complete on disk) and the HTTP clients."""
        if self._graphiti is None:
            return
        driver = self._graphiti.driver
        clients, self._clients = self._clients, []

        async def shutdown() -> None:
            for client in clients:
                await client.close()
            driver.client.close()
            driver.db.close()

        self._loop.run(shutdown())
        self._graphiti = None

    # -- protocol ------------------------------------------------------------------------
    def reset(self) -> None:
        self._close_graphiti()
        fresh_dir(self.store_dir)
        self._pending = []
        self._open()

    def ingest(self, turn: TurnEvent) -> None:
        if self.episode_unit == "session":
            self._pending.append(turn)
            return
        self._add_episode([turn])

    def end_session(self, session_id: str) -> None:
        turns, self._pending = self._pending, []
        if turns:
            self._add_episode(turns)

    def _add_episode(self, turns: list[TurnEvent]) -> None:
        body = "\n".join(f"{t.role}: {t.text}" for t in turns)
        name = f"{turns[0].session_id}-{self.episodes_added + 1:04d}"
        result = self._loop.run(
            self._graphiti.add_episode(
                name=name,
                episode_body=body,
                source_description=SOURCE_DESCRIPTION,
                reference_time=_utc(turns[0].timestamp),
            )
        )
        self.episodes_added += 1
        self.edges_invalidated += sum(1 for e in result.edges if e.invalid_at is not None)

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        from graphiti_core.search.search_config_recipes import EDGE_HYBRID_SEARCH_RRF

        config = EDGE_HYBRID_SEARCH_RRF.model_copy(deep=True, update={"limit": self.top_k})
        results = self._loop.run(self._graphiti.search_(kuzu_safe_query(question), config=config))
        return [
            RetrievedItem(
                text=edge_text(edge.fact, edge.valid_at, edge.invalid_at),
                score=float(score),
                store=INVALIDATED_EDGE_STORE if edge.invalid_at is not None else EDGE_STORE,
                id=edge.uuid,
                timestamp=_naive(edge.valid_at),
            )
            for edge, score in zip(results.edges, _scores(results.edge_reranker_scores, len(results.edges)))
        ]

    # -- the audit's view ----------------------------------------------------------------
    def dump(self) -> list[StoreRecord]:
        """Every entity (name, summary, attributes), every fact — invalidated ones in a store
        of their own — every episode's raw text, communities, sagas and pending turns."""
        return (
            self._edge_records()
            + self._node_records()
            + self._episode_records()
            + self._named_records("Community", COMMUNITY_STORE, "n.summary")
            + self._named_records("Saga", SAGA_STORE, "''")
            + [
                StoreRecord(store=PENDING_STORE, id=f"pending-{i}", text=f"{t.role}: {t.text}")
                for i, t in enumerate(self._pending)
            ]
        )

    def _query(self, cypher: str) -> list[dict[str, Any]]:
        records, _, _ = self._loop.run(self._graphiti.driver.execute_query(cypher))
        return list(records)

    def _edge_records(self) -> list[StoreRecord]:
        rows = self._query(
            """
            MATCH (e:RelatesToNode_)
            OPTIONAL MATCH (a:Entity)-[:RELATES_TO]->(e)-[:RELATES_TO]->(b:Entity)
            RETURN e.uuid AS uuid, e.name AS name, e.fact AS fact, e.valid_at AS valid_at,
                   e.invalid_at AS invalid_at, e.expired_at AS expired_at, e.attributes AS attributes,
                   a.name AS source, b.name AS target
            ORDER BY e.created_at, e.uuid
            """
        )
        records = []
        for row in rows:
            invalid = row["invalid_at"] is not None or row["expired_at"] is not None
            parts = [
                f"{row['source']} -[{row['name']}]-> {row['target']}: {row['fact']}",
                f"valid_at={_when(row['valid_at']) or '-'}",
                f"invalid_at={_when(row['invalid_at']) or '-'}",
                f"expired_at={_when(row['expired_at']) or '-'}",
            ]
            if row["attributes"] not in (None, "", "{}"):
                parts.append(f"attributes={row['attributes']}")
            store = INVALIDATED_EDGE_STORE if invalid else EDGE_STORE
            records.append(StoreRecord(store=store, id=str(row["uuid"]), text=" | ".join(parts)))
        return records

    def _node_records(self) -> list[StoreRecord]:
        rows = self._query(
            "MATCH (n:Entity) RETURN n.uuid AS uuid, n.name AS name, n.summary AS summary, "
            "n.attributes AS attributes ORDER BY n.created_at, n.uuid"
        )
        records = []
        for row in rows:
            text = f"{row['name']}: {row['summary'] or ''}".strip()
            if row["attributes"] not in (None, "", "{}"):
                text += f" | attributes={row['attributes']}"
            records.append(StoreRecord(store=NODE_STORE, id=str(row["uuid"]), text=text))
        return records

    def _episode_records(self) -> list[StoreRecord]:
        rows = self._query(
            "MATCH (n:Episodic) RETURN n.uuid AS uuid, n.name AS name, n.content AS content, "
            "n.valid_at AS valid_at ORDER BY n.valid_at, n.created_at, n.uuid"
        )
        return [
            StoreRecord(
                store=EPISODE_STORE,
                id=str(row["uuid"]),
                text=f"[{row['name']} {_when(row['valid_at'])}] {row['content'] or ''}",
            )
            for row in rows
        ]

    def _named_records(self, label: str, store: str, summary: str) -> list[StoreRecord]:
        rows = self._query(f"MATCH (n:{label}) RETURN n.uuid AS uuid, n.name AS name, {summary} AS summary")
        return [
            StoreRecord(store=store, id=str(row["uuid"]), text=f"{row['name']}: {row['summary'] or ''}".strip())
            for row in rows
        ]

    # -- fork, close, stats --------------------------------------------------------------
    def fork(self) -> GraphitiSystem:
        """A copy of the Kuzu file in a new folder, opened by a second Graphiti."""
        workdir = fork_workdir(Path(self.context.workdir))
        self._close_graphiti()  # checkpoints Kuzu: copy a complete, quiet file
        try:
            shutil.copytree(self.store_dir, workdir / "graphiti")
        finally:
            self._open()
        context = dataclasses.replace(self.context, workdir=workdir, options=dict(self.context.options))
        other = GraphitiSystem(context, _keep_store=True)
        other._pending = list(self._pending)
        other.usage = self.usage.copy()
        other._counter = _HttpCounter(other.usage)
        other._counter.embedding_calls = self._counter.embedding_calls
        other.episodes_added = self.episodes_added
        other.edges_invalidated = self.edges_invalidated
        return other

    def close(self) -> None:
        self._close_graphiti()
        self._loop.stop()

    def stats(self) -> dict[str, Any]:
        return {
            **self.usage.snapshot(),
            "embedding_calls": self._counter.embedding_calls,
            "episodes_added": self.episodes_added,
            "edges_invalidated": self.edges_invalidated,
            "graphiti_version": package_version(DISTRIBUTION),
            "kuzu_version": package_version("kuzu"),
        }

    @classmethod
    def package_version(cls) -> str:
        return package_version(DISTRIBUTION)


def _scores(scores: list[float], count: int) -> list[float]:
    """RRF scores per edge (Graphiti leaves the list empty for some rerankers)."""
    return list(scores) + [0.0] * (count - len(scores)) if len(scores) < count else list(scores[:count])


def _register() -> None:
    version = package_version(DISTRIBUTION)
    if version.startswith(SUPPORTED_SERIES) and graphiti_installed():
        register(GraphitiSystem)
    elif version and not version.startswith(SUPPORTED_SERIES):
        register_unavailable(
            "graphiti",
            DESCRIPTION,
            f"installed graphiti-core {version} is not the 0.31.x series the adapter drives: {INSTALL_HINT}",
            needs=NEEDS,
        )
    else:
        register_unavailable("graphiti", DESCRIPTION, INSTALL_HINT, needs=NEEDS)


_register()
