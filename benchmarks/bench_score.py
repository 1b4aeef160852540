"""Speed of scoring: the 10,000-resample cluster bootstrap for every metric over 50
instances (target ≤ 2 s), and the rule judge's throughput.

Usage::

    .venv/bin/python benchmarks/bench_score.py [--data data/bemula] [--resamples 10000]

Uses the generated benchmark when ``--data`` exists (50 instances), else 50 copies of the
two tiny instances under new ids. Verdicts are drawn at random (seeded) — only the timing
matters here. Answers for the judge throughput mix the four shapes a judge sees: the probe's
no-information sentence, raw memory snippets with and without the value, and short LLM-style
statements and refusals.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from pathlib import Path

from bemula.judge.base import JudgeItem
from bemula.judge.rules import PROBE_NO_INFO, RuleJudge
from bemula.metrics.bootstrap import percentile_interval, resample_counts, resampled_ratios
from bemula.metrics.compute import compute_scores
from bemula.model import GoldKind, Instance
from bemula.runfolder.records import AnswerRecord, VerdictRecord


def load_instances(data: Path, n: int) -> list[Instance]:
    if (data / "manifest.json").exists():
        from bemula.dataset import Dataset

        dataset = Dataset.open(data)
        return [dataset.load(i) for i in dataset.ids()[:n]]
    from bemula.testing.tiny import tiny_instances

    out = []
    for k in range(n):
        inst = tiny_instances()[k % 2].model_copy(deep=True)
        inst.id = f"copy-{k:02d}"
        out.append(inst)
    return out


def random_verdicts(instances: list[Instance], seed: int) -> dict[tuple[str, str], VerdictRecord]:
    rng = random.Random(seed)
    out = {}
    for inst in instances:
        for q in inst.questions:
            r = rng.random()
            correct = None if r < 0.01 else r < 0.7
            out[(inst.id, q.id)] = VerdictRecord(
                instance_id=inst.id, question_id=q.id, judge="bench", correct=correct, leaked=rng.random() < 0.3
            )
    return out


def answers_for(instances: list[Instance], seed: int) -> list[JudgeItem]:
    rng = random.Random(seed)
    items = []
    for inst in instances:
        for q in inst.questions:
            value = (q.gold.accepted or q.gold.protected or ["something"])[0]
            shape = rng.randrange(4)
            if shape == 0:
                answer, backbone = PROBE_NO_INFO, "probe"
            elif shape == 1:
                answer = f"user: by the way, {value} is something I care about.\nassistant: Noted, thanks for telling me."
                backbone = "probe"
            elif shape == 2:
                answer = "user: we went hiking on Saturday and it rained the whole time.\nuser: my week was busy."
                backbone = "probe"
            else:
                answer = f"It is {value}." if q.gold.kind == GoldKind.VALUE else "I don't have any record of that."
                backbone = "openai"
            record = AnswerRecord(
                instance_id=inst.id, question_id=q.id, version=q.version, system="bench", backbone=backbone,
                question=q.text, answer=answer,
            )
            items.append(JudgeItem(inst.id, q, record))
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("data/bemula"))
    parser.add_argument("--instances", type=int, default=50)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    instances = load_instances(args.data, args.instances)
    n_questions = sum(len(i.questions) for i in instances)
    print(f"machine: {platform.machine()} {platform.processor() or ''} python {platform.python_version()}")
    print(f"data: {len(instances)} instances, {n_questions} questions incl. control probes"
          f" ({'generated benchmark' if (args.data / 'manifest.json').exists() else 'tiny copies'})")

    verdicts = random_verdicts(instances, seed=1)
    times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        scores = compute_scores(instances, verdicts, n_resamples=args.resamples, seed=7)
        times.append(time.perf_counter() - t0)
    n_columns = len(scores.columns)
    print(
        f"compute_scores (every metric + every breakdown = {n_columns} columns + Scores, "
        f"{args.resamples} resamples): median {statistics.median(times):.3f} s (runs: "
        + ", ".join(f"{t:.3f}" for t in times) + ")"
    )
    assert scores.num is not None and scores.den is not None
    t0 = time.perf_counter()
    counts = resample_counts(len(instances), args.resamples, 7)
    boot = resampled_ratios(counts, scores.num, scores.den)
    percentile_interval(boot)
    print(f"  of which the bootstrap alone (resample + matrix product + percentiles): {time.perf_counter() - t0:.3f} s")

    items = answers_for(instances, seed=2)
    judge = RuleJudge()
    t0 = time.perf_counter()
    judge.judge_many(items)
    dt = time.perf_counter() - t0
    print(f"rule judge: {len(items)} answers in {dt:.3f} s = {len(items) / dt:,.0f} answers/s (one process)")


if __name__ == "__main__":
    main()
