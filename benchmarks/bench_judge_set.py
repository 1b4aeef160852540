"""The rule judge on the hand-labelled judge set: agreement with the human labels, Cohen's
kappa, the confusion matrix (overall, hard vs clear, LLM answers vs memory text), the
disagreements, and the time per item.

Usage::

    .venv/bin/python benchmarks/bench_judge_set.py [--set PATH] [--repeat 20] [--json]

``--set`` defaults to the shipped ``bemula/datasets/judge-set.toml``. The timing judges the
whole set ``--repeat`` times (normalisation caches warm after the first pass; the first
pass is reported too).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from pathlib import Path

from bemula.judge.judgeset import AgreementStats, agreement_report, load_judge_set
from bemula.judge.rules import RuleJudge
from bemula.text import normalize_tokens


def _line(name: str, stats: AgreementStats) -> str:
    rate = "n/a" if stats.rate is None else f"{100 * stats.rate:.1f}%"
    kappa = "undefined" if stats.kappa is None else f"{stats.kappa:.3f}"
    m = stats.matrix
    return (
        f"{name:<8} {stats.items:>4} items  agreement {rate:>6} ({stats.agree}/{stats.n})  kappa {kappa:>9}  "
        f"human C: judge C {m['correct']['correct']:>3} / W {m['correct']['incorrect']:>3}   "
        f"human W: judge C {m['incorrect']['correct']:>3} / W {m['incorrect']['incorrect']:>3}   "
        f"unscored {stats.unscored}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", type=Path, default=None, help="judge-set TOML (default: the shipped one)")
    parser.add_argument("--repeat", type=int, default=20, help="timed passes over the whole set")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()

    judge_set = load_judge_set(args.set)
    items = judge_set.judge_items()
    judge = RuleJudge()

    normalize_tokens.cache_clear()
    start = time.perf_counter()
    verdicts = judge.judge_many(items)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(max(0, args.repeat)):
        start = time.perf_counter()
        judge.judge_many(items)
        warm.append(time.perf_counter() - start)
    report = agreement_report(judge_set, verdicts, judge=judge.name, seconds=cold)

    if args.json:
        out = report.as_dict()
        out["timing"] = {"cold_s_per_item": cold / len(items),
                         "warm_s_per_item": statistics.median(warm) / len(items) if warm else None}
        print(json.dumps(out, indent=1))
        return

    print(f"rule judge on {judge_set.path} ({len(items)} items) -- {platform.python_implementation()} "
          f"{platform.python_version()}, {platform.machine()}")
    print(_line("all", report.overall))
    for name, stats in (*report.by_difficulty.items(), *report.by_source.items()):
        print(_line(name, stats))
    print(f"time per item: {1e6 * cold / len(items):.0f} us on the first pass (cold caches)"
          + (f", {1e6 * statistics.median(warm) / len(items):.0f} us median over {len(warm)} warm passes" if warm else ""))
    print(f"{len(report.disagreements)} disagreements:")
    for d in report.disagreements:
        label = "correct" if d.label else "wrong"
        verdict = "unscored" if d.verdict is None else ("correct" if d.verdict else "wrong")
        print(f"  {d.id} ({'hard' if d.hard else 'clear'}, {d.source}): human {label}, judge {verdict}")
        print(f"      answer: {' '.join(d.answer.split())[:140]!r}")
        print(f"      judge:  {d.judge_reason}")
        print(f"      human:  {d.human_reason}")


if __name__ == "__main__":
    main()
