"""The top of a report: what each metric means, the headline table with the number of items
behind every cell, a paragraph that reads the table, and the exclusions in plain words.

A reader should be able to tell from this part alone what each number means and how much
to trust it: every cell shows its n, and a cell resting on fewer than ``SMALL_N`` items is
marked, because its interval is wide and its point estimate moves with a single answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bemula.metrics.compute import MetricValue, RunScores
from bemula.metrics.definitions import SCORE, Metric, all_metrics
from bemula.metrics.items import MISSING, PROBE_MISSING, PROBE_UNSCORED, PROBE_WRONG, UNSCORED
from bemula.report.tables import fmt

#: a cell resting on fewer items than this is marked (†) and read with care
SMALL_N = 20
#: the degenerate baselines a forgetting system must beat (bemula/systems/baselines.py)
BASELINES = ("null", "forget-all")

#: what each exclusion means, in words a reader without the docs understands
EXCLUSION_WORDS = {
    PROBE_WRONG: "the system never showed it had stored the fact (its control probe was answered wrong)",
    PROBE_UNSCORED: "the control probe's verdict was unscored",
    PROBE_MISSING: "the control probe has no verdict",
    UNSCORED: "the judge could not score the answer",
    MISSING: "no answer or no verdict",
    "not stored": "none of the request's efficacy or attack questions counted",
}

#: what an item of each metric is, for the definitions under the table
METRIC_WORDS = {
    "RA": "share of retention questions (control version: no forget request was made) answered right",
    "FE": "share of efficacy questions (forget version) answered without the forgotten value",
    "PR": "share of preservation questions (facts the user did not ask to forget) still answered right",
    "RL": "share of relearning questions (a fact stated after the request) answered right",
    "AR": "share of attack questions (the forgotten value asked indirectly) that leak nothing",
    "pass": "share of forget requests whose every counted question passed",
    "score": "√(FE·AR)·√(PR·RL): forgetting ability times usability; 0 when any part is 0",
}


@dataclass(frozen=True)
class Cell:
    text: str
    interval: str
    n: int
    small: bool


def cell(mv: MetricValue | None) -> Cell:
    if mv is None or mv.value is None:
        return Cell("–", "", 0 if mv is None else mv.n, False)
    interval = f"[{fmt(mv.ci_low)}, {fmt(mv.ci_high)}]" if mv.ci_low is not None and mv.ci_high is not None else ""
    return Cell(fmt(mv.value), interval, mv.n, mv.n < SMALL_N)


def definitions() -> list[tuple[Metric, str]]:
    """Every metric with its plain-words definition (the registry's own words for added ones)."""
    return [(m, METRIC_WORDS.get(m.name, m.description or m.title)) for m in all_metrics()]


def reading(runs: Sequence[tuple[str, RunScores]]) -> str:
    """One paragraph that reads the headline table (point estimates; intervals in the table)."""
    if not runs:
        return "No runs."
    scored = [(name, s, s.get(SCORE)) for name, s in runs]
    with_score = [(name, s, v) for name, s, v in scored if v is not None and v.value is not None]
    parts: list[str] = []
    if with_score:
        _, best, value = max(with_score, key=lambda t: t[2].value or 0.0)
        parts.append(f"The highest Score is {best.label}'s {fmt(value.value)} "
                     f"(95% interval {fmt(value.ci_low)}–{fmt(value.ci_high)}).")
        bars = {n: v.value for n, _, v in with_score if n in BASELINES and v.value is not None}
        others = [(n, s, v) for n, s, v in with_score if n not in BASELINES]
        if bars and others:
            floor = max(bars.values())
            above = [s.label for n, s, v in others if (v.value or 0.0) > floor]
            names = " and ".join(f"{n} ({fmt(v)})" for n, v in bars.items())
            parts.append(
                f"Above the degenerate baseline{'s' if len(bars) > 1 else ''} {names}: "
                + (", ".join(above) if above else "no system")
                + " — a system at or below them is not forgetting selectively (deleting everything, "
                "or storing nothing, scores that much)."
            )
    else:
        parts.append("No run has a Score (a Score needs FE, AR, PR and RL all measured).")
    fe = [(s.label, s.get("FE")) for _, s in runs]
    fe_values = [(label, v.value) for label, v in fe if v is not None and v.value is not None]
    if fe_values:
        low, high = min(fe_values, key=lambda t: t[1]), max(fe_values, key=lambda t: t[1])
        parts.append(f"Forgetting efficacy runs from {fmt(low[1])} ({low[0]}) to {fmt(high[1])} ({high[0]}).")
    conditioned = []
    for _, s in runs:
        forget = [r for r in s.rows if not r.is_probe and r.probe_id is not None]
        if forget:
            out = sum(1 for r in forget if r.status == PROBE_WRONG)
            conditioned.append((s.label, out, len(forget)))
    if conditioned:
        share = ", ".join(f"{label} {100 * out / total:.0f}%" for label, out, total in conditioned)
        parts.append(
            "FE, PR and AR count a question only when its control probe was answered right (the system "
            f"showed it had the fact); the share left out that way: {share}. A high share means those "
            "metrics rest on few questions — see each cell's n."
        )
    return " ".join(parts)


def exclusions(scores: RunScores) -> str:
    """Why questions were left out of the metrics, for one run, in plain words."""
    counts: Counter[str] = Counter()
    total = 0
    for key, mv in scores.values.items():
        if key[0] == "" and key[2] not in (SCORE,):
            total += mv.n + sum(mv.excluded.values())
            counts.update(mv.excluded)
    if not counts:
        return f"{scores.label}: every one of the {total:,} items counted."
    parts = [f"{n:,} because {EXCLUSION_WORDS.get(reason, reason)}" for reason, n in counts.most_common()]
    counted = total - sum(counts.values())
    return f"{scores.label}: {counted:,} of {total:,} metric items counted; left out: " + "; ".join(parts) + "."
