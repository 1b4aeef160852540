"""Prefix-friendly order (issue 19): prompt tokens the embedded model processes vs tokens sent,
for Full Context, with questions grouped by memory state (bemula's order) or interleaved.

bemula asks every question over one memory state one after another, and the agent prompt
puts the memory first and the question last, so consecutive prompts share everything up to
the question and llama.cpp's slot cache (``cache_prompt``) reprocesses only the tail. This
script measures that on the embedded model: full-context ingests each version of the
hand-written ``tiny-a`` (and ``tiny-b``) and the agent prompts of its questions are sent to
the embedded llama.cpp server (one slot, ``max_tokens`` 1: only prompt processing is timed)

- **grouped**: every forget-version question, then every control-version question (bemula);
- **interleaved**: forget and control questions alternating (the memory changes every call),

and each answer's ``timings.prompt_n`` (tokens the server evaluated) is summed against
``usage.prompt_tokens`` (tokens sent).

Usage::

    python benchmarks/bench_prefix_order.py [--model local-0.5b] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import urllib.request
from itertools import zip_longest
from pathlib import Path
from typing import Any

from bemula.agent import build_messages
from bemula.llm.local import LocalLlamaServer, ServerSettings
from bemula.llm.weights import resolve_weights
from bemula.model import Version
from bemula.run.ingest import feed, version_steps
from bemula.run.instance import question_time
from bemula.systems.base import SystemContext, create_system
from bemula.testing.tiny import tiny_instances


def _prompts(workdir: Path) -> dict[Version, list[list[dict[str, str]]]]:
    """The agent's messages for every question, per version, over all tiny instances."""
    prompts: dict[Version, list[list[dict[str, str]]]] = {Version.FORGET: [], Version.CONTROL: []}
    for instance in tiny_instances():
        for version in (Version.FORGET, Version.CONTROL):
            system = create_system("full-context", SystemContext(workdir=workdir / instance.id / version.value,
                                                                 context_window_tokens=8192))
            system.reset()
            feed(system, version_steps(instance.dialogue(version)))
            now = question_time(instance, version)
            for q in instance.questions:
                if q.version == version:
                    prompts[version].append(build_messages(q.text, system.retrieve(q.text, now), now))
            system.close()
    return prompts


def _send(root: str, messages: list[dict[str, str]]) -> dict[str, Any]:
    body = json.dumps({"messages": messages, "max_tokens": 1, "temperature": 0, "cache_prompt": True}).encode()
    request = urllib.request.Request(f"{root}/v1/chat/completions", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.load(response)


def _measure(root: str, order: list[list[dict[str, str]]]) -> tuple[int, int, float]:
    _send(root, [{"role": "user", "content": "Say nothing."}])  # a cold slot: nothing cached to start
    sent = processed = 0
    started = time.perf_counter()
    for messages in order:
        answer = _send(root, messages)
        sent += int(answer["usage"]["prompt_tokens"])
        processed += int(answer["timings"]["prompt_n"])
    return sent, processed, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None, help="packaged model name [default: the default local model]")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        prompts = _prompts(Path(tmp))
    grouped = prompts[Version.FORGET] + prompts[Version.CONTROL]
    interleaved = [m for pair in zip_longest(prompts[Version.FORGET], prompts[Version.CONTROL]) for m in pair if m]
    weights = resolve_weights(args.model)
    with LocalLlamaServer(weights, ServerSettings(parallel=1, threads=args.threads, context_per_slot=8192)) as server:
        root = server.base_url[: -len("/v1")]
        print(f"{weights.label}, 1 slot, {args.threads} thread(s); full-context on tiny-a + tiny-b, "
              f"{len(grouped)} questions")
        print(f"{'order':<12} {'tokens sent':>11} {'processed':>10} {'share':>6} {'seconds':>8}")
        for name, order in (("interleaved", interleaved), ("grouped", grouped)):
            sent, processed, seconds = _measure(root, order)
            print(f"{name:<12} {sent:>11,} {processed:>10,} {processed / sent:>6.1%} {seconds:>8.1f}")


if __name__ == "__main__":
    main()
