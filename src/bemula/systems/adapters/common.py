"""What every third-party adapter shares: where its LLM and embeddings live, per-instance
folders, usage counting, turn buffering and the SQLite dump used by the residue audit.

Why one place: SPEC §2 wants every system on the *same* endpoint as the backbone and *one*
embedding model for all systems. Each package has its own way to be pointed at an
OpenAI-compatible server (a config dict, environment variables, a LangChain model); the
adapters translate one :class:`Endpoint` and one :class:`EmbeddingEndpoint` into those.
"""

from __future__ import annotations

import importlib.metadata
import shutil
import sqlite3
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import Field

from bemula.systems.base import StoreRecord, SystemContext, SystemOptions, SystemUnavailable, TurnEvent

#: Embedding settings come from ``--option embedding_*=…`` first, then these variables.
EMBED_BASE_URL_ENV = "BEMULA_EMBED_BASE_URL"
EMBED_MODEL_ENV = "BEMULA_EMBED_MODEL"
EMBED_API_KEY_ENV = "BEMULA_EMBED_API_KEY"
EMBED_DIMS_ENV = "BEMULA_EMBED_DIMS"
DEFAULT_EMBED_MODEL = "text-embedding-3-small"
#: The OpenAI SDK refuses an empty key; local servers ignore whatever is sent.
NO_KEY = "no-key"


def package_version(distribution: str) -> str:
    """The installed version of ``distribution``, or "" when it is not installed."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return ""


@dataclass(frozen=True)
class Endpoint:
    """The backbone's OpenAI-compatible chat endpoint, as the package must see it."""

    base_url: str
    model: str
    api_key: str = field(default=NO_KEY, repr=False)


@dataclass(frozen=True)
class EmbeddingEndpoint:
    """The one OpenAI-compatible ``/embeddings`` endpoint every adapter uses."""

    base_url: str
    model: str
    dims: int
    api_key: str = field(default=NO_KEY, repr=False)


class EmbeddingOptions(SystemOptions):
    """The options every adapter takes: the shared embedding endpoint (``embedding_endpoint``)."""

    embedding_base_url: str | None = Field(default=None, description="OpenAI-compatible /embeddings endpoint")
    embedding_model: str | None = Field(default=None, description="its model name")
    embedding_dims: int | None = Field(default=None, ge=1, description="its vector size (probed when unset)")


class EmbeddingTopKOptions(EmbeddingOptions):
    top_k: int | None = Field(default=None, ge=1, description="memories retrieved per question")


def chat_endpoint(context: SystemContext, system: str) -> Endpoint:
    """The run's backbone endpoint; a system that needs an LLM cannot run without one."""
    if context.llm is None:
        raise SystemUnavailable(
            f"{system} needs an LLM backbone: run with --backbone local, or --base-url URL --model NAME"
        )
    config = context.llm.config
    return Endpoint(base_url=config.base_url, model=config.model, api_key=config.api_key or NO_KEY)


_DIMS_CACHE: dict[tuple[str, str], int] = {}
_DIMS_LOCK = threading.Lock()


def embedding_endpoint(context: SystemContext, system: str) -> EmbeddingEndpoint:
    """The shared embedding endpoint every adapter uses.

    ``--option embedding_base_url=…`` (or ``$BEMULA_EMBED_BASE_URL``) names an
    OpenAI-compatible ``/embeddings`` endpoint; its model is ``embedding_model`` /
    ``$BEMULA_EMBED_MODEL`` and its vector size is probed once unless ``embedding_dims`` /
    ``$BEMULA_EMBED_DIMS`` says it. Without one, the run's local embedding model
    (:func:`bemula.llm.embeddings.make_embedder`, all-MiniLM-L6-v2 by default) is served on
    loopback by :mod:`bemula.systems.adapters.embedding_server` — the same model the dense
    index uses, so every system sees the same vectors (SPEC §2).
    """
    import os

    options = context.options
    base_url = options.get("embedding_base_url") or os.environ.get(EMBED_BASE_URL_ENV)
    if not base_url:
        return _local_embedding_endpoint(system)
    base_url = str(base_url)
    model = str(options.get("embedding_model") or os.environ.get(EMBED_MODEL_ENV) or DEFAULT_EMBED_MODEL)
    api_key = os.environ.get(EMBED_API_KEY_ENV) or NO_KEY
    if context.llm is not None and context.llm.config.base_url == base_url and context.llm.config.api_key:
        api_key = os.environ.get(EMBED_API_KEY_ENV) or context.llm.config.api_key
    dims_setting = options.get("embedding_dims") or os.environ.get(EMBED_DIMS_ENV)
    dims = int(dims_setting) if dims_setting else probe_embedding_dims(base_url, model, api_key)
    return EmbeddingEndpoint(base_url=base_url, model=model, dims=dims, api_key=api_key)


