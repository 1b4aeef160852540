"""Control-probe accuracy per attack frame and per suite, from judged run folders.

A forget question counts towards FE / PR / AR only when its control probe (the same text on
the control version) was answered right, so a backbone that cannot read a frame conditions
that frame's questions out and the metric silently shrinks to the frames it can read. This
script prints, for each run folder, how many control probes of each frame and suite were
answered right (rule judge by default).

Usage::

    bemula eval --data handwritten            # writes runs/eval-handwritten/<system>/
    python benchmarks/bench_probe_frames.py runs/eval-handwritten/naive-rag [more run folders]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bemula.judge.pipeline import load_instances
from bemula.metrics.items import item_rows
from bemula.metrics.probes import probe_accuracy
from bemula.runfolder.folder import RunFolder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--judge", default="rules")
    args = parser.parse_args()
    for run in args.runs:
        print(f"{run}  (judge: {args.judge})")
        folder = RunFolder.open(run)
        rows = item_rows(load_instances(folder).values(), folder.verdicts(args.judge))
        for acc in probe_accuracy(rows):
            print(f"  {acc.group:<22} {acc.right:>4}/{acc.judged:<4} {acc.rate:5.1f}%")


if __name__ == "__main__":
    main()
