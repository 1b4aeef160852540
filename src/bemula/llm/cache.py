"""A persistent request cache in SQLite: same request, same answer, zero network calls.

Why SQLite: one file, no server, safe for several threads and several processes at once when
the journal is in WAL mode (readers never block the writer) and a busy timeout absorbs the
brief write locks. Each thread gets its own connection because a ``sqlite3.Connection`` must
not be shared across threads without a lock around every use.

Rows hold the request (messages and generation settings, never a key or header) and the
answer. The key is a SHA-256 over a canonical JSON of everything that changes the answer —
see :func:`request_key`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key         TEXT PRIMARY KEY,
    model       TEXT NOT NULL,
    endpoint    TEXT NOT NULL,
    request     TEXT NOT NULL,
    response    TEXT NOT NULL,
    latency_s   REAL NOT NULL,
    created_at  REAL NOT NULL,
    hits        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS responses_model ON responses(model, endpoint);
"""


def default_cache_dir() -> Path:
    """``$BEMULA_CACHE_DIR``, else ``$XDG_CACHE_HOME/bemula``, else ``~/.cache/bemula``."""
    explicit = os.environ.get("BEMULA_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg).expanduser() / "bemula"
    return Path.home() / ".cache" / "bemula"


def default_cache_path() -> Path:
    return default_cache_dir() / "llm-cache.sqlite"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(endpoint: str, request: dict[str, Any]) -> str:
    """SHA-256 over the endpoint identity and the full request (model, messages, settings)."""
    payload = canonical_json({"v": SCHEMA_VERSION, "endpoint": endpoint, "request": request})
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedResponse:
    response: dict[str, Any]
    latency_s: float


class RequestCache:
    """Key → answer store. Thread-safe; process-safe through SQLite's WAL locking."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # it holds whole prompts (users' dialogue): owner-only, like an ssh key. SQLite gives
        # its -wal/-shm files the database file's mode.
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        os.chmod(self.path, 0o600)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._connections_lock = threading.Lock()
        conn = self._conn()
        with conn:
            conn.executescript(_SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=30000")
            self._local.conn = conn
            with self._connections_lock:
                self._connections.append(conn)
        return conn

    def get(self, key: str) -> CachedResponse | None:
        conn = self._conn()
        row = conn.execute(
            "SELECT response, latency_s FROM responses WHERE key = ?", (key,)
        ).fetchone()
        if row is None:
            return None
        with conn:
            conn.execute("UPDATE responses SET hits = hits + 1 WHERE key = ?", (key,))
        return CachedResponse(response=json.loads(row[0]), latency_s=float(row[1]))

    def put(
        self,
        key: str,
        *,
        model: str,
        endpoint: str,
        request: dict[str, Any],
        response: dict[str, Any],
        latency_s: float,
    ) -> None:
        conn = self._conn()
        with conn:
            conn.execute(
                "INSERT OR REPLACE INTO responses"
                " (key, model, endpoint, request, response, latency_s, created_at, hits)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                (
                    key,
                    model,
                    endpoint,
                    canonical_json(request),
                    canonical_json(response),
                    latency_s,
                    time.time(),
                ),
            )

    def summary(self) -> dict[str, Any]:
        """Rows and lifetime hits, overall and per (model, endpoint); file size in bytes."""
        conn = self._conn()
        groups = [
            {"model": m, "endpoint": e, "rows": n, "hits": h or 0}
            for m, e, n, h in conn.execute(
                "SELECT model, endpoint, COUNT(*), SUM(hits) FROM responses"
                " GROUP BY model, endpoint ORDER BY COUNT(*) DESC"
            )
        ]
        size = sum(
            p.stat().st_size
            for p in (self.path, Path(f"{self.path}-wal"))
            if p.exists()
        )
        return {
            "path": str(self.path),
            "rows": sum(g["rows"] for g in groups),
            "hits": sum(g["hits"] for g in groups),
            "bytes": size,
            "by_model": groups,
        }

    def clear(self, model: str | None = None) -> int:
        """Delete all rows (or one model's); returns how many went."""
        conn = self._conn()
        with conn:
            if model is None:
                cursor = conn.execute("DELETE FROM responses")
            else:
                cursor = conn.execute("DELETE FROM responses WHERE model = ?", (model,))
        return cursor.rowcount

    def rows(self) -> list[dict[str, Any]]:
        """Every row as a dict (for inspection and tests)."""
        conn = self._conn()
        cursor = conn.execute(
            "SELECT key, model, endpoint, request, response, latency_s, created_at, hits FROM responses"
        )
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor]

    def close(self) -> None:
        with self._connections_lock:
            for conn in self._connections:
                try:
                    conn.close()
                except sqlite3.ProgrammingError:
                    pass
            self._connections.clear()
        self._local = threading.local()


__all__ = [
    "CachedResponse",
    "RequestCache",
    "canonical_json",
    "default_cache_dir",
    "default_cache_path",
    "request_key",
]
