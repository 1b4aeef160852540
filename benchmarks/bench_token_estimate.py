"""How well does ``bemula.agent.item_tokens`` estimate what a memory line really costs?

full-context fills the backbone's window with raw history using a tokenizer-free estimate
(``item_tokens``). If the estimate is low, the prompt overflows the server's slot; if it is
high, history is cut that would have fit. This script formats every turn of some instances
exactly as the agent prompt does (``format_item``), asks the embedded llama.cpp server's
``/tokenize`` endpoint for the real count, and prints real vs estimated tokens.

    python benchmarks/bench_token_estimate.py --data data/bemula --model local-1.5b \
        --instances bemula-short-01,bemula-medium-01
"""

from __future__ import annotations

import argparse
import json
import urllib.request
from pathlib import Path

from bemula.agent import format_item, item_tokens
from bemula.dataset import read_instance_file
from bemula.llm.local import LocalLlamaServer, ServerSettings
from bemula.llm.weights import resolve_weights
from bemula.systems.base import RetrievedItem


def real_tokens(root: str, text: str) -> int:
    request = urllib.request.Request(
        f"{root}/tokenize", data=json.dumps({"content": text}).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return len(json.load(response)["tokens"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/bemula")
    parser.add_argument("--model", default="local-1.5b")
    parser.add_argument("--instances", default="bemula-short-01")
    args = parser.parse_args()
    weights = resolve_weights(args.model)
    with LocalLlamaServer(weights, ServerSettings(parallel=1, threads=1)) as server:
        root = server.base_url[: -len("/v1")]
        print(f"tokenizer: {weights.label}")
        print("| instance | lines | real tokens | estimate | estimate / real | worst line real/est |")
        print("|---|---|---|---|---|---|")
        for name in args.instances.split(","):
            instance = read_instance_file(Path(args.data) / "instances" / f"{name}.json")
            real = est = 0
            worst = 0.0
            lines = 0
            for _, turn in instance.forget.iter_turns():
                item = RetrievedItem(text=f"{turn.role}: {turn.text}", store="history", timestamp=turn.timestamp)
                lines += 1
                # "\n" joins lines in the prompt: count it with the line
                r = real_tokens(root, format_item(lines, item) + "\n")
                e = item_tokens(item)
                real += r
                est += e
                worst = max(worst, r / e)
            print(f"| {name} | {lines} | {real:,} | {est:,} | {est / real:.2f} | {worst:.2f} |")


if __name__ == "__main__":
    main()
