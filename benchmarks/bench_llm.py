"""LLM client figures: overhead per call vs raw HTTP, throughput at concurrency 1/2/4 against
the embedded local server, and a repeated run served from the cache (0 network calls).

    .venv/bin/python benchmarks/bench_llm.py                 # 0.5B, all sections
    .venv/bin/python benchmarks/bench_llm.py --model local-1.5b --calls 8

Needs the ``local`` extra for the local-server sections (the fake-server overhead section runs
anyway). Prints a plain-text report; nothing is asserted. Speed depends on the machine and on
whatever else is running: the report prints the core count and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bemula.llm.cache import RequestCache
from bemula.llm.client import LLMClient, LLMConfig
from bemula.testing.fake_server import FakeOpenAIServer

QUESTIONS = [
    "Name a fruit that is yellow.",
    "What colour is the sky on a clear day?",
    "How many legs does a spider have?",
    "What is the opposite of cold?",
    "Name a planet in our solar system.",
    "What do bees make?",
    "Which animal says moo?",
    "What is frozen water called?",
    "Name a musical instrument with strings.",
    "What is the capital of Italy?",
    "How many days are in a week?",
    "What do plants need from the sun?",
]


def raw_post(base_url: str, body: dict) -> dict:
    request = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer no-key"},
    )
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.loads(response.read())


def overhead(base_url: str, model: str, calls: int, max_tokens: int) -> tuple[float, float]:
    """Median seconds per call: raw urllib POST vs LLMClient.chat (no cache), interleaved."""
    client = LLMClient(LLMConfig(model=model, base_url=base_url, concurrency=1))
    messages = [{"role": "user", "content": QUESTIONS[0]}]
    body = {"model": model, "messages": messages, "temperature": 0.0, "max_tokens": max_tokens}
    raw_post(base_url, body)  # warm both paths (connection, server prompt cache)
    client.chat(messages, max_tokens=max_tokens)
    raw_times, client_times = [], []
    for _ in range(calls):
        started = time.perf_counter()
        raw_post(base_url, body)
        raw_times.append(time.perf_counter() - started)
        started = time.perf_counter()
        client.chat(messages, max_tokens=max_tokens)
        client_times.append(time.perf_counter() - started)
    client.close()
    return statistics.median(raw_times), statistics.median(client_times)


def throughput(client: LLMClient, questions: list[str], concurrency: int, max_tokens: int) -> dict:
    def ask(question: str):
        return client.chat([{"role": "user", "content": question}], max_tokens=max_tokens)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        results = list(pool.map(ask, questions))
    elapsed = time.perf_counter() - started
    tokens = sum(r.completion_tokens for r in results)
    return {
        "calls": len(results),
        "seconds": elapsed,
        "calls_per_s": len(results) / elapsed,
        "completion_tok_per_s": tokens / elapsed,
        "mean_latency_s": statistics.mean(r.latency_s for r in results),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="local-0.5b", help="local-0.5b or local-1.5b")
    parser.add_argument("--calls", type=int, default=8, help="calls per throughput run")
    parser.add_argument("--max-tokens", type=int, default=24)
    parser.add_argument("--overhead-calls", type=int, default=5)
    parser.add_argument("--skip-local", action="store_true", help="fake-server overhead only")
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")

    print("\n== client overhead vs raw HTTP, fake server (server time ~0) ==")
    with FakeOpenAIServer() as server:
        raw_s, client_s = overhead(server.base_url, "fake", 200, args.max_tokens)
    print(f"raw urllib POST   : {raw_s * 1e3:7.2f} ms/call (median of 200)")
    print(f"LLMClient.chat    : {client_s * 1e3:7.2f} ms/call")
    print(f"client overhead   : {(client_s - raw_s) * 1e3:7.2f} ms/call")

    if args.skip_local:
        return 0
    try:
        import xllamacpp  # noqa: F401
    except ImportError:
        print("\n(local sections skipped: the 'local' extra is not installed)")
        return 0

    from bemula.llm.local import SHARED_SERVERS, ServerSettings
    from bemula.llm.weights import resolve_weights

    weights = resolve_weights(args.model)
    started = time.perf_counter()
    server = SHARED_SERVERS.acquire(weights, ServerSettings(parallel=4))
    print(f"\nlocal server: {weights.label}, 4 slots, {server.settings.threads} threads, "
          f"started in {time.perf_counter() - started:.1f} s")
    try:
        print(f"\n== client overhead vs raw HTTP, local server ({args.max_tokens} max tokens) ==")
        raw_s, client_s = overhead(server.base_url, weights.label, args.overhead_calls, args.max_tokens)
        print(f"raw urllib POST   : {raw_s:7.3f} s/call (median of {args.overhead_calls})")
        print(f"LLMClient.chat    : {client_s:7.3f} s/call")
        print(f"client overhead   : {(client_s - raw_s) * 1e3:7.1f} ms/call "
              f"({(client_s - raw_s) / raw_s * 100:+.1f}%, within noise when tiny)")

        print(f"\n== throughput, {args.calls} distinct calls, {args.max_tokens} max tokens, no cache ==")
        print(f"{'concurrency':>11} {'seconds':>8} {'calls/s':>8} {'gen tok/s':>10} {'mean latency':>13}")
        questions = (QUESTIONS * ((args.calls // len(QUESTIONS)) + 1))[: args.calls]
        for concurrency in (1, 2, 4):
            # a different suffix per run so llama.cpp's prompt cache does not favour later runs
            asked = [f"{q} (run {concurrency})" for q in questions]
            client = LLMClient(LLMConfig(model=weights.label, base_url=server.base_url, concurrency=concurrency))
            row = throughput(client, asked, concurrency, args.max_tokens)
            client.close()
            print(f"{concurrency:>11} {row['seconds']:>8.2f} {row['calls_per_s']:>8.2f} "
                  f"{row['completion_tok_per_s']:>10.1f} {row['mean_latency_s']:>12.2f}s")

        print("\n== repeated run through the request cache ==")
        with tempfile.TemporaryDirectory() as folder:
            cache = RequestCache(Path(folder) / "cache.sqlite")
            config = LLMConfig(model=weights.label, base_url=server.base_url, concurrency=4,
                               cache_namespace=f"local-gguf:sha256:{weights.sha256}")
            for run in ("first", "second"):
                client = LLMClient(config, cache)
                row = throughput(client, questions, 4, args.max_tokens)
                stats = client.stats()
                client.close()
                print(f"{run:>6} run: {row['seconds']:7.3f} s, network calls {stats['requests']}, "
                      f"cache hits {stats['cache_hits']}, misses {stats['cache_misses']}")
            cache.close()
    finally:
        SHARED_SERVERS.release(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