def _local_embedding_endpoint(system: str) -> EmbeddingEndpoint:
    from bemula.llm.embeddings import EmbedderUnavailable
    from bemula.systems.adapters.embedding_server import shared_embedding_server

    try:
        server = shared_embedding_server()
    except EmbedderUnavailable as exc:
        raise SystemUnavailable(
            f"{system} needs embeddings: {exc}; or set {EMBED_BASE_URL_ENV} to an OpenAI-compatible "
            "/embeddings endpoint"
        ) from None
    return EmbeddingEndpoint(base_url=server.base_url, model=server.model, dims=server.dims)


def probe_embedding_dims(base_url: str, model: str, api_key: str) -> int:
    """Ask the endpoint for one vector and return its length (cached per URL and model)."""
    key = (base_url, model)
    with _DIMS_LOCK:
        if key in _DIMS_CACHE:
            return _DIMS_CACHE[key]
    import openai

    from bemula.llm.client import redact_url

    client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=2, timeout=60)
    try:
        vector = client.embeddings.create(input=["dimension probe"], model=model).data[0].embedding
    except openai.OpenAIError as exc:
        raise SystemUnavailable(
            f"no embeddings at {redact_url(base_url)} (model {model!r}): {type(exc).__name__}; "
            f"set {EMBED_BASE_URL_ENV} / {EMBED_MODEL_ENV} to an OpenAI-compatible /embeddings endpoint"
        ) from None
    finally:
        client.close()
    with _DIMS_LOCK:
        _DIMS_CACHE[key] = len(vector)
    return len(vector)


