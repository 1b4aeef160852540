"""``bemula report``: score runs and write tables, plots and the HTML page into one folder.

Layout of the report folder::

    index.html            the page: summary, tables, plots, the question list (small at any size)
    data/run-<i>.js       one run's drill-down (questions, answers, memory, verdicts, residues)
    data/instance-<id>.js where each fact was stated and each request, in both versions
    report.md             every table in Markdown
    tables/<name>.csv     every table as CSV (value, ci_low, ci_high, n per cell)
    tables/<name>.tex     every table as LaTeX (booktabs)
    plots/<name>.png      every figure
    scores.json           per run: the ``bemula score --json`` object
    items.csv             per run and question: metric, status, per-item value, verdict, reason
    differences.csv       paired Score/FE/AR differences against the best-scoring run
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bemula.dataset import InstanceView
from bemula.judge.pipeline import load_instances
from bemula.metrics.bootstrap import DEFAULT_SEED, N_RESAMPLES
from bemula.metrics.compute import Difference, RunScores, paired_difference
from bemula.metrics.definitions import SCORE, headline_metric
from bemula.metrics.run import score_run
from bemula.model import DerivedFact, Fact, Instance, Turn, Version
from bemula.report import html as html_page
from bemula.report.plots import all_plots
from bemula.report.summary import exclusions, reading
from bemula.report.tables import Table, all_tables, cost_table, residue_table, to_csv, to_latex, to_markdown
from bemula.run.runner import load_instance
from bemula.runfolder.costs import cost_comparison
from bemula.runfolder.folder import RunFolder


@dataclass
class ScoredRun:
    folder: RunFolder
    scores: RunScores
    instances: dict[str, InstanceView]


@dataclass
class ReportResult:
    out: Path
    runs: list[ScoredRun]
    tables: list[Table]
    differences: list[tuple[str, str, Difference]] = field(default_factory=list)


def score_folder(folder: RunFolder, judge: str, *, n_resamples: int = N_RESAMPLES, seed: int = DEFAULT_SEED) -> ScoredRun:
    scores = score_run(folder, judge, n_resamples=n_resamples, seed=seed)
    return ScoredRun(folder, scores, load_instances(folder))


def _unique_labels(runs: Sequence[ScoredRun]) -> None:
    seen: dict[str, int] = {}
    for r in runs:
        seen[r.scores.label] = seen.get(r.scores.label, 0) + 1
    for r in runs:
        if seen[r.scores.label] > 1:
            r.scores.label = f"{r.scores.label} [{r.folder.path.name}]"


def run_items(run: ScoredRun) -> list[dict[str, Any]]:
    """The drill-down records of one run (one per question, probes included)."""
    answers = run.folder.answers
    questions = {(iid, q.id): q for iid, inst in run.instances.items() for q in inst.questions}
    out = []
    for row in run.scores.rows:
        q = questions[(row.instance_id, row.question_id)]
        answer = answers.get((row.instance_id, row.question_id))
        retrieved = answer.retrieved if answer else []
        out.append(
            {
                "instance": row.instance_id,
                "id": row.question_id,
                "suite": row.suite.value,
                "version": row.version.value,
                "probe": row.is_probe,
                "frame": row.frame.value if row.frame else None,
                "request": row.request_id,
                "type": row.request_type.value if row.request_type else None,
                "question": q.text,
                "gold_kind": q.gold.kind.value,
                "accepted": list(q.gold.accepted),
                "protected": list(q.gold.protected),
                "answer": (answer.answer if answer else "(not answered)")[: html_page.MAX_ANSWER_CHARS],
                "error": answer.error if answer else None,
                "retrieved": [
                    {"store": r.store, "text": r.text[: html_page.MAX_RETRIEVED_CHARS]}
                    for r in retrieved[: html_page.MAX_RETRIEVED_ITEMS]
                ],
                "retrieved_more": max(0, len(retrieved) - html_page.MAX_RETRIEVED_ITEMS),
                "correct": row.correct if row.judged else None,
                "leaked": row.leaked,
                "reason": row.reason if row.judged else "not judged",
                "status": row.status if headline_metric(row) else "control probe",
                "probe_id": row.probe_id,
                "fact": q.fact_id,
            }
        )
    return out


#: turns shown around a request, and stating turns shown per fact and version
REQUEST_WINDOW = (3, 4)
MAX_STATING_TURNS = 4
MAX_TURN_CHARS = 800


def _turn(turn: Turn) -> dict[str, str]:
    return {"id": turn.id, "role": turn.role.value, "text": turn.text[:MAX_TURN_CHARS],
            "time": turn.timestamp.strftime("%Y-%m-%d %H:%M")}


def instance_context(inst: Instance) -> dict[str, Any]:
    """For the drill-down: where each fact was stated, and each request with the turns
    around it, in both versions (the control version has the same turn ids; a turn whose
    text differs — the request itself — is what the page highlights)."""
    stated: dict[str, dict[str, list[dict[str, str]]]] = {}
    sessions: dict[str, dict[str, list[Turn]]] = {}
    for version in (Version.FORGET, Version.CONTROL):
        for session in inst.dialogue(version).sessions:
            sessions.setdefault(version.value, {})[session.id] = session.turns
            for turn in session.turns:
                for fid in turn.annotations.facts:
                    shown = stated.setdefault(fid, {"forget": [], "control": []})[version.value]
                    if len(shown) < MAX_STATING_TURNS:
                        shown.append(_turn(turn))
    every: list[Fact | DerivedFact] = [*inst.profile.facts, *inst.profile.derived_facts]
    facts = {
        f.id: {"value": f.value, "statement": f.statement, "stated": stated.get(f.id, {"forget": [], "control": []})}
        for f in every
    }
    requests = {}
    for r in inst.requests:
        forget = sessions.get("forget", {}).get(r.session_id, [])
        at = next((i for i, t in enumerate(forget) if t.id == r.turn_id), 0)
        window = forget[max(0, at - REQUEST_WINDOW[0]) : at + REQUEST_WINDOW[1]]
        ids = {t.id for t in window}
        control = [t for t in sessions.get("control", {}).get(r.session_id, []) if t.id in ids]
        requests[r.id] = {"type": r.type.value, "text": r.text, "turn_id": r.turn_id,
                          "forget": [_turn(t) for t in window], "control": [_turn(t) for t in control]}
    return {"facts": facts, "requests": requests}


def run_residues(folder: RunFolder) -> tuple[bool, dict[str, list[dict[str, str]]]]:
    """What the audit found, per instance (and whether the run was audited at all)."""
    from bemula.runfolder.names import RESIDUES_NAME

    if not (folder.path / RESIDUES_NAME).exists():
        return False, {}
    out: dict[str, list[dict[str, str]]] = {}
    for r in folder.residues():
        out.setdefault(r.instance_id, []).append(
            {"request_id": r.request_id, "value": r.value, "match": r.match, "store": r.store,
             "record_id": r.record_id, "snippet": r.snippet})
    return True, out


def items_csv(runs: Sequence[ScoredRun]) -> str:
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(
        ["run", "instance_id", "question_id", "suite", "version", "probe", "frame", "request_id", "request_type",
         "tier", "turns", "metric", "status", "value", "correct", "leaked", "reason"]
    )
    for run in runs:
        for row in run.scores.rows:
            metric = headline_metric(row) or ""
            value = row.value
            w.writerow([
                run.scores.label, row.instance_id, row.question_id, row.suite.value, row.version.value,
                int(row.is_probe), row.frame.value if row.frame else "", row.request_id or "",
                row.request_type.value if row.request_type else "", row.tier.value, row.turns, metric,
                row.status if metric else "control probe", "" if value is None else int(value),
                "" if row.correct is None else int(row.correct), int(row.leaked), row.reason,
            ])
    return buf.getvalue()


def differences(runs: Sequence[ScoredRun]) -> list[tuple[str, str, Difference]]:
    """Paired differences (Score, FE, AR) of every run against the best-scoring run of its
    group: the runs over the same instances with the same backbone and model (a sweep's
    systems side by side; runs on other data or another backbone are not paired)."""
    scored = [r for r in runs if r.scores.get(SCORE) and r.scores.get(SCORE).value is not None]  # type: ignore[union-attr]
    groups: dict[tuple[Any, ...], list[ScoredRun]] = {}
    for r in scored:
        identity = r.folder.meta.identity
        key = (tuple(sorted(r.scores.instance_ids)), identity.dataset_checksum, identity.backbone, identity.model)
        groups.setdefault(key, []).append(r)
    out = []
    for group in groups.values():
        if len(group) < 2:
            continue
        best = max(group, key=lambda r: r.scores[SCORE].value or 0.0)
        for r in group:
            if r is best:
                continue
            for metric in (SCORE, "FE", "AR"):
                out.append((best.scores.label, r.scores.label, paired_difference(best.scores, r.scores, metric)))
    return out


def write_report(
    run_paths: Sequence[Path],
    out: Path,
    *,
    judge: str = "rules",
    data: Path | None = None,
    n_resamples: int = N_RESAMPLES,
    seed: int = DEFAULT_SEED,
    title: str = "BEMULA report",
    labels: Sequence[str] | None = None,
) -> ReportResult:
    """Score ``run_paths`` and write the report folder; ``labels`` (one per run) name the
    runs in tables instead of "system (backbone)" (a sweep adds the dataset)."""
    runs = [score_folder(RunFolder.open(p, data=data), judge, n_resamples=n_resamples, seed=seed) for p in run_paths]
    if labels is not None:
        if len(labels) != len(runs):
            raise ValueError(f"write_report: {len(labels)} labels for {len(runs)} runs")
        for run, label in zip(runs, labels, strict=True):
            run.scores.label = label
    _unique_labels(runs)
    scores = [r.scores for r in runs]
    tables = all_tables(scores)
    residues = residue_table([(r.scores.label, a) for r in runs if (a := _audit_summary(r.folder.path)) is not None])
    if residues is not None:
        tables.insert(1, residues)
    costs = cost_table([(r.scores.label, c) for r in runs if (c := cost_comparison(r.folder.path)) is not None])
    if costs is not None:
        tables.append(costs)
    diffs = differences(runs)
    out.mkdir(parents=True, exist_ok=True)
    (out / "tables").mkdir(exist_ok=True)
    (out / "plots").mkdir(exist_ok=True)

    read = reading([(r.folder.system, r.scores) for r in runs])
    md = [f"# {title}", "", _subtitle(runs, judge, n_resamples, seed), "", read, ""]
    for t in tables:
        md.append(to_markdown(t))
        (out / "tables" / f"{t.name}.csv").write_text(to_csv(t), encoding="utf-8")
        (out / "tables" / f"{t.name}.tex").write_text(to_latex(t), encoding="utf-8")
    if diffs:
        md.append(_differences_markdown(diffs))
        (out / "differences.csv").write_text(_differences_csv(diffs), encoding="utf-8")
    md.append(_unscored_markdown(runs))
    (out / "report.md").write_text("\n".join(md), encoding="utf-8")

    plots = all_plots(scores)
    for name, png in plots.items():
        (out / "plots" / f"{name}.png").write_bytes(png)
    (out / "scores.json").write_text(
        json.dumps([r.scores.to_json() for r in runs], indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (out / "items.csv").write_text(items_csv(runs), encoding="utf-8")

    _write_data(out, runs)
    diff_table = _differences_table(diffs)
    main = next(t for t in tables if t.name == "main")
    summary = html_page.summary_html(
        main,
        read,
        [exclusions(r.scores) for r in runs],
    )
    page = html_page.render_page(
        title=title,
        subtitle=_subtitle(runs, judge, n_resamples, seed),
        summary=summary,
        tables=[t for t in [*tables, *([diff_table] if diff_table else [])] if t is not main],
        plots=plots,
        runs=[{"label": r.scores.label} for r in runs],
        receipts=[(r.scores.label, [x.as_dict() for x in r.folder.receipts()]) for r in runs],
        notes=[_unscored_line(r) for r in runs],
    )
    (out / "index.html").write_text(page, encoding="utf-8")
    return ReportResult(out=out, runs=runs, tables=tables, differences=diffs)


def _write_data(out: Path, runs: Sequence[ScoredRun]) -> None:
    """The side files the page loads on demand: one per run, one per instance."""
    data = out / "data"
    if data.is_dir():
        for old in data.glob("*.js"):
            old.unlink()  # a previous report's files; this folder is the report's own
    data.mkdir(exist_ok=True)
    instance_ids: list[str] = []
    for i, run in enumerate(runs):
        audited, residues = run_residues(run.folder)
        value = {"label": run.scores.label, "instances": list(run.scores.instance_ids), "items": run_items(run),
                 "residues": residues, "audited": audited}
        (data / f"run-{i}.js").write_text(html_page.data_file("run", str(i), value), encoding="utf-8")
        instance_ids += [iid for iid in run.scores.instance_ids if iid not in instance_ids]
    for iid in instance_ids:
        owner = next(r for r in runs if iid in r.scores.instance_ids)
        inst = load_instance(owner.folder.dataset, iid)
        (data / f"instance-{iid}.js").write_text(html_page.data_file("instance", iid, instance_context(inst)),
                                                 encoding="utf-8")


def _audit_summary(run: Path) -> dict | None:
    """The run's ``residues-summary.json`` (written by ``bemula audit``), if any."""
    from bemula.audit import SUMMARY_NAME

    path = run / SUMMARY_NAME
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a JSON object")
    return data


