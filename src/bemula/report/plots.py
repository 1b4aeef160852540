"""The report's figures (matplotlib, headless): the efficacy–preservation trade-off, per
request type, per attack frame, and dialogue-length curves. Each figure is returned as PNG
bytes, so the HTML page can embed it (base64) and the report folder can hold the file."""

from __future__ import annotations

import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")  # no display, ever
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from bemula.metrics.compute import MetricValue, RunScores  # noqa: E402

DPI = 110


def _png(fig: plt.Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _err(mv: MetricValue | None) -> tuple[float, float, float]:
    """(value, lower error, upper error); NaN when missing."""
    if mv is None or mv.value is None:
        return (np.nan, 0.0, 0.0)
    lo = mv.value - mv.ci_low if mv.ci_low is not None else 0.0
    hi = mv.ci_high - mv.value if mv.ci_high is not None else 0.0
    return (mv.value, max(lo, 0.0), max(hi, 0.0))


def tradeoff_plot(runs: Sequence[RunScores]) -> bytes:
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    for r in runs:
        x, xl, xh = _err(r.get("FE"))
        y, yl, yh = _err(r.get("PR"))
        if np.isnan(x) or np.isnan(y):
            continue
        ax.errorbar(x, y, xerr=[[xl], [xh]], yerr=[[yl], [yh]], fmt="o", capsize=3, label=r.label)
        ax.annotate(r.label, (x, y), textcoords="offset points", xytext=(5, 5), fontsize=8)
    ax.set_xlim(-3, 103)
    ax.set_ylim(-3, 103)
    ax.set_xlabel("Forgetting efficacy FE (%)")
    ax.set_ylabel("Preservation PR (%)")
    ax.set_title("Efficacy–preservation trade-off (95% CI)")
    ax.grid(alpha=0.3)
    return _png(fig)


def grouped_bars(runs: Sequence[RunScores], dimension: str, metric: str, title: str, xlabel: str) -> bytes:
    groups: list[str] = []
    for r in runs:
        for g in r.groups(dimension):
            if g not in groups and r.get(metric, dimension, g) is not None:
                groups.append(g)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.1 * len(groups) + 2), 4))
    width = 0.8 / max(len(runs), 1)
    xs = np.arange(len(groups))
    for k, r in enumerate(runs):
        vals = [_err(r.get(metric, dimension, g)) for g in groups]
        heights = [0.0 if np.isnan(v[0]) else v[0] for v in vals]
        yerr = [[v[1] for v in vals], [v[2] for v in vals]]
        ax.bar(xs + (k - (len(runs) - 1) / 2) * width, heights, width, yerr=yerr, capsize=2, label=r.label)
    ax.set_xticks(xs, groups)
    ax.set_ylim(0, 105)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"{metric} (%)")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    if runs:
        ax.legend(fontsize=8)
    return _png(fig)


def length_curves(runs: Sequence[RunScores], metrics: Sequence[str] | None = None) -> bytes:
    """One panel per forget-version item metric (every registered one but retention, which
    is asked on the control version) against dialogue length."""
    if metrics is None:
        from bemula.metrics.definitions import item_metrics

        metrics = [m.name for m in item_metrics() if m.name != "RA"]
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics), 3.4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, metric in zip(axes, metrics, strict=True):
        for r in runs:
            groups = r.groups("length")
            vals = [_err(r.get(metric, "length", g)) for g in groups]
            xs = [int(g) for g in groups]
            ys = [v[0] for v in vals]
            ax.errorbar(xs, ys, yerr=[[v[1] for v in vals], [v[2] for v in vals]], marker="o", capsize=2, label=r.label)
        if runs and runs[0].bins:
            ax.set_xticks([b.index for b in runs[0].bins], [f"{b.index}\n{b.label}" for b in runs[0].bins], fontsize=7)
        ax.set_title(metric)
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
        ax.set_xlabel("length bin (turns)")
    axes[0].set_ylabel("%")
    axes[-1].legend(fontsize=7)
    fig.suptitle("Metrics by dialogue length (quintile bins of turns per instance)")
    return _png(fig)


def all_plots(runs: Sequence[RunScores]) -> dict[str, bytes]:
    return {
        "tradeoff": tradeoff_plot(runs),
        "fe_by_type": grouped_bars(runs, "type", "FE", "Forgetting efficacy per request type", "request type"),
        "ar_by_frame": grouped_bars(runs, "frame", "AR", "Attack robustness per attack frame", "attack frame"),
        "length_curves": length_curves(runs),
    }
