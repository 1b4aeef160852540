"""Concurrency that fills an endpoint (issue 19): answering throughput against the bundled fake
server with a fixed latency, for --concurrency 1 … 32.

The server runs in a process of its own (as an endpoint would: its HTTP work does not share
the run's interpreter), sleeps ``--latency`` seconds per chat request (200 ms by default) and
answers each request in a thread, like an endpoint with many parallel slots. naive-rag
answers the hand-written set in one worker process, so all overlap comes from
``--concurrency``; each N gets a fresh LLM cache, so every distinct prompt is sent once.

Printed per N:
- ``wall s``: ``bemula run`` from start to end (validation, ingest, retrieval, answers, records);
- ``busy s``: from the endpoint's first request in to its last answer out;
- requests per latency period over the busy span (target ≥ 0.9 × N up to N = 32) and over
  the wall time (the same, less the fixed start: validation and the first ingest);
- at N = 1, what the harness adds: against the endpoint's own time (requests × latency),
  and against the same endpoint called by a bare loop of ``openai`` SDK calls (``--bare``
  requests, one after another) -- the floor any Python client pays on this machine: waking
  two processes from a sleep and one HTTP round trip per request.

Usage::

    python benchmarks/bench_concurrency.py [--latency 0.2] [--instances 0 (all)] [--levels 1,2,4,8,16,32]
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing as mp
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from bemula.dataset import Dataset, resolve_data
from bemula.run.runner import RunConfig, run_benchmark
from bemula.testing.fake_server import FakeOpenAIServer


def _slow(latency: float, spans: list[tuple[float, float]], lock: threading.Lock, path: str, body: dict[str, Any]) -> str:
    start = time.time()
    time.sleep(latency)
    with lock:
        spans.append((start, time.time()))
    return "I don't have that information."


def _serve(latency: float, conn: Connection) -> None:
    """The endpoint's process: answers ``spans`` (requests, first in, last out) and ``stop``."""
    spans: list[tuple[float, float]] = []
    lock = threading.Lock()
    with FakeOpenAIServer(functools.partial(_slow, latency, spans, lock)) as server:
        conn.send(server.base_url)
        while (command := conn.recv()) != "stop":
            if command == "spans":
                with lock:
                    taken, spans[:] = list(spans), []
                conn.send((len(taken), min(s for s, _ in taken), max(e for _, e in taken)) if taken else (0, 0.0, 0.0))


def _bare_loop(base_url: str, count: int) -> float:
    """Seconds per request of plain sequential SDK calls (no bemula code in the loop)."""
    import openai

    client = openai.OpenAI(base_url=base_url, api_key="no-key", max_retries=0)
    messages: list[Any] = [{"role": "user", "content": "What is my dog called?"}]
    client.chat.completions.create(model="fake-model", messages=messages)  # connect
    started = time.perf_counter()
    for _ in range(count):
        client.chat.completions.create(model="fake-model", messages=messages)
    took = (time.perf_counter() - started) / count
    client.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--instances", type=int, default=0, help="first N instances (0: all)")
    parser.add_argument("--levels", default="1,2,4,8,16,32")
    parser.add_argument("--bare", type=int, default=200, help="requests of the bare SDK loop (0: skip)")
    args = parser.parse_args()
    data = resolve_data("handwritten")
    ids = Dataset.open(data).ids()[: args.instances or None]

    here, there = mp.get_context("spawn").Pipe()
    endpoint = mp.get_context("spawn").Process(target=_serve, args=(args.latency, there), daemon=True)
    endpoint.start()
    base_url = here.recv()
    print(f"fake endpoint in its own process, {args.latency * 1000:.0f} ms per request; "
          f"naive-rag on {len(ids)} hand-written instances")
    print(f"{'N':>3} {'requests':>8} {'wall s':>7} {'busy s':>7} {'req/latency (busy)':>18} {'/ N':>5} "
          f"{'req/latency (wall)':>18} {'/ N':>5}")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n in [int(x) for x in args.levels.split(",")]:
                config = RunConfig(data=data, out=Path(tmp) / f"run-{n}", system="naive-rag", backbone="openai",
                                   model="fake-model", base_url=base_url, llm_cache=Path(tmp) / f"cache-{n}.sqlite",
                                   llm_options={"max_retries": 0}, instances=ids, concurrency=n)
                summary = run_benchmark(config, progress=False)
                here.send("spans")
                requests, first, last = here.recv()
                busy = last - first
                per_busy = requests / busy * args.latency
                per_wall = requests / summary.wall_s * args.latency
                print(f"{n:>3} {requests:>8} {summary.wall_s:>7.2f} {busy:>7.2f} {per_busy:>18.2f} {per_busy / n:>5.2f} "
                      f"{per_wall:>18.2f} {per_wall / n:>5.2f}")
                if n == 1:
                    endpoint_s = requests * args.latency
                    print(f"    N = 1: the endpoint's own time {endpoint_s:.2f} s; the harness adds "
                          f"{100 * (summary.wall_s - endpoint_s) / endpoint_s:.2f}% to it over the whole run, "
                          f"{100 * (busy - endpoint_s) / endpoint_s:.2f}% while answering")
                    if args.bare:
                        bare_s = _bare_loop(base_url, args.bare) * requests
                        here.send("spans")  # the bare loop's requests are not the next level's
                        here.recv()
                        print(f"    N = 1: a bare openai SDK loop would take {bare_s:.2f} s for {requests} requests; "
                              f"bemula adds {100 * (summary.wall_s - bare_s) / bare_s:.2f}% to it over the whole run, "
                              f"{100 * (busy - bare_s) / bare_s:.2f}% while answering")
    finally:
        here.send("stop")
        endpoint.join(10)


if __name__ == "__main__":
    main()