class UsageCounter:
    """Thread-safe count of the package's own LLM calls and tokens (for ``stats()``).

    The packages call the endpoint with their own clients, so the backbone client's counters
    never see these calls; each adapter feeds this from the package's callback hook.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    def add(self, prompt_tokens: int | None, completion_tokens: int | None) -> None:
        with self._lock:
            self.calls += 1
            self.prompt_tokens += int(prompt_tokens or 0)
            self.completion_tokens += int(completion_tokens or 0)

    def add_openai_response(self, response: Any) -> None:
        """Count one ``ChatCompletion`` (its ``usage`` may be missing on some servers)."""
        usage = getattr(response, "usage", None)
        self.add(getattr(usage, "prompt_tokens", 0), getattr(usage, "completion_tokens", 0))

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return {
                "llm_calls": self.calls,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
            }

    def copy(self) -> UsageCounter:
        other = UsageCounter()
        other.calls, other.prompt_tokens, other.completion_tokens = (
            self.calls,
            self.prompt_tokens,
            self.completion_tokens,
        )
        return other


def counting_openai_client(base_url: str, api_key: str, usage: UsageCounter, **kwargs: Any) -> Any:
    """An ``openai.OpenAI`` client that counts every chat completion it receives into ``usage``.

    For packages that take (or let us replace) their OpenAI client but offer no callback: an
    HTTP response hook reads the ``usage`` block of each ``/chat/completions`` answer. A
    streamed answer is counted as a call without tokens (its body must not be consumed here).
    """
    import openai

    def on_response(response: Any) -> None:
        if not response.request.url.path.endswith("/chat/completions") or response.status_code != 200:
            return
        if "text/event-stream" in response.headers.get("content-type", ""):
            usage.add(0, 0)
            return
        response.read()
        try:
            block = response.json().get("usage") or {}
        except ValueError:
            block = {}
        usage.add(block.get("prompt_tokens"), block.get("completion_tokens"))

    http_client = openai.DefaultHttpxClient(event_hooks={"response": [on_response]})
    return openai.OpenAI(base_url=base_url, api_key=api_key, http_client=http_client, **kwargs)


class EmbeddingClient:
    """Embeds texts through the shared OpenAI-compatible ``/embeddings`` endpoint.

    Packages that would load their own sentence-transformers model (SimpleMem, A-MEM) get
    this instead, so every system uses the one embedding model of the run (SPEC §2) and
    nothing is downloaded at run time. Vectors are L2-normalised, as those packages expect.
    """

    def __init__(self, endpoint: EmbeddingEndpoint, batch_size: int = 64) -> None:
        import openai

        self.endpoint = endpoint
        self.batch_size = batch_size
        self.calls = 0
        self._client = openai.OpenAI(base_url=endpoint.base_url, api_key=endpoint.api_key, max_retries=3)

    @property
    def dims(self) -> int:
        return self.endpoint.dims

    def embed(self, texts: list[str]) -> list[list[float]]:
        import math

        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = [t.replace("\n", " ") or " " for t in texts[start : start + self.batch_size]]
            response = self._client.embeddings.create(input=batch, model=self.endpoint.model)
            self.calls += 1
            for item in sorted(response.data, key=lambda d: d.index):
                norm = math.sqrt(sum(v * v for v in item.embedding)) or 1.0
                vectors.append([v / norm for v in item.embedding])
        return vectors

    def close(self) -> None:
        self._client.close()


class ExchangeBuffer:
    """Groups live turns into exchanges (a user turn and the assistant's replies).

    Most packages are built to be fed one exchange at a time (``memory.add(messages)``), not
    single turns: an exchange is complete when the next user turn arrives or the session
    ends. The buffer is a store too — ``dump()`` must show turns not yet handed over.
    """

    def __init__(self) -> None:
        self.turns: list[TurnEvent] = []

    def push(self, turn: TurnEvent) -> list[TurnEvent] | None:
        """Add ``turn``; returns the exchange it completes, if any, to hand to the package."""
        ready: list[TurnEvent] | None = None
        if turn.role == "user" and any(t.role == "assistant" for t in self.turns):
            ready, self.turns = self.turns, []
        self.turns.append(turn)
        return ready

    def flush(self) -> list[TurnEvent] | None:
        ready, self.turns = self.turns, []
        return ready or None

    def records(self, store: str) -> list[StoreRecord]:
        return [
            StoreRecord(store=store, id=f"pending-{i}", text=f"{t.role}: {t.text}")
            for i, t in enumerate(self.turns)
        ]


def fresh_dir(path: Path) -> Path:
    """Empty ``path`` (created if missing) — a package's store folder for one instance."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def fork_workdir(workdir: Path) -> Path:
    """A new folder for a forked copy of a system, inside ``workdir`` (``forks/fork-XXXX``).

    Inside, not beside: the runner removes an instance's work folder when it is done, and
    the forks must go with it.
    """
    forks = workdir / "forks"
    forks.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="fork-", dir=forks))


def sqlite_records(path: Path, store_prefix: str) -> list[StoreRecord]:
    """Every row of every table of a SQLite file as text, one record per row.

    Used for history and metadata tables: the audit must see a deleted memory's text wherever
    the package wrote it, so nothing is filtered — every non-empty column goes into the text.
    """
    if not path.exists():
        return []
    records: list[StoreRecord] = []
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        for table in tables:
            cursor = connection.execute(f'SELECT * FROM "{table}"')
            columns = [d[0] for d in cursor.description]
            for number, row in enumerate(cursor):
                parts = [f"{col}={val}" for col, val in zip(columns, row, strict=True) if val not in (None, "")]
                row_id = str(row[columns.index("id")]) if "id" in columns else str(number)
                records.append(StoreRecord(store=f"{store_prefix}.{table}", id=row_id, text=" | ".join(parts)))
    finally:
        connection.close()
    return records
