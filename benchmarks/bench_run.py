"""Speed of `bemula run` with the retrieval probe (issue: ≤ 60 s per system, 2 cores).

Runs each built-in system over a dataset into a fresh temporary run folder and prints:
wall time, turns ingested per second, questions answered per second, and the share of
ingestion saved by ingesting the forget/control shared prefix once (fork). Then times the
residue audit of the naive-rag run. Nothing is asserted: these are measurements.

    .venv/bin/python benchmarks/bench_run.py --data data/bemula --workers 2

The load average is printed first: other processes on the machine slow every figure.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

from bemula.audit import audit_run
from bemula.dataset import Dataset
from bemula.run.runner import RunConfig, run_benchmark


def _cpu_seconds() -> float:
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("data/bemula"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--systems", default="naive-rag,full-context")
    parser.add_argument("--lite", action="store_true")
    args = parser.parse_args()

    dataset = Dataset.open(args.data)
    ids = dataset.ids(lite=args.lite)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
        f"load average at start {os.getloadavg()[0]:.2f}"
    )
    print(f"dataset: {args.data} ({len(ids)} instances, checksum {dataset.checksum[:12]}); workers {args.workers}")
    print()
    header = (
        f"{'system':<14}{'wall s':>8}{'CPU s':>8}{'turns/s':>10}{'questions/s':>13}"
        f"{'saved by prefix':>17}{'answers':>9}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory(prefix="bemula-bench-") as tmp:
        runs = {}
        for system in [s.strip() for s in args.systems.split(",") if s.strip()]:
            out = Path(tmp) / system
            config = RunConfig(data=args.data, out=out, system=system, workers=args.workers, lite=args.lite)
            cpu_before = _cpu_seconds()
            summary = run_benchmark(config, progress=False)
            cpu = _cpu_seconds() - cpu_before
            runs[system] = out
            print(
                f"{system:<14}{summary.wall_s:>8.1f}{cpu:>8.1f}"
                f"{summary.turns_ingested / summary.wall_s:>10.0f}"
                f"{summary.questions_answered / summary.wall_s:>13.1f}"
                f"{summary.share_saved:>16.1%} "
                f"{summary.questions_answered:>9}"
            )
        print()
        print("turns/s and questions/s are end to end (each over the whole wall time, all workers);")
        print("CPU s = user+sys seconds of this process and its workers (less sensitive to other load).")
        if "naive-rag" in runs:
            start = time.perf_counter()
            audit = audit_run(runs["naive-rag"])
            print(
                f"audit of naive-rag: {time.perf_counter() - start:.1f} s, "
                f"{audit.values_with_residue}/{audit.values_protected} protected values still stored, "
                f"{audit.residues} residues"
            )
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
