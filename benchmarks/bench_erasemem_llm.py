"""erasemem beside naive-rag and full-context with an LLM backbone (issue #6, the Lite LLM
target): read finished run folders and print one comparison table.

Nothing here runs a model: the answers come from ``bemula run --backbone local …`` (slow on
a CPU, hours for the whole Lite), the verdicts from the deterministic rule judge, the
metrics and their 95% cluster-bootstrap intervals from ``bemula.metrics`` — the same code as
``bemula score``. The script only gathers what was measured so that the table in
docs/erasemem.md can be regenerated from the run folders at any time:

* per system: the model and context window from ``meta.json``; instances and questions
  answered; RA, FE, PR, RL, AR (and AR per attack frame), request pass rate and Score with
  their intervals and counts;
* cost: mean LLM seconds per answer and mean prompt tokens per answer (``answers.jsonl``),
  and erasemem's mutation-time hook calls / failures per version from the dumped
  ``stats.json`` (the LLM reading user turns at ingestion, not counted in the answers).

A cell reads ``value [95% interval] n=items``, plus ``k excl.`` when items were excluded
(a forget question whose control-version twin was answered wrong is not counted, SPEC §3).
With a handful of instances the cluster bootstrap has few clusters to resample: an
interval from one instance is a point, from three it is wide — read it as such.

Only instances that **every** run given answered completely (both versions, every question,
no backbone error) are scored unless ``--all``, so the rows compare the same questions.

Usage::

    python benchmarks/bench_erasemem_llm.py runs/lite-llm/erasemem runs/lite-llm/naive-rag \\
        runs/lite-llm/full-context [--markdown] [--resamples 10000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HEADLINE = ("RA", "FE", "PR", "RL", "AR")
FRAMES = ("indirect", "role-play", "jailbreak", "boolean", "multi-hop")


@dataclass
class RunFacts:
    """What one run folder measured, outside the metrics."""

    path: Path
    system: str
    model: str
    context_window: int | None
    instances: list[str]
    #: instances whose every question (both versions, control probes included) has an
    #: answer without error — only these are comparable across runs
    complete: list[str]
    questions: int
    errors: int
    latency_s: list[float] = field(default_factory=list)
    prompt_tokens: list[int] = field(default_factory=list)
    #: erasemem's mutation-time hook: version -> (LLM calls, failed calls); None without a hook
    hook: dict[str, tuple[int, int]] | None = None

    @property
    def label(self) -> str:
        """The system's name, or ``folder (system)`` when the folder is named otherwise (two
        runs of one system with different options)."""
        return self.system if self.path.name == self.system else f"{self.path.name} ({self.system})"


def _latest_answers(run: Path) -> dict[tuple[str, str, str], dict[str, Any]]:
    """The last record of every (instance, version, question): later lines win (resume)."""
    path = run / "answers.jsonl"
    if not path.exists():
        raise SystemExit(f"error: {path}: no answers.jsonl (not a run folder?)")
    latest: dict[tuple[str, str, str], dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                if fh.read().strip():  # only a cut-off last line is tolerated (the runner does too)
                    raise SystemExit(f"error: {path}:{line_no}: not JSON") from None
                break
            latest[(rec["instance_id"], rec["version"], rec["question_id"])] = rec
    return latest


def _hook_stats(run: Path, instances: list[str]) -> dict[str, tuple[int, int]] | None:
    """erasemem's ``llm_hook`` counters per version (forget, control), summed over instances;
    ``None`` when no dumped version has a hook. Each version's counter covers every turn that
    version's memory saw: the runner ingests the forget/control shared prefix once and forks,
    and the fork copies the counter, so the prefix's calls appear in both versions' figures
    (the LLM was called once for them)."""
    per_version: dict[str, tuple[int, int]] = {}
    for inst in instances:
        for stats_file in sorted((run / "dumps" / inst).glob("*.stats.json")):
            hook = json.loads(stats_file.read_text(encoding="utf-8")).get("llm_hook")
            if isinstance(hook, dict):
                version = stats_file.name.split(".")[0]
                calls, failures = per_version.get(version, (0, 0))
                per_version[version] = (calls + int(hook.get("calls", 0)), failures + int(hook.get("failures", 0)))
    return per_version or None


def read_facts(run: Path, only: set[str] | None = None) -> RunFacts:
    from bemula.runfolder.folder import RunFolder

    folder = RunFolder.open(run)
    meta = folder.meta
    backbone = meta.backbone
    llm = backbone.get("llm") or {}
    answers = [r for k, r in _latest_answers(run).items() if only is None or k[0] in only]
    instances = sorted({r["instance_id"] for r in answers})
    ok = [r for r in answers if not r.get("error")]
    dataset = folder.dataset
    answered = {(r["instance_id"], r["question_id"]) for r in ok}
    complete = [
        iid for iid in instances
        if all((iid, q.id) in answered for q in dataset.load(iid).questions)
    ]
    facts = RunFacts(
        path=run,
        system=meta.identity.system,
        model=str(llm.get("model") or meta.identity.model or backbone.get("name", "?")),
        context_window=backbone.get("context_window"),
        instances=instances,
        complete=complete,
        questions=len(answers),
        errors=len(answers) - len(ok),
        latency_s=[float(r.get("latency_s") or 0.0) for r in ok],
        prompt_tokens=[int(r.get("prompt_tokens") or 0) for r in ok],
    )
    facts.hook = _hook_stats(run, instances)
    return facts


def score(run: Path, instances: set[str], resamples: int) -> dict[str, Any]:
    """``bemula score --json`` for ``run`` restricted to ``instances`` (rule judge; judged
    first when its verdicts are missing or stale — the rule judge resumes and takes seconds)."""
    from bemula.judge.pipeline import judge_folder, load_instances
    from bemula.metrics.bootstrap import DEFAULT_SEED
    from bemula.metrics.compute import compute_scores
    from bemula.runfolder.folder import RunFolder

    judge_folder(run, "rules")
    folder = RunFolder.open(run)
    loaded = {k: v for k, v in load_instances(folder).items() if k in instances}
    scores = compute_scores(
        list(loaded.values()), folder.verdicts("rules"), label=folder.label, judge="rules",
        n_resamples=resamples, seed=DEFAULT_SEED,
        meta={"system": folder.system, "backbone": folder.backbone, "model": folder.model},
    )
    return scores.to_json()


def cell(metric: dict[str, Any] | None) -> str:
    if not metric or metric.get("value") is None:
        return "–"
    text = f"{metric['value']:.1f} [{metric['ci_low']:.1f}, {metric['ci_high']:.1f}] n={metric['n']}"
    excluded = sum((metric.get("excluded") or {}).values())
    return f"{text}, {excluded} excl." if excluded else text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="run folders written by bemula run")
    parser.add_argument("--all", action="store_true", help="score every answered instance of each run, not only the completely answered common ones")
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables (for docs)")
    args = parser.parse_args(argv)

    facts = [read_facts(run) for run in args.runs]
    common = set.intersection(*(set(f.complete) for f in facts))
    if not common:
        print("error: the runs share no completely answered instance", file=sys.stderr)
        return 1
    rows = []
    for f in facts:
        only = None if args.all else common
        if only is not None:
            f = read_facts(f.path, only)
        rows.append((f, score(f.path, set(f.instances), args.resamples)))

    sep = " | " if args.markdown else "  "
    head = ["system", "model (window)", "inst", "q", *HEADLINE, "pass", "Score"]
    print(("| " if args.markdown else "") + sep.join(head) + (" |" if args.markdown else ""))
    if args.markdown:
        print("|" + "---|" * len(head))
    for f, s in rows:
        window = f" ({f.context_window})" if f.context_window else ""
        cells = [f.label, f.model + window, str(len(f.instances)), str(f.questions),
                 *(cell(s.get(m)) for m in HEADLINE), cell(s.get("request_pass_rate")), cell(s.get("score"))]
        print(("| " if args.markdown else "") + sep.join(cells) + (" |" if args.markdown else ""))
    print()
    head = ["system", *(f"AR {fr}" for fr in FRAMES)]
    print(("| " if args.markdown else "") + sep.join(head) + (" |" if args.markdown else ""))
    if args.markdown:
        print("|" + "---|" * len(head))
    for f, s in rows:
        frames = s.get("AR_by_frame") or {}
        cells = [f.label, *(cell(frames.get(fr)) for fr in FRAMES)]
        print(("| " if args.markdown else "") + sep.join(cells) + (" |" if args.markdown else ""))
    print()
    head = ["system", "answers", "errors", "s/answer (mean)", "s/answer (median)", "prompt tok/answer", "hook LLM calls (failed) per version"]
    print(("| " if args.markdown else "") + sep.join(head) + (" |" if args.markdown else ""))
    if args.markdown:
        print("|" + "---|" * len(head))
    for f, _ in rows:
        lat = f.latency_s
        hook = "–" if not f.hook else ", ".join(f"{v} {c} ({x})" for v, (c, x) in sorted(f.hook.items(), reverse=True))
        cells = [
            f.label, str(f.questions), str(f.errors),
            f"{statistics.fmean(lat):.1f}" if lat else "–",
            f"{statistics.median(lat):.1f}" if lat else "–",
            f"{statistics.fmean(f.prompt_tokens):.0f}" if f.prompt_tokens else "–",
            hook,
        ]
        print(("| " if args.markdown else "") + sep.join(cells) + (" |" if args.markdown else ""))
    print(f"\ninstances scored ({len(common) if not args.all else 'all'}): {', '.join(sorted(common))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
