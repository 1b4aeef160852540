"""A small, fault-injecting OpenAI-compatible HTTP server on loopback, for tests.

Why a real HTTP server and not a mocked SDK: the client's retry, timeout and error paths
depend on what the ``openai`` SDK and its HTTP stack do with a 429, a dropped connection or a
body cut in half. Only real bytes on a real socket exercise those paths honestly.

Usage::

    with FakeOpenAIServer(ScriptedResponder([Fault("http429"), "hello"])) as server:
        client = LLMClient(LLMConfig(model="fake", base_url=server.base_url))
        client.chat([{"role": "user", "content": "hi"}]).text   # -> "hello" after one retry
        len(server.requests)                                   # -> 2

Endpoints: ``POST /v1/chat/completions`` (non-streaming only), ``POST /v1/embeddings``
(deterministic hashed bag-of-words vectors, so similar texts get similar vectors) and
``GET /v1/models``. Token counts are whitespace word counts, so tests can work them out by
hand: prompt tokens = words over all message contents, completion tokens = words in the
answer.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bemula.llm.embeddings import hashed_embedding

FAULT_KINDS = ("http429", "http500", "http", "hang", "truncated", "non_json", "close")


@dataclass(frozen=True)
class Fault:
    """One injected failure for one request.

    kinds:
      * ``http429`` – 429 Too Many Requests (``retry_after`` seconds sets a Retry-After header)
      * ``http500`` – 500 Internal Server Error
      * ``http`` – any other status given as ``status`` (e.g. 400, 401, 503)
      * ``hang`` – sleep ``seconds`` (default 30, past any sane client timeout), then close
      * ``truncated`` – a 200 whose JSON body stops half way (Content-Length promises more)
      * ``non_json`` – a 200 with an HTML body, as a misconfigured proxy sends
      * ``close`` – drop the connection without answering
    """

    kind: str
    status: int | None = None
    retry_after: float | None = None
    seconds: float = 30.0
    message: str = "injected fault"

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; use one of {FAULT_KINDS}")
        if self.kind == "http" and self.status is None:
            raise ValueError("Fault('http') needs a status")

    @property
    def http_status(self) -> int | None:
        if self.kind == "http429":
            return 429
        if self.kind == "http500":
            return 500
        if self.kind == "http":
            return self.status
        return None


Responder = Callable[[str, dict[str, Any]], Any]


def echo_responder(path: str, body: dict[str, Any]) -> str:
    """Default: answer ``echo: <last user message>``."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "user":
            return f"echo: {_content_text(message.get('content'))}"
    return "echo:"


class ScriptedResponder:
    """Replays ``responses`` in order, one per chat request (thread-safe).

    When the script runs out, ``then`` answers every further request; without ``then`` the
    server answers HTTP 500 ``scripted responses exhausted`` so an over-eager caller shows up
    in the test as an error rather than as a silent extra answer.
    """

    def __init__(self, responses: Sequence[Any], then: Any = None) -> None:
        self._responses = list(responses)
        self._then = then
        self._lock = threading.Lock()
        self.served = 0

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._responses) - self.served

    def __call__(self, path: str, body: dict[str, Any]) -> Any:
        with self._lock:
            if self.served < len(self._responses):
                response = self._responses[self.served]
                self.served += 1
                return response
            self.served += 1
        if self._then is not None:
            return self._then
        return Fault("http", status=500, message="scripted responses exhausted")


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def count_words(text: str) -> int:
    """The fake tokenizer: whitespace-separated words."""
    return len(text.split())


def prompt_word_count(body: dict[str, Any]) -> int:
    return sum(count_words(_content_text(m.get("content"))) for m in body.get("messages") or [])


class _BacklogHTTPServer(ThreadingHTTPServer):
    """``socketserver`` listens with a backlog of 5: with ``--concurrency 45`` the kernel
    drops or resets the connections past it, and a client without retries records an
    error the endpoint never caused. A real endpoint queues far more."""

    request_queue_size = 256


