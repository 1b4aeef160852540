"""Print how long ``bemula validate`` takes on a dataset folder (issue #2: <= 15 s on 2 cores
for the full benchmark). Validation is single-process and streams one instance at a time,
so the figure is one core's time and the peak memory stays that of the largest instance.
CPU time is printed beside wall time because a shared machine inflates the latter.

    .venv/bin/python benchmarks/validate_speed.py [DIR]     # default: data/bemula
"""

from __future__ import annotations

import os
import platform
import resource
import sys
import time
from pathlib import Path

from bemula.validate import validate_dataset


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "data/bemula")
    if not (root / "manifest.json").is_file():
        print(f"{root}: no manifest.json — run `bemula generate --seed 0 --out {root}` first", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in root.rglob("*.json"))
    started, cpu_started = time.perf_counter(), time.process_time()
    report = validate_dataset(root)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"dataset: {root} ({report.instances} instances, {report.turns_per_version} turns per version, "
          f"{report.questions} questions, {size / 2**20:.1f} MiB)")
    print(f"validate: {seconds:.2f} s wall, {cpu:.2f} s CPU ({2 * report.turns_per_version / seconds:,.0f} turns/s), "
          f"peak RSS {peak_mib:.0f} MiB, {len(report.violations)} violation(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
