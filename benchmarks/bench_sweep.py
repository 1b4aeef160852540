"""A 2 × 2 sweep against its slowest cell alone (issue 19): the grid costs less than two cells.

Two built-in systems (``--systems``, default full-context and erasemem) × two datasets (the
edition-2 benchmark generated with seeds 0 and 1), Lite, probe backbone, rule judge, each
cell run, judged, audited and reported as ``bemula sweep`` does. First every cell alone (a
one-cell sweep, report included), then the whole grid with ``parallel = 2``. Target: the
grid in under 2 × the slowest cell alone.

Usage::

    python benchmarks/bench_sweep.py [--systems full-context,erasemem] [--parallel 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from bemula.generate.editions import generate
from bemula.sweep import SweepConfig, run_sweep


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="full-context,erasemem")
    parser.add_argument("--parallel", type=int, default=2)
    args = parser.parse_args()
    systems = args.systems.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        datasets = []
        for seed in (0, 1):
            path = Path(tmp) / f"bemula-seed{seed}"
            generate(seed, path, lite=True)
            datasets.append(str(path))
        print(f"probe backbone, Lite, {len(systems)} systems × {len(datasets)} datasets; {os.cpu_count()} CPUs here")
        alone = {}
        for dataset in datasets:
            for system in systems:
                config = SweepConfig(out=Path(tmp) / "alone" / f"{Path(dataset).name}-{system}", systems=[system],
                                     datasets=[dataset], lite=True)
                started = time.perf_counter()
                run_sweep(config)
                alone[(dataset, system)] = time.perf_counter() - started
                print(f"  alone: {Path(dataset).name} / {system}: {alone[(dataset, system)]:.1f} s")
        config = SweepConfig(out=Path(tmp) / "grid", systems=systems, datasets=datasets, lite=True,
                             parallel=args.parallel)
        started = time.perf_counter()
        result = run_sweep(config)
        grid = time.perf_counter() - started
        slowest = max(alone.values())
        print(f"grid (parallel = {args.parallel}): {grid:.1f} s; slowest cell alone {slowest:.1f} s; "
              f"sum of cells alone {sum(alone.values()):.1f} s; grid / slowest = {grid / slowest:.2f} (target < 2)")
        assert all(o.status == "done" for o in result.outcomes), [o.message for o in result.outcomes]


if __name__ == "__main__":
    main()