def _subtitle(runs: Sequence[ScoredRun], judge: str, n_resamples: int, seed: int) -> str:
    checksums = sorted({r.scores.meta.get("dataset_checksum", "")[:12] for r in runs})
    n_inst = sorted({len(r.scores.instance_ids) for r in runs})
    return (
        f"{len(runs)} run(s); judge: {judge}; instances: {', '.join(map(str, n_inst))}; dataset "
        f"{', '.join(checksums)}; 95% cluster-bootstrap percentile intervals over instances "
        f"({n_resamples} resamples, seed {seed})."
    )


def _unscored_line(run: ScoredRun) -> str:
    u = run.scores.unscored
    reasons = ", ".join(f"{k}: {v}" for k, v in u["by_reason"].items())
    return (
        f"{run.scores.label}: {u['total']} unscored verdict(s)" + (f" ({reasons})" if reasons else "")
        + f", {u['missing']} question(s) without a verdict — excluded from every metric, never right or wrong."
        + _unanswered_text(run)
    )


def _unanswered_text(run: ScoredRun) -> str:
    gone = run.scores.unanswered
    if not gone["instances"]:
        return ""
    return (
        f" Unanswered: {len(gone['instances'])} planned instance(s) with no answer at all "
        f"({gone['questions']} questions, in no metric): {', '.join(gone['instances'])}."
    )


