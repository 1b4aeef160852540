"""Control-probe accuracy per attack frame and per suite, from judged run folders.

A forget question counts towards FE / PR / AR only when its control probe (the same text on
the control version) was answered right, so a backbone that cannot read a frame conditions
that frame's questions out and the metric silently shrinks to the frames it can read. This
script prints, for each run folder, how many control probes of each frame and suite were
answered right (rule judge by default).

``--ceiling`` adds two bounds per group, so a low figure can be told apart from a reader that
reads badly: **retrieved** — the share of control probes for which at least one item the
system retrieved states an accepted value by itself (rule judge, as a memory answer): no
reader of that retrieval, however good, can do better; **stated** — the share for which at
least one turn of the control dialogue states it (an F4 conclusion is never stated, so no
retrieval can surface it). Only the recorded items are read (answers keep the first 20).

Usage::

    bemula eval --data handwritten            # writes runs/eval-handwritten/<system>/
    python benchmarks/bench_probe_frames.py runs/eval-handwritten/naive-rag [more run folders]
    python benchmarks/bench_probe_frames.py --ceiling runs/eval-handwritten/naive-rag
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from bemula.judge.pipeline import load_instances
from bemula.judge.rules import judge_answer
from bemula.metrics.items import item_rows
from bemula.metrics.probes import probe_accuracy
from bemula.runfolder.folder import RunFolder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--judge", default="rules")
    parser.add_argument("--ceiling", action="store_true", help="also print the retrieved / stated bounds")
    args = parser.parse_args()
    for run in args.runs:
        print(f"{run}  (judge: {args.judge})")
        folder = RunFolder.open(run)
        rows = item_rows(load_instances(folder).values(), folder.verdicts(args.judge))
        bounds = ceilings(folder) if args.ceiling else {}
        if bounds:
            print(f"  {'group':<22} {'right':>10} {'rate':>6}   {'retrieved':>9} {'stated':>7}")
        for acc in probe_accuracy(rows):
            line = f"  {acc.group:<22} {acc.right:>4}/{acc.judged:<4} {acc.rate:5.1f}%"
            if acc.group in bounds:
                retrieved, stated, n = bounds[acc.group]
                line += f"   {100 * retrieved / n:8.1f}% {100 * stated / n:6.1f}%"
            print(line)


def ceilings(folder: RunFolder) -> dict[str, tuple[int, int, int]]:
    """Per group (as ``probe_accuracy`` names them): control probes whose value one retrieved
    item states, whose value one control turn states, and how many there are."""
    answers = folder.answers
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for instance in folder.dataset:
        by_id = {q.id: q for q in instance.questions}
        turns = [turn.text for _, turn in instance.control.iter_turns()]
        for question in instance.questions:
            answer = answers.get((instance.id, question.id))
            if question.probe_of is None or answer is None:
                continue
            frame = by_id[question.probe_of].frame
            states = [judge_answer(question, text, memory=True, frame=frame).correct for text in turns]
            retrieved = any(judge_answer(question, item.text, memory=True, frame=frame).correct
                            for item in answer.retrieved)
            groups = ["all", f"suite {question.suite.value}"] + ([f"frame {frame.value}"] if frame else [])
            for group in groups:
                tally[group][0] += int(retrieved)
                tally[group][1] += int(any(states))
                tally[group][2] += 1
    return {group: (r, s, n) for group, (r, s, n) in tally.items()}


if __name__ == "__main__":
    main()
