"""The run's one embedding model, served as an OpenAI-compatible ``/v1/embeddings`` on loopback.

Why a server: SPEC §2 wants one fixed embedding model for every system, and each package
only knows how to call an embedding *endpoint* (mem0's and LightMem's ``openai`` embedders)
or a model of its own choice downloaded from the hub. Serving :func:`make_embedder`'s model
(all-MiniLM-L6-v2 from a registry package, or ``$BEMULA_EMBEDDER``) on ``127.0.0.1`` lets
every adapter point its package at the same vectors, with nothing downloaded. One server
per process, started on first use, stopped at exit.
"""

from __future__ import annotations

import atexit
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_LOCK = threading.Lock()
_SERVER: LocalEmbeddingServer | None = None


class LocalEmbeddingServer:
    """A threaded ``/v1/embeddings`` server over one :class:`bemula.llm.embeddings.Embedder`."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder
        self.requests = 0
        self._lock = threading.Lock()
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self._thread.start()

    @property
    def model(self) -> str:
        return str(getattr(self.embedder, "name", "local"))

    @property
    def dims(self) -> int:
        return int(self.embedder.dim)

    def embed(self, texts: list[str]) -> list[list[float]]:
        with self._lock:  # the numpy/torch model is not made for concurrent calls
            self.requests += 1
            return [[float(x) for x in row] for row in self.embedder.embed(texts)]

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _make_handler(server: LocalEmbeddingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "request body is not JSON"}})
                return
            if not self.path.rstrip("/").endswith("/embeddings"):
                self._send(404, {"error": {"message": f"no route for POST {self.path}"}})
                return
            inputs = body.get("input")
            texts = [inputs] if isinstance(inputs, str) else [str(t) for t in inputs or []]
            vectors = server.embed(texts)
            words = sum(len(t.split()) for t in texts)
            self._send(
                200,
                {
                    "object": "list",
                    "model": server.model,
                    "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
                    "usage": {"prompt_tokens": words, "total_tokens": words},
                },
            )

    return Handler


def shared_embedding_server() -> LocalEmbeddingServer:
    """The process's server over ``make_embedder()`` (started on first call)."""
    global _SERVER
    with _LOCK:
        if _SERVER is None:
            from bemula.llm.embeddings import make_embedder

            _SERVER = LocalEmbeddingServer(make_embedder())
            atexit.register(_SERVER.stop)
        return _SERVER