def _unscored_markdown(runs: Sequence[ScoredRun]) -> str:
    return "### Unscored and missing\n\n" + "\n".join(f"- {_unscored_line(r)}" for r in runs) + "\n"


def _differences_table(diffs: list[tuple[str, str, Difference]]) -> Table | None:
    if not diffs:
        return None
    from bemula.metrics.compute import MetricValue

    rows: dict[str, list[MetricValue | None]] = {}
    metrics = [SCORE, "FE", "AR"]
    for best, other, d in diffs:
        label = f"{best} − {other}"
        cells = rows.setdefault(label, [None] * len(metrics))
        cells[metrics.index(d.metric)] = MetricValue(("", "", d.metric), d.value, d.ci_low, d.ci_high, d.n_instances)
    return Table(
        name="paired_differences",
        title="Paired differences against the best Score (same resampled instances)",
        columns=["Score", "FE", "AR"],
        rows=list(rows.items()),
        note="Differences in points (0–100) with 95% paired cluster-bootstrap intervals.",
    )


def _differences_markdown(diffs: list[tuple[str, str, Difference]]) -> str:
    table = _differences_table(diffs)
    return to_markdown(table) if table else ""


def _differences_csv(diffs: list[tuple[str, str, Difference]]) -> str:
    lines = ["minuend,subtrahend,metric,value,ci_low,ci_high,n_instances"]
    for a, b, d in diffs:
        vals = ["" if x is None else f"{x:.4f}" for x in (d.value, d.ci_low, d.ci_high)]
        lines.append(",".join([json.dumps(a), json.dumps(b), d.metric, *vals, str(d.n_instances)]))
    return "\n".join(lines) + "\n"
