"""Concurrency that fills an endpoint (issue 19): answering throughput against the bundled fake
server with a fixed latency, for --concurrency 1 … 32.

The server sleeps ``--latency`` seconds per chat request (200 ms by default) and answers in a
thread of its own, like an endpoint with many parallel slots. naive-rag answers the first
instances of the hand-written set (one worker process, so all overlap comes from
``--concurrency``). Printed per N: requests per latency period (the target is ≥ 0.9 × N up to
N = 32) and, at N = 1, what the harness adds to the time the endpoint itself takes.

Usage::

    python benchmarks/bench_concurrency.py [--latency 0.2] [--instances 6]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from bemula.dataset import Dataset, resolve_data
from bemula.run.runner import RunConfig, run_benchmark
from bemula.testing.fake_server import FakeOpenAIServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--instances", type=int, default=6)
    parser.add_argument("--levels", default="1,2,4,8,16,32")
    args = parser.parse_args()
    data = resolve_data("handwritten")
    ids = Dataset.open(data).ids()[: args.instances]

    def slow(path: str, body: dict) -> str:
        time.sleep(args.latency)
        return "I don't have that information."

    print(f"fake endpoint, {args.latency * 1000:.0f} ms per request; naive-rag on {len(ids)} hand-written instances")
    print(f"{'N':>3} {'requests':>8} {'answer s':>9} {'req/latency':>11} {'/ N':>6}")
    with FakeOpenAIServer(slow) as server, tempfile.TemporaryDirectory() as tmp:
        for n in [int(x) for x in args.levels.split(",")]:
            out = Path(tmp) / f"run-{n}"
            config = RunConfig(data=data, out=out, system="naive-rag", backbone="openai", model="fake-model",
                               base_url=server.base_url, llm_cache=Path(tmp) / f"cache-{n}.sqlite",
                               llm_options={"max_retries": 0}, instances=ids, concurrency=n)
            before = len(server.chat_requests())
            summary = run_benchmark(config, progress=False)
            requests = len(server.chat_requests()) - before
            per_period = requests / summary.answer_s * args.latency
            print(f"{n:>3} {requests:>8} {summary.answer_s:>9.2f} {per_period:>11.2f} {per_period / n:>6.2f}")
            if n == 1:
                endpoint_s = requests * args.latency
                print(f"    N = 1: the endpoint's own time {endpoint_s:.2f} s; the harness adds "
                      f"{100 * (summary.answer_s - endpoint_s) / endpoint_s:.2f}% (retrieval, prompt, HTTP, records)")


if __name__ == "__main__":
    main()
