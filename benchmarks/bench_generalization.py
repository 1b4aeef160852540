"""The built-in systems on the generated benchmark beside the hand-written set.

The generated benchmark is templated; the hand-written set (``--data handwritten``) is
dialogue no system was fitted to. A system whose figures hold on the first and collapse on
the second has learned the templates. This script runs ``bemula.evaluate()`` (retrieval-probe
backbone, rule judge) on both and prints one table: per system and dataset, Score, RA, FE,
PR, RL, AR and the request pass rate, with the number of requests and questions behind them.

Usage::

    python benchmarks/bench_generalization.py [--out runs/generalization] [--generated data/bemula]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import bemula
from bemula.metrics.compute import RunScores

METRICS = ("score", "RA", "FE", "PR", "RL", "AR", "pass")


def _cell(scores: RunScores, name: str) -> str:
    metric = scores.get(name)
    value = metric.value if metric is not None else None
    return "    –" if value is None else f"{value:5.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("runs/generalization"))
    parser.add_argument("--generated", default="data/bemula")
    args = parser.parse_args()
    rows = []
    for label, data in (("generated", args.generated), ("handwritten", "handwritten")):
        result = bemula.evaluate(data=data, out=args.out / label, resamples=200, report=False)
        print(f"{label}: bemula.evaluate(data={data!r}) in {result.wall_s:.1f} s", file=sys.stderr)
        for run in result.scored:
            assert run.scores is not None
            rows.append((run.system, label, run.scores))
    print(f"{'system':<14} {'data':<12} " + " ".join(f"{m:>5}" for m in METRICS))
    for system, label, scores in sorted(rows, key=lambda r: (r[0], r[1])):
        n = f"  ({len(scores.requests)} requests, {len(scores.instance_ids)} instances)"
        print(f"{system:<14} {label:<12} " + " ".join(_cell(scores, m) for m in METRICS) + n)


if __name__ == "__main__":
    main()
