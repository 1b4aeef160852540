"""The embedded local model: llama.cpp's own OpenAI-compatible server, on loopback, in-process.

Why ``xllamacpp`` (and not ``llama-cpp-python[server]``): it is a prebuilt wheel that embeds
llama.cpp's C++ ``llama-server`` — continuous batching over parallel slots, JSON-schema
constrained output — and installs in seconds, while ``llama-cpp-python`` has no binary wheel
on the registry and builds from source in about 7.5 minutes on a 2-core machine (every fresh
CI run would pay that). Its generic x86-64 build is somewhat slower than a native build; for
the small models used here that costs less than the build would. See docs/llm.md.

The server listens on ``127.0.0.1`` only, on a free port, and is stopped (its threads joined)
when the context exits. Two ``open_llm("local")`` calls for the same weights in one process
share one server (reference counted), so ``--backbone local --judge local`` loads the model
once.
"""

from __future__ import annotations

import gc
import os
import socket
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bemula.llm.client import LLMUnavailable
from bemula.llm.weights import ResolvedWeights

DEFAULT_CONTEXT_PER_SLOT = 8192


def cpu_threads() -> int:
    """Cores this process may use (cgroup/affinity aware), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def default_threads() -> int:
    """``$BEMULA_LLAMA_THREADS``, else one core less than usable (at least 1).

    Why leave a core: llama.cpp's worker threads meet at a barrier after every op; when one of
    them is descheduled the others wait. On a 2-core machine that also runs the bemula runner
    (or anything else), 2 threads measured ~10x slower than 1 (docs/llm.md).
    """
    explicit = os.environ.get("BEMULA_LLAMA_THREADS")
    if explicit:
        return max(1, int(explicit))
    return max(1, cpu_threads() - 1)


@dataclass(frozen=True)
class ServerSettings:
    context_per_slot: int = DEFAULT_CONTEXT_PER_SLOT
    parallel: int = 4
    threads: int = field(default_factory=default_threads)


class LocalLlamaServer:
    """One running llama.cpp server for one GGUF. Use as a context manager."""

    def __init__(self, weights: ResolvedWeights, settings: ServerSettings | None = None) -> None:
        self.weights = weights
        self.settings = settings or ServerSettings()
        self._server: Any = None
        self.base_url = ""
        self.startup_s = 0.0

    def start(self) -> LocalLlamaServer:
        try:
            import xllamacpp
        except ImportError:
            raise LLMUnavailable(
                "the embedded llama.cpp server is not installed; run: pip install 'bemula[local]'"
            ) from None
        s = self.settings
        params = xllamacpp.CommonParams()
        params.model.path = str(self.weights.path)
        params.model_alias = {self.weights.label} if isinstance(params.model_alias, set) else self.weights.label
        params.hostnames = ["127.0.0.1"]
        params.port = free_loopback_port()
        params.n_parallel = s.parallel
        params.n_ctx = s.context_per_slot * s.parallel  # llama-server splits n_ctx across slots
        params.cpuparams.n_threads = s.threads
        params.cpuparams_batch.n_threads = s.threads
        params.verbosity = int(os.environ.get("BEMULA_LLAMA_VERBOSITY", "-1"))
        started = time.perf_counter()
        try:
            self._server = xllamacpp.Server(params)
        except Exception as exc:  # the binding raises plain RuntimeError/ValueError
            raise LLMUnavailable(
                f"the embedded llama.cpp server failed to start on {self.weights.path}: {exc}"
            ) from None
        self.base_url = f"{self._server.listening_address.rstrip('/')}/v1"
        self._wait_healthy()
        self.startup_s = time.perf_counter() - started
        return self

    def _wait_healthy(self, timeout_s: float = 120.0) -> None:
        root = self.base_url[: -len("/v1")]
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with urllib.request.urlopen(f"{root}/health", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise LLMUnavailable(f"the embedded llama.cpp server at {root} never became healthy")
            time.sleep(0.1)

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            del server  # the binding's destructor stops the HTTP loop and joins its threads
            gc.collect()

    def __enter__(self) -> LocalLlamaServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _SharedServers:
    """Reference-counted servers keyed by (weights path, settings), one process-wide table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._servers: dict[tuple[str, ServerSettings], tuple[LocalLlamaServer, int]] = {}

    def acquire(self, weights: ResolvedWeights, settings: ServerSettings) -> LocalLlamaServer:
        key = (str(Path(weights.path).resolve()), settings)
        with self._lock:
            if key in self._servers:
                server, count = self._servers[key]
                self._servers[key] = (server, count + 1)
                return server
            server = LocalLlamaServer(weights, settings).start()
            self._servers[key] = (server, 1)
            return server

    def release(self, server: LocalLlamaServer) -> None:
        with self._lock:
            for key, (candidate, count) in list(self._servers.items()):
                if candidate is server:
                    if count > 1:
                        self._servers[key] = (candidate, count - 1)
                        return
                    del self._servers[key]
                    break
        server.stop()


SHARED_SERVERS = _SharedServers()

__all__ = [
    "DEFAULT_CONTEXT_PER_SLOT",
    "LocalLlamaServer",
    "SHARED_SERVERS",
    "ServerSettings",
    "cpu_threads",
    "free_loopback_port",
]
