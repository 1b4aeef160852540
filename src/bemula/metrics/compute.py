"""All metrics of one run — headline, per frame, breakdowns — with cluster-bootstrap intervals.

Every metric (and every breakdown cell) is a *column*: per instance, a numerator (items that
succeeded) and a denominator (items counted). Columns are keyed ``(dimension, group, metric)``:
``("", "", "FE")`` is overall FE, ``("frame", "boolean", "AR")`` AR on boolean attacks,
``("type", "F3", "FE")``, ``("tier", "short", "RA")``, ``("length", "1", "PR")``. All columns
share one resample-count matrix (``bootstrap.resample_counts``), so the whole table costs one
matrix product. The Score of any group with all four components is computed per resample
from its FE, AR, PR and RL columns (``score.bemula_score``).

Every ``MetricValue`` keeps its per-item values (``items``) and the count of items left out
and why (``excluded``), so any number can be recomputed offline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bemula.metrics.bootstrap import (
    CONFIDENCE,
    DEFAULT_SEED,
    N_RESAMPLES,
    percentile_interval,
    resample_counts,
    resampled_ratios,
)
from bemula.metrics.definitions import (
    PASS,
    SCORE,
    Metric,
    RequestOutcome,
    all_metrics,
    metric_names,
    request_outcomes,
)
from bemula.metrics.items import COUNTED, ItemRow, ScoredInstance, item_rows, turns_of
from bemula.model import AttackFrame, RequestType, Tier
from bemula.runfolder.records import VerdictRecord

ColumnKey = tuple[str, str, str]  # (dimension, group, metric)
N_LENGTH_BINS = 5
DIMENSIONS = ("type", "frame", "tier", "length")


@dataclass(frozen=True)
class ItemValue:
    """One item of one metric: a question (or, for request pass, a request)."""

    instance_id: str
    item_id: str
    value: bool | None
    status: str


@dataclass
class MetricValue:
    """One metric on 0–100 with its 95% interval, count, exclusions and per-item values."""

    key: ColumnKey
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    excluded: dict[str, int] = field(default_factory=dict)
    items: list[ItemValue] = field(default_factory=list)

    @property
    def unscored(self) -> int:
        return self.excluded.get("unscored", 0)

    def as_json(self, *, with_items: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": _round(self.value),
            "ci_low": _round(self.ci_low),
            "ci_high": _round(self.ci_high),
            "n": self.n,
        }
        if self.excluded:
            out["excluded"] = dict(sorted(self.excluded.items()))
        if with_items:
            out["items"] = [
                {"instance_id": it.instance_id, "id": it.item_id, "value": it.value, "status": it.status}
                for it in self.items
            ]
        return out


@dataclass(frozen=True)
class LengthBin:
    index: int  # 1-based, shortest first
    min_turns: int
    max_turns: int
    instance_ids: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.min_turns}–{self.max_turns}"


def length_bins(turns: dict[str, int], n_bins: int = N_LENGTH_BINS) -> list[LengthBin]:
    """Quintile bins of dialogue length: instances sorted by turns per version (ties by id),
    split into ``n_bins`` groups of (nearly) equal size — always ``n_bins`` non-empty bins
    when there are at least that many instances. Bins depend only on the instance set, so
    runs on the same data share them."""
    order = sorted(turns, key=lambda iid: (turns[iid], iid))
    bins: list[LengthBin] = []
    for chunk in np.array_split(np.array(order, dtype=object), min(n_bins, len(order)) or 1):
        ids = tuple(str(x) for x in chunk)
        if ids:
            bins.append(LengthBin(len(bins) + 1, turns[ids[0]], turns[ids[-1]], ids))
    return bins


@dataclass
class RunScores:
    """Every metric of one run (one system × backbone × judge)."""

    label: str
    judge: str
    instance_ids: list[str]
    values: dict[ColumnKey, MetricValue]
    bins: list[LengthBin]
    rows: list[ItemRow]
    requests: list[RequestOutcome]
    n_resamples: int
    seed: int
    confidence: float
    meta: dict[str, Any] = field(default_factory=dict)
    #: planned instances without a single answer: {"instances": [ids], "questions": n}
    unanswered: dict[str, Any] = field(default_factory=lambda: {"instances": [], "questions": 0})
    # kept for paired differences: per-instance sums, column order
    columns: list[ColumnKey] = field(default_factory=list, repr=False)
    num: np.ndarray | None = field(default=None, repr=False)
    den: np.ndarray | None = field(default=None, repr=False)

    def get(self, metric: str, dimension: str = "", group: str = "") -> MetricValue | None:
        return self.values.get((dimension, group, metric))

    def __getitem__(self, metric: str) -> MetricValue:
        value = self.values.get(("", "", metric))
        if value is None:
            raise KeyError(metric)
        return value

    def groups(self, dimension: str) -> list[str]:
        seen = []
        for dim, group, _ in self.values:
            if dim == dimension and group not in seen:
                seen.append(group)
        order = _GROUP_ORDER.get(dimension)
        if order:
            seen.sort(key=lambda g: order.index(g) if g in order else len(order))
        return seen

    @property
    def unscored(self) -> dict[str, Any]:
        """Verdicts that are unscored (counted apart, never right or wrong)."""
        unscored = [r for r in self.rows if r.judged and r.correct is None]
        missing = [r for r in self.rows if not r.judged]
        reasons = Counter(r.unscored for r in unscored)
        by_metric: dict[str, int] = {}
        for m in (metric.name for metric in all_metrics() if metric.kind != "composite"):
            value = self.values.get(("", "", m))
            if value is not None and value.excluded.get("unscored"):
                by_metric[m] = value.excluded["unscored"]
        return {
            "total": len(unscored),
            "missing": len(missing),
            "by_reason": dict(sorted(reasons.items())),
            "by_metric": by_metric,
        }

    def to_json(self, *, with_items: bool = False) -> dict[str, Any]:
        """The ``bemula score --json`` object (values on 0–100)."""

        def mv(key: ColumnKey) -> dict[str, Any] | None:
            value = self.values.get(key)
            return value.as_json(with_items=with_items) if value is not None else None

        out: dict[str, Any] = {}
        for metric in all_metrics():
            out[metric.key] = mv(("", "", metric.name))
            if metric.by_frame:
                out[f"{metric.name}_by_frame"] = {
                    g: mv(("frame", g, metric.name)) for g in self.groups("frame") if ("frame", g, metric.name) in self.values
                }
        out["unscored"] = self.unscored
        out["unanswered"] = dict(self.unanswered)
        breakdowns: dict[str, Any] = {}
        for dim, name in (("type", "request_type"), ("tier", "tier"), ("length", "length_bin")):
            table: dict[str, Any] = {}
            for group in self.groups(dim):
                cell: dict[str, Any] = {
                    metric: value.as_json(with_items=with_items)
                    for (d, g, metric), value in self.values.items()
                    if d == dim and g == group
                }
                if dim == "length":
                    b = self.bins[int(group) - 1]
                    cell["turns"] = [b.min_turns, b.max_turns]
                    cell["instances"] = len(b.instance_ids)
                table[group] = cell
            breakdowns[name] = table
        out["breakdowns"] = breakdowns
        out["run"] = {
            **self.meta,
            "label": self.label,
            "judge": self.judge,
            "instances": len(self.instance_ids),
            "n_resamples": self.n_resamples,
            "seed": self.seed,
            "confidence": self.confidence,
        }
        return out


_GROUP_ORDER: dict[str, list[str]] = {
    "type": [t.value for t in RequestType],
    "frame": [f.value for f in AttackFrame],
    "tier": [t.value for t in Tier],
    "length": [str(i) for i in range(1, 20)],
}


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def _memberships(row_type: RequestType | None, tier: Tier, length_group: str) -> list[tuple[str, str]]:
    out = [("", ""), ("tier", tier.value), ("length", length_group)]
    if row_type is not None:
        out.append(("type", row_type.value))
    return out


def compute_scores(
    instances: Sequence[ScoredInstance],
    verdicts: dict[tuple[str, str], VerdictRecord],
    *,
    label: str = "",
    judge: str = "",
    turns: dict[str, int] | None = None,
    n_resamples: int = N_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = CONFIDENCE,
    meta: dict[str, Any] | None = None,
) -> RunScores:
    """All metrics of a run over ``instances`` (the run's instances, in a fixed order)."""
    turns = turns or {inst.id: turns_of(inst) for inst in instances}
    rows = item_rows(instances, verdicts, turns)
    requests = request_outcomes(instances, rows)
    bins = length_bins({inst.id: turns[inst.id] for inst in instances})
    bin_of = {iid: str(b.index) for b in bins for iid in b.instance_ids}
    index = {inst.id: i for i, inst in enumerate(instances)}

    cells: dict[ColumnKey, list[tuple[int, ItemValue]]] = {}

    def add(key: ColumnKey, inst_i: int, item: ItemValue) -> None:
        cells.setdefault(key, []).append((inst_i, item))

    metrics = all_metrics()
    item_metrics = [m for m in metrics if m.kind == "item"]
    for row in rows:
        item = ItemValue(row.instance_id, row.question_id, row.value, row.status)
        i = index[row.instance_id]
        for metric in item_metrics:
            assert metric.selects is not None
            if not metric.selects(row):
                continue
            for dim, group in _memberships(row.request_type, row.tier, bin_of[row.instance_id]):
                add((dim, group, metric.name), i, item)
            if metric.by_frame and row.frame is not None:
                add(("frame", row.frame.value, metric.name), i, item)
    for req in requests:
        item = ItemValue(req.instance_id, req.request_id, req.value, req.status)
        i = index[req.instance_id]
        for dim, group in _memberships(req.request_type, req.tier, bin_of[req.instance_id]):
            add((dim, group, PASS), i, item)
    # headline columns exist even when empty, so the JSON shape never changes
    for metric in metrics:
        if metric.kind != "composite":
            cells.setdefault(("", "", metric.name), [])

    columns = sorted(cells, key=_column_order)
    n_inst = len(instances)
    num = np.zeros((n_inst, len(columns)))
    den = np.zeros((n_inst, len(columns)))
    for j, key in enumerate(columns):
        for i, item in cells[key]:
            if item.status == COUNTED and item.value is not None:
                den[i, j] += 1
                num[i, j] += bool(item.value)

    counts = resample_counts(n_inst, n_resamples, seed)
    boot = resampled_ratios(counts, num, den)
    lo, hi = percentile_interval(boot, confidence)
    total_num, total_den = num.sum(axis=0), den.sum(axis=0)

    values: dict[ColumnKey, MetricValue] = {}
    col_index = {key: j for j, key in enumerate(columns)}
    for key, j in col_index.items():
        items = [item for _, item in cells[key]]
        excluded = Counter(item.status for item in items if item.status != COUNTED)
        point = total_num[j] / total_den[j] if total_den[j] else None
        values[key] = MetricValue(
            key=key,
            value=None if point is None else 100.0 * point,
            ci_low=None if point is None or np.isnan(lo[j]) else 100.0 * lo[j],
            ci_high=None if point is None or np.isnan(hi[j]) else 100.0 * hi[j],
            n=int(total_den[j]),
            excluded=dict(excluded),
            items=items,
        )

    # composites (Score) for every group that has all their components, all groups'
    # intervals in one call per composite
    groups = {(d, g) for d, g, _ in columns}
    for composite in (m for m in metrics if m.kind == "composite"):
        values.update(_composite_values(composite, groups, col_index, total_num, total_den, boot, cells, confidence))
    return RunScores(
        label=label,
        judge=judge,
        instance_ids=[inst.id for inst in instances],
        values=values,
        bins=bins,
        rows=rows,
        requests=requests,
        n_resamples=n_resamples,
        seed=seed,
        confidence=confidence,
        meta=dict(meta or {}),
        columns=columns,
        num=num,
        den=den,
    )


def _composite_values(
    composite: Metric,
    groups: set[tuple[str, str]],
    col_index: dict[ColumnKey, int],
    total_num: np.ndarray,
    total_den: np.ndarray,
    boot: np.ndarray,
    cells: dict[ColumnKey, list[tuple[int, ItemValue]]],
    confidence: float,
) -> dict[ColumnKey, MetricValue]:
    """``composite`` of its components' fractions, per group and per bootstrap resample."""
    assert composite.combine is not None
    keys: list[tuple[ColumnKey, float | None, int]] = []
    samples: list[np.ndarray] = []
    for dim, group in sorted(groups):
        parts = [col_index.get((dim, group, m)) for m in composite.components]
        if dim == "frame" or any(p is None for p in parts):
            continue
        cols = [p for p in parts if p is not None]
        fractions = [total_num[p] / total_den[p] if total_den[p] else None for p in cols]
        members = {it.instance_id for m in composite.components for _, it in cells.get((dim, group, m), [])}
        point = None if None in fractions else float(composite.combine(*fractions))
        keys.append(((dim, group, composite.name), point, len(members)))
        samples.append(composite.combine(*(boot[:, p] for p in cols)))
    out: dict[ColumnKey, MetricValue] = {}
    if keys:
        lo, hi = percentile_interval(np.column_stack(samples), confidence)
        for k, (key, point, n_members) in enumerate(keys):
            out[key] = MetricValue(
                key=key,
                value=None if point is None else 100.0 * point,
                ci_low=None if point is None or np.isnan(lo[k]) else 100.0 * lo[k],
                ci_high=None if point is None or np.isnan(hi[k]) else 100.0 * hi[k],
                n=n_members,
            )
    return out


def _column_order(key: ColumnKey) -> tuple[int, int, str, int]:
    dim, group, metric = key
    dim_i = 0 if dim == "" else 1 + DIMENSIONS.index(dim)
    order = _GROUP_ORDER.get(dim, [])
    group_i = order.index(group) if group in order else len(order)
    names = metric_names()
    return (dim_i, group_i, group, names.index(metric) if metric in names else len(names))


@dataclass(frozen=True)
class Difference:
    """``a − b`` on one metric with its paired 95% interval (points on 0–100)."""

    metric: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n_instances: int

    def as_json(self) -> dict[str, Any]:
        return {
            "value": _round(self.value),
            "ci_low": _round(self.ci_low),
            "ci_high": _round(self.ci_high),
            "n_instances": self.n_instances,
        }


def paired_difference(
    a: RunScores,
    b: RunScores,
    metric: str = SCORE,
    *,
    dimension: str = "",
    group: str = "",
    n_resamples: int | None = None,
    seed: int | None = None,
) -> Difference:
    """Paired cluster-bootstrap interval for ``a − b``: both runs are resampled with the
    *same* instance ids in every resample (they must cover the same instances)."""
    if sorted(a.instance_ids) != sorted(b.instance_ids):
        only = sorted(set(a.instance_ids) ^ set(b.instance_ids))
        raise ValueError(
            f"paired difference needs runs on the same instances; {a.label!r} and {b.label!r} differ on {only[:3]}"
        )
    ids = sorted(a.instance_ids)
    n_resamples = n_resamples or a.n_resamples
    counts = resample_counts(len(ids), n_resamples, a.seed if seed is None else seed)
    definition = next((m for m in all_metrics() if m.name == metric), None)
    composite = definition if definition is not None and definition.kind == "composite" else None
    parts = composite.components if composite is not None else (metric,)

    def samples_and_point(run: RunScores) -> tuple[np.ndarray, float | None]:
        assert run.num is not None and run.den is not None
        order = [run.instance_ids.index(i) for i in ids]
        cols = [run.columns.index((dimension, group, m)) if (dimension, group, m) in run.columns else -1 for m in parts]
        if -1 in cols:
            return np.full(n_resamples, np.nan), None
        num, den = run.num[order][:, cols], run.den[order][:, cols]
        boot = resampled_ratios(counts, num, den)
        tot_num, tot_den = num.sum(axis=0), den.sum(axis=0)
        if (tot_den == 0).any():
            return boot[:, 0] * np.nan, None
        points = tot_num / tot_den
        if composite is not None:
            assert composite.combine is not None
            return composite.combine(*(boot[:, k] for k in range(len(parts)))), float(composite.combine(*points))
        return boot[:, 0], float(points[0])

    sa, pa = samples_and_point(a)
    sb, pb = samples_and_point(b)
    if pa is None or pb is None:
        return Difference(metric, None, None, None, len(ids))
    lo, hi = percentile_interval((sa - sb)[:, None], a.confidence)
    return Difference(
        metric,
        100.0 * (pa - pb),
        None if np.isnan(lo[0]) else 100.0 * lo[0],
        None if np.isnan(hi[0]) else 100.0 * hi[0],
        len(ids),
    )
