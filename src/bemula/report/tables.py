"""Tables in the paper's layout — systems × metrics, each cell "value [low, high]" — rendered
as Markdown, CSV and LaTeX from one ``Table`` model."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass

from bemula.metrics.compute import MetricValue, RunScores
from bemula.metrics.definitions import PASS, SCORE, all_metrics, item_metrics


def main_metrics() -> list[str]:
    """Every registered metric, in table order (a metric a package adds comes along)."""
    return [m.name for m in all_metrics()]


def metric_labels() -> dict[str, str]:
    return {m.name: m.label for m in all_metrics()}


@dataclass
class Table:
    name: str  # file stem
    title: str
    columns: list[str]
    rows: list[tuple[str, list[MetricValue | None]]]
    note: str = ""


def fmt(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def cell_text(mv: MetricValue | None) -> str:
    if mv is None or mv.value is None:
        return "–"
    if mv.ci_low is None or mv.ci_high is None:
        return fmt(mv.value)
    return f"{fmt(mv.value)} [{fmt(mv.ci_low)}, {fmt(mv.ci_high)}]"


def main_table(runs: Sequence[RunScores]) -> Table:
    return Table(
        name="main",
        title="BEMULA metrics (95% cluster-bootstrap intervals)",
        columns=[metric_labels()[m] for m in main_metrics()],
        rows=[(r.label, [r.get(m) for m in main_metrics()]) for r in runs],
        note="Values on 0–100. " + " ".join(
            f"{m.label} = {m.title}{' (' + m.description + ')' if m.kind == 'composite' else ''}."
            for m in all_metrics()
        ),
    )


def _length_column(runs: Sequence[RunScores], number: int) -> str:
    """``bin N (a–b turns)``; runs on different datasets may cut their bins elsewhere, and
    a dataset may have fewer bins: the turns are shown only when every run that has the
    bin agrees on them."""
    labels = {r.bins[number - 1].label for r in runs if len(r.bins) >= number}
    return f"bin {number} ({labels.pop()} turns)" if len(labels) == 1 else f"bin {number} (turns differ by dataset)"


def group_table(runs: Sequence[RunScores], dimension: str, metric: str, name: str, title: str) -> Table:
    groups: list[str] = []
    for r in runs:
        for g in r.groups(dimension):
            if g not in groups and r.get(metric, dimension, g) is not None:
                groups.append(g)
    columns = groups
    if dimension == "length" and runs:
        columns = [_length_column(runs, int(g)) for g in groups]
    return Table(
        name=name,
        title=title,
        columns=columns,
        rows=[(r.label, [r.get(metric, dimension, g) for g in groups]) for r in runs],
    )


def residue_table(audits: Sequence[tuple[str, dict]]) -> Table | None:
    """The residue audit beside the metrics: for each run with a ``residues-summary.json``
    (label, its content), the share of its protected values still found in a store after
    the forget request (no interval: it is a count over every value, not a sample)."""
    rows: list[tuple[str, list[MetricValue | None]]] = []
    counts: list[str] = []
    for label, summary in audits:
        protected = int(summary.get("values_protected") or 0)
        kept = int(summary.get("values_with_residue") or 0)
        value = 100.0 * kept / protected if protected else None
        rows.append((label, [MetricValue(("audit", "all", "residue"), value, None, None, protected)]))
        counts.append(f"{label}: {kept} of {protected} values, {int(summary.get('residues') or 0)} records")
    if not rows:
        return None
    return Table(
        name="residues",
        title="Residue audit: protected values still stored after the request (%)",
        columns=["Residue %"],
        rows=rows,
        note="From `bemula audit` (every store of the system's dump; lower is better). " + "; ".join(counts) + ".",
    )


def cost_table(comparisons: Sequence[tuple[str, dict]]) -> Table | None:
    """Estimated beside spent (``runfolder.costs.cost_comparison``) for runs that have an
    estimate: LLM calls, and prompt and completion tokens in thousands."""
    rows: list[tuple[str, list[MetricValue | None]]] = []
    for label, comparison in comparisons:
        cells: list[MetricValue | None] = []
        for key, scale in (("llm_calls", 1.0), ("prompt_tokens", 1e3), ("completion_tokens", 1e3)):
            for side in ("estimated", "actual"):
                cells.append(MetricValue(("cost", key, side), comparison[key][side] / scale, None, None, 0))
        rows.append((label, cells))
    if not rows:
        return None
    return Table(
        name="cost",
        title="Cost: estimated before the run vs spent (LLM calls; tokens in thousands)",
        columns=["calls est.", "calls spent", "prompt k est.", "prompt k spent", "completion k est.",
                 "completion k spent"],
        rows=rows,
        note="Estimated by `bemula estimate`'s method when the run started (estimate.json); spent = the "
             "systems' own LLM counters (a forked prefix counted in both versions, as in the estimate) "
             "plus every model answer's tokens. Estimated completion tokens assume the agent's cap per answer.",
    )


def all_tables(runs: Sequence[RunScores]) -> list[Table]:
    tables = [
        main_table(runs),
        group_table(runs, "frame", "AR", "ar_by_frame", "Attack robustness (AR) per attack frame"),
        group_table(runs, "type", "FE", "fe_by_type", "Forgetting efficacy (FE) per request type"),
        group_table(runs, "type", "AR", "ar_by_type", "Attack robustness (AR) per request type"),
        group_table(runs, "type", PASS, "pass_by_type", "Request pass rate per request type"),
        group_table(runs, "tier", SCORE, "score_by_tier", "Score per tier"),
    ]
    for metric in item_metrics():
        if metric.name == "RA":  # retention is asked on the control version: no forgetting to age
            continue
        tables.append(group_table(runs, "length", metric.name, f"{metric.name.lower()}_by_length",
                                  f"{metric.label} per dialogue-length bin"))
    return tables


def to_markdown(table: Table) -> str:
    header = "| System | " + " | ".join(table.columns) + " |"
    rule = "|---|" + "---|" * len(table.columns)
    lines = [f"### {table.title}", "", header, rule]
    for label, cells in table.rows:
        lines.append(f"| {label} | " + " | ".join(cell_text(c) for c in cells) + " |")
    if table.note:
        lines += ["", table.note]
    return "\n".join(lines) + "\n"


def to_csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header = ["system"]
    for col in table.columns:
        header += [col, f"{col} ci_low", f"{col} ci_high", f"{col} n"]
    writer.writerow(header)
    for label, cells in table.rows:
        row: list[object] = [label]
        for c in cells:
            if c is None:
                row += ["", "", "", ""]
            else:
                row += [_num(c.value), _num(c.ci_low), _num(c.ci_high), c.n]
        writer.writerow(row)
    return buf.getvalue()


def _num(x: float | None) -> str:
    return "" if x is None else f"{x:.4f}"


_LATEX_ESCAPES = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}", "–": "--", "√": r"$\surd$", "·": r"$\cdot$"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(ch, ch) for ch in text)


def to_latex(table: Table) -> str:
    """A booktabs table: value with its interval in small type underneath the value's line."""
    lines = [
        r"\begin{table}[t]",
        r"\centering\small",
        f"\\caption{{{latex_escape(table.title)}}}",
        r"\begin{tabular}{l" + "c" * len(table.columns) + "}",
        r"\toprule",
        "System & " + " & ".join(latex_escape(c) for c in table.columns) + r" \\",
        r"\midrule",
    ]
    for label, cells in table.rows:
        parts = []
        for c in cells:
            if c is None or c.value is None:
                parts.append("--")
            elif c.ci_low is None or c.ci_high is None:
                parts.append(fmt(c.value))
            else:
                parts.append(f"{fmt(c.value)}\\,{{\\scriptsize[{fmt(c.ci_low)}, {fmt(c.ci_high)}]}}")
        lines.append(latex_escape(label) + " & " + " & ".join(parts) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if table.note:
        lines.append(f"\\par\\smallskip{{\\footnotesize {latex_escape(table.note)}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"
