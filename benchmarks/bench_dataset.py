"""Speed of the dataset pipeline: full offline generation and validation.

Usage: .venv/bin/python benchmarks/bench_dataset.py [--seed N] [--out DIR] [--repeat K]
       [--edition 1|2] [--split dev|test]

Prints wall-clock and CPU seconds for ``generate_benchmark`` (the whole 50-instance
benchmark, written to disk) and, when ``bemula.validate.validate_dataset`` is available,
for validating the written folder. Targets (issue #2): generate <= 60 s, validate <= 15 s
on 2 cores; edition 2 (issue #15): generate <= 120 s, and the fidelity figures of
`bemula stats` are printed after it. CPU time is printed too because a shared machine
inflates wall time.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from pathlib import Path


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="folder to write (default: a temporary one)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--edition", type=int, default=2, choices=(1, 2))
    parser.add_argument("--split", default="test", choices=("dev", "test"))
    args = parser.parse_args()

    from bemula.generate.editions import generate

    def generate_benchmark(seed: int, out: Path):
        return generate(seed, out, edition=args.edition, split=args.split if args.edition == 2 else "test")

    target = 60 if args.edition == 1 else 120

    try:
        from bemula.validate import validate_dataset
    except ImportError:  # validator not installed in this checkout
        validate_dataset = None

    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "bemula"
        for run in range(args.repeat):
            manifest, wall, cpu = _timed(lambda: generate_benchmark(args.seed, out))
            counts = manifest.counts
            print(f"generate (run {run + 1}): {wall:6.1f} s wall, {cpu:6.1f} s CPU  "
                  f"[{len(manifest.instances)} instances, {counts.get('turns_per_version')} turns/version, "
                  f"{counts.get('questions')} questions]  target <= {target} s")
            if validate_dataset is not None:
                report, wall, cpu = _timed(lambda: validate_dataset(out))
                ok = getattr(report, "ok", None)
                n = len(report) if isinstance(report, list) else len(getattr(report, "violations", []) or [])
                print(f"validate (run {run + 1}): {wall:6.1f} s wall, {cpu:6.1f} s CPU  "
                      f"[ok={ok if ok is not None else n == 0}, {n} violations]  target <= 15 s")
            else:
                print("validate: bemula.validate.validate_dataset not available; skipped")
            if args.edition == 2 and run == 0:
                from bemula.dataset import Dataset
                from bemula.fidelity import fidelity_stats

                figures, wall, cpu = _timed(lambda: fidelity_stats(list(Dataset.open(out)), out))
                print(f"fidelity ({wall:.1f} s): " + ", ".join(f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
