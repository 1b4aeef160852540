"""Print the robustness table of docs/robustness.md: every corrupt or hostile dataset kind
(``bemula.testing.corrupt.KINDS``), what ``bemula validate`` says first, what ``bemula run``
says, and the totals (refused, tracebacks, hangs, writes outside the run folder).

    .venv/bin/python benchmarks/bench_hardening.py [--markdown]
"""

from __future__ import annotations

import signal
import sys
import tempfile
import time
from pathlib import Path

from bemula.dataset import DatasetError
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.testing.corrupt import KINDS
from bemula.testing.tiny import write_tiny_dataset
from bemula.validate import validate_dataset


def _snapshot(base: Path) -> set[str]:
    return {str(p.relative_to(base)) for p in base.rglob("*") if not p.is_relative_to(base / "run")}


def _alarm(signum, frame):  # noqa: ARG001
    raise TimeoutError


def main() -> None:
    markdown = "--markdown" in sys.argv
    signal.signal(signal.SIGALRM, _alarm)
    totals = {"kinds": 0, "refused": 0, "tracebacks": 0, "hangs": 0, "outside_writes": 0}
    rows = []
    started = time.perf_counter()
    for name in sorted(KINDS):
        totals["kinds"] += 1
        with tempfile.TemporaryDirectory() as tmp:
            base = Path(tmp)
            data = base / "data"
            write_tiny_dataset(data)
            KINDS[name](data)
            signal.alarm(30)
            try:
                report = validate_dataset(data)
                first = report.violations[0] if report.violations else None
                before = _snapshot(base)
                try:
                    run_benchmark(RunConfig(data=data, out=base / "run", system="naive-rag"), progress=False)
                    said = "RAN (not refused)"
                except (RunError, DatasetError) as exc:
                    totals["refused"] += 1
                    said = str(exc)
                except TimeoutError:
                    raise
                except Exception as exc:  # noqa: BLE001 - counted: this is what must not happen
                    totals["tracebacks"] += 1
                    said = f"TRACEBACK {type(exc).__name__}: {exc}"
                if _snapshot(base) != before:
                    totals["outside_writes"] += 1
            except TimeoutError:
                totals["hangs"] += 1
                first, said = None, "HANG"
            finally:
                signal.alarm(0)
        # a refusal is a summary line, then the validator's lines: show the first of those
        lines = said.splitlines()
        shown = (lines[1].strip() if len(lines) > 1 else said).replace(str(data), "DATA")
        validated = f"[{first.code}] {first.message}".replace(str(data), "DATA") if first else "—"
        rows.append((name, validated, shown))
    for name, validated, said in rows:
        if markdown:
            print(f"| {name} | {validated.replace('|', '/')[:110]} | {said.replace('|', '/')[:150]} |")
        else:
            print(f"{name}\n  validate: {validated[:140]}\n  run:      {said[:160]}")
    print(f"\n{totals} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
