"""Local processes against Ray (issue 19): wall time of the same run under both executors.

Probe backbone, the full default benchmark (generated with seed 0 into a temporary folder
unless ``--data`` names one), each built-in system run with ``--workers 2`` locally and with
``--executor ray`` twice: on a local Ray of 2 CPUs that the run starts and stops itself
(``ray.init()``, so Ray's start-up and shutdown, about 4.7 s here, are counted), and on a Ray
that is already running (``ray start --head --num-cpus 2``, then ``--ray-address``), as on a
lab's cluster. Target: Ray within 15% of local. The answers must be the same as local's.

Runs of 10-20 s on a small shared machine vary by a third between identical runs, so with
``--repeat N`` the three variants run in turn N times (local, ray, cluster, local, ...; a
slow spell then hits all three) and the table shows the median of each, with the ratios of
the medians and the range of the per-round ratios.

Usage::

    python benchmarks/bench_executors.py [--data DIR] [--systems full-context,naive-rag,erasemem] [--workers 2]
                                         [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import read_answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--systems", default="full-context,naive-rag,erasemem")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--lite", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data
        if data is None:
            from bemula.generate.editions import generate

            data = Path(tmp) / "data"
            generate(0, data, lite=args.lite)
        print(f"probe backbone, {data}{' (lite)' if args.lite else ''}; --workers {args.workers}; "
              f"{os.cpu_count()} CPUs here")
        print(f"{'system':<14} {'local s':>8} {'ray s':>8} {'ray/local':>16} {'cluster s':>9} "
              f"{'cluster/local':>16}  answers")
        ray_cli = str(Path(sys.executable).with_name("ray"))
        for system in args.systems.split(","):
            walls: dict[str, list[float]] = {"local": [], "ray": [], "cluster": []}
            for _ in range(args.repeat):
                for variant in walls:
                    out = Path(tmp) / f"{system}-{variant}"
                    shutil.rmtree(out, ignore_errors=True)  # a fresh run each round, never a resume
                    config = RunConfig(data=data, out=out, system=system, workers=args.workers, lite=args.lite,
                                       executor="local" if variant == "local" else "ray")
                    if variant == "cluster":
                        subprocess.run([ray_cli, "start", "--head", "--num-cpus", str(args.workers),
                                        "--include-dashboard=false", "--disable-usage-stats"],
                                       check=True, capture_output=True)
                        config.ray_address = "auto"
                    try:
                        walls[variant].append(run_benchmark(config, progress=False).wall_s)
                    finally:
                        if variant == "cluster":
                            subprocess.run([ray_cli, "stop", "--force"], capture_output=True)
            a = read_answers(Path(tmp) / f"{system}-local" / "answers.jsonl")
            same = all(
                set(a) == set(b) and all(a[k].answer == b[k].answer for k in a)
                for b in (read_answers(Path(tmp) / f"{system}-{v}" / "answers.jsonl") for v in ("ray", "cluster"))
            )
            median = {v: statistics.median(w) for v, w in walls.items()}
            print(f"{system:<14} {median['local']:>8.1f} {median['ray']:>8.1f} {_ratio(walls, 'ray'):>16} "
                  f"{median['cluster']:>9.1f} {_ratio(walls, 'cluster'):>16}  "
                  f"{'same' if same else 'DIFFERENT'} ({len(a)})")


def _ratio(walls: dict[str, list[float]], variant: str) -> str:
    """The ratio of the medians, then (over several rounds) the range of the per-round ratios."""
    ratio = statistics.median(walls[variant]) / statistics.median(walls["local"])
    per_round = [x / y for x, y in zip(walls[variant], walls["local"], strict=True)]
    return f"{ratio:.2f}" + (f" ({min(per_round):.2f}-{max(per_round):.2f})" if len(per_round) > 1 else "")


if __name__ == "__main__":
    main()
