"""How fast the report page opens, in headless Chromium (issue 18: first paint < 1 s, page
< 3 MB for the full benchmark with three runs).

Builds a report over three run folders (default: the naive-rag, erasemem and forget-all runs
``bemula eval`` leaves in runs/eval), then loads ``index.html`` five times and prints the
page's size, its side files' sizes, and the first contentful paint the browser measured
(``performance`` API, read back from the page).

Usage::

    python benchmarks/bench_report_page.py [--runs runs/eval/naive-rag runs/eval/erasemem runs/eval/forget-all]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bemula.report.build import write_report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", nargs="+", type=Path,
                        default=[Path("runs/eval") / s for s in ("naive-rag", "erasemem", "forget-all")])
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        raise SystemExit("needs chromium")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report"
        started = time.perf_counter()
        write_report(args.runs, out, judge="rules", n_resamples=1000)
        build_s = time.perf_counter() - started
        page = out / "index.html"
        data = sorted((out / "data").iterdir())
        paints = []
        for i in range(args.loads):
            profile = Path(tmp) / f"profile{i}"
            cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   f"--user-data-dir={profile}", "--dump-dom", page.resolve().as_uri()]
            dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(profile)},
                                 check=True).stdout
            match = re.search(r'data-first-paint-ms="(\d+)"', dom)
            if match:
                paints.append(int(match.group(1)))
        runs = [p for p in data if p.name.startswith("run-")]
        print(f"report over {len(args.runs)} runs built in {build_s:.1f} s")
        print(f"index.html: {page.stat().st_size / 1e6:.2f} MB")
        print(f"data/: {len(runs)} run files, {sum(p.stat().st_size for p in runs) / 1e6:.1f} MB "
              f"(largest {max(p.stat().st_size for p in runs) / 1e6:.1f} MB); "
              f"{len(data) - len(runs)} instance files, {sum(p.stat().st_size for p in data if p not in runs) / 1e6:.1f} MB")
        if paints:
            print(f"first contentful paint over {len(paints)} loads: median {statistics.median(paints)} ms, "
                  f"max {max(paints)} ms (headless Chromium, this machine)")


if __name__ == "__main__":
    main()