class FakeOpenAIServer:
    """A threaded OpenAI-compatible server on ``127.0.0.1:<free port>``; a context manager."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        model: str = "fake-model",
        embedding_dim: int = 64,
    ) -> None:
        self.responder: Responder = responder or echo_responder
        self.model = model
        self.embedding_dim = embedding_dim
        self.requests: list[tuple[str, dict[str, Any]]] = []
        #: per POST, in order: the raw request target (query string kept) and the headers,
        #: so tests can check what credentials and parameters actually went over the wire
        self.raw_requests: list[tuple[str, dict[str, str]]] = []
        self._requests_lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.base_url = ""

    # -- lifecycle -----------------------------------------------------------------------
    def start(self) -> FakeOpenAIServer:
        handler = _make_handler(self)
        self._httpd = _BacklogHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        port = self._httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{port}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes hanging handlers
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- inspection ----------------------------------------------------------------------
    @property
    def port(self) -> int:
        return int(self.base_url.rsplit(":", 1)[1].split("/", 1)[0])

    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of the chat-completion requests received so far."""
        with self._requests_lock:
            return [body for path, body in self.requests if path.endswith("/chat/completions")]

    def _record(self, path: str, body: dict[str, Any]) -> None:
        with self._requests_lock:
            self.requests.append((path, body))

    # -- response building ---------------------------------------------------------------
    def build_completion(self, body: dict[str, Any], response: str | dict[str, Any]) -> dict:
        """A full ``chat.completion`` object; fills ``usage`` when a dict response lacks it."""
        if isinstance(response, dict):
            completion = dict(response)
            completion.setdefault("id", f"chatcmpl-{uuid.uuid4().hex[:12]}")
            completion.setdefault("object", "chat.completion")
            completion.setdefault("created", int(time.time()))
            completion.setdefault("model", body.get("model") or self.model)
            if "usage" not in completion:
                answer_words = 0
                for choice in completion.get("choices") or []:
                    message = choice.get("message") or {}
                    answer_words += count_words(_content_text(message.get("content")))
                    for call in message.get("tool_calls") or []:
                        answer_words += count_words(
                            str((call.get("function") or {}).get("arguments", ""))
                        )
                completion["usage"] = _usage(prompt_word_count(body), answer_words)
            return completion
        text = str(response)
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:12]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": _usage(prompt_word_count(body), count_words(text)),
        }

    def build_embeddings(self, body: dict[str, Any]) -> dict[str, Any]:
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        data = [
            {"object": "embedding", "index": i, "embedding": hashed_embedding(str(t), self.embedding_dim)}
            for i, t in enumerate(texts)
        ]
        words = sum(count_words(str(t)) for t in texts)
        return {
            "object": "list",
            "data": data,
            "model": body.get("model") or self.model,
            "usage": {"prompt_tokens": words, "total_tokens": words},
        }


def _usage(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # headers and body go out in separate writes: with Nagle's algorithm on, the client's
        # delayed ACK holds the body back ~40 ms per response, which a latency benchmark would
        # charge to the harness
        disable_nagle_algorithm = True
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            pass  # keep test output clean

        # -- helpers ---------------------------------------------------------------------
        def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _send_error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
            self._send_json(
                status,
                {"error": {"message": message, "type": "fake_server_error", "code": status}},
                headers,
            )

        def _read_body(self) -> dict[str, Any]:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if not raw:
                return {}
            try:
                body = json.loads(raw)
            except json.JSONDecodeError:
                return {"_unparseable_body": raw.decode(errors="replace")}
            return body if isinstance(body, dict) else {"_body": body}

        def _drop(self) -> None:
            self.close_connection = True
            try:
                self.wfile.flush()
                self.connection.shutdown(2)
            except OSError:
                pass

        def _apply_fault(self, fault: Fault) -> None:
            status = fault.http_status
            if status is not None:
                headers = {}
                if fault.retry_after is not None:
                    headers["Retry-After"] = f"{fault.retry_after:g}"
                self._send_error(status, fault.message, headers)
                return
            if fault.kind == "hang":
                server._stopping.wait(fault.seconds)
                self._drop()
            elif fault.kind == "close":
                self._drop()
            elif fault.kind == "truncated":
                data = b'{"id": "chatcmpl-trunc", "object": "chat.completion", "choices": [{"ind'
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data) * 3))
                self.end_headers()
                self.wfile.write(data)
                self._drop()
            elif fault.kind == "non_json":
                data = b"<html><body><h1>502 Bad Gateway</h1>nginx</body></html>"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        # -- verbs -----------------------------------------------------------------------
        def do_GET(self) -> None:  # noqa: N802 - stdlib name
            path = self.path.split("?", 1)[0]
            server._record(path, {})
            if path.rstrip("/").endswith("/models"):
                self._send_json(
                    200,
                    {
                        "object": "list",
                        "data": [
                            {"id": server.model, "object": "model", "created": 0, "owned_by": "bemula-fake"}
                        ],
                    },
                )
            elif path.rstrip("/") in ("/health", "/v1/health"):
                self._send_json(200, {"status": "ok"})
            else:
                self._send_error(404, f"no route for GET {path}")

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            path = self.path.split("?", 1)[0]
            body = self._read_body()
            with server._requests_lock:
                server.raw_requests.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
            server._record(path, body)
            if path.endswith("/embeddings"):
                self._send_json(200, server.build_embeddings(body))
                return
            if not path.endswith("/chat/completions"):
                self._send_error(404, f"no route for POST {path}")
                return
            if body.get("stream"):
                self._send_error(400, "FakeOpenAIServer answers stream=false requests only")
                return
            try:
                response = server.responder(path, body)
            except Exception as exc:  # a broken responder is a test bug: say so over HTTP
                self._send_error(500, f"responder raised {type(exc).__name__}: {exc}")
                return
            if isinstance(response, Fault):
                self._apply_fault(response)
                return
            self._send_json(200, server.build_completion(body, response))

    return Handler


__all__ = [
    "FAULT_KINDS",
    "FakeOpenAIServer",
    "Fault",
    "ScriptedResponder",
    "count_words",
    "echo_responder",
]
