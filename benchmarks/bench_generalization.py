"""The built-in systems on the generated benchmark beside the hand-written set.

The generated benchmark is templated; the hand-written set (``--data handwritten``) is
dialogue no system was fitted to. A system whose figures hold on the first and collapse on
the second has learned the templates. This script runs ``bemula eval`` (retrieval-probe
backbone, rule judge) on both and prints one table: per system and dataset, Score, RA, FE,
PR, RL, AR and the request pass rate, with the number of requests and questions behind them.

Usage::

    python benchmarks/bench_generalization.py [--out runs/generalization] [--generated data/bemula]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from bemula.judge.runfolder import RunFolder
from bemula.metrics.compute import RunScores
from bemula.metrics.run import score_run

METRICS = ("score", "RA", "FE", "PR", "RL", "AR", "pass")


def _eval(data: str, out: Path) -> float:
    started = time.perf_counter()
    bemula = Path(sys.executable).with_name("bemula")  # the CLI of this interpreter's install
    subprocess.run([str(bemula), "eval", "--data", data, "--out", str(out), "-q",
                    "--resamples", "200"], check=False, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


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
        out = args.out / label
        wall = _eval(data, out)
        print(f"{label}: bemula eval --data {data} in {wall:.1f} s", file=sys.stderr)
        for run in sorted(p for p in out.iterdir() if (p / "meta.json").is_file()):
            scores = score_run(RunFolder.open(run), "rules", n_resamples=200)
            rows.append((run.name, label, scores))
    print(f"{'system':<14} {'data':<12} " + " ".join(f"{m:>5}" for m in METRICS))
    for system, label, scores in sorted(rows, key=lambda r: (r[0], r[1])):
        n = f"  ({len(scores.requests)} requests, {len(scores.instance_ids)} instances)"
        print(f"{system:<14} {label:<12} " + " ".join(_cell(scores, m) for m in METRICS) + n)


if __name__ == "__main__":
    main()
