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


MARKERS = ("o", "s", "D", "^", "v", "P", "X", "*", "h", "<", ">")


def _legend_below(fig: plt.Figure, ax: plt.Axes, n: int) -> None:
    """The legend under the axes, never over the data."""
    if n:
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=min(3, n), frameon=False)


def tradeoff_plot(runs: Sequence[RunScores]) -> bytes:
    """FE against PR with intervals. Systems on the same point stay visible: each has its own
    hollow marker, drawn larger the earlier it comes; names are in the legend, not on the points."""
    fig, ax = plt.subplots(figsize=(6, 5.2))
    shown = 0
    for k, r in enumerate(runs):
        x, xl, xh = _err(r.get("FE"))
        y, yl, yh = _err(r.get("PR"))
        if np.isnan(x) or np.isnan(y):
            continue
        size = max(5, 12 - 1.5 * k)
        ax.errorbar(x, y, xerr=[[xl], [xh]], yerr=[[yl], [yh]], fmt=MARKERS[k % len(MARKERS)], markersize=size,
                    markerfacecolor="none", markeredgewidth=1.6, capsize=3, elinewidth=0.8, label=r.label)
        shown += 1
    missing = [r.label for r in runs if np.isnan(_err(r.get("FE"))[0]) or np.isnan(_err(r.get("PR"))[0])]
    ax.set_xlim(-3, 103)
    ax.set_ylim(-3, 103)
    ax.set_xlabel("Forgetting efficacy FE (%)")
    ax.set_ylabel("Preservation PR (%)")
    ax.set_title("Efficacy–preservation trade-off (95% CI)")
    ax.grid(alpha=0.3)
    if missing:
        ax.text(0.01, 0.01, "no data: " + ", ".join(missing), transform=ax.transAxes, fontsize=7, color="#666")
    _legend_below(fig, ax, shown)
    return _png(fig)


def grouped_bars(runs: Sequence[RunScores], dimension: str, metric: str, title: str, xlabel: str) -> bytes:
    """One bar per run and group; a run without data in a group gets a "no data" mark, not a
    bar of height 0 (which would read as a measured 0)."""
    groups: list[str] = []
    for r in runs:
        for g in r.groups(dimension):
            if g not in groups and r.get(metric, dimension, g) is not None:
                groups.append(g)
    fig, ax = plt.subplots(figsize=(max(5.5, 1.3 * len(groups) + 2), 4.4))
    width = 0.8 / max(len(runs), 1)
    xs = np.arange(len(groups))
    for k, r in enumerate(runs):
        vals = [_err(r.get(metric, dimension, g)) for g in groups]
        offsets = xs + (k - (len(runs) - 1) / 2) * width
        heights = [0.0 if np.isnan(v[0]) else v[0] for v in vals]
        yerr = [[v[1] for v in vals], [v[2] for v in vals]]
        ax.bar(offsets, heights, width, yerr=yerr, capsize=2, label=r.label)
        for x, v in zip(offsets, vals, strict=True):
            if np.isnan(v[0]):
                ax.text(x, 1.5, "no data", rotation=90, ha="center", va="bottom", fontsize=6, color="#777")
    ax.set_xticks(xs, groups)
    ax.set_ylim(0, 105)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"{metric} (%)")
    ax.set_title(title)
    ax.grid(axis="y", alpha=0.3)
    _legend_below(fig, ax, len(runs))
    return _png(fig)


def length_curves(runs: Sequence[RunScores], metrics: Sequence[str] | None = None) -> bytes:
    """One panel per forget-version item metric (every registered one but retention, which
    is asked on the control version) against dialogue length."""
    if metrics is None:
        from bemula.metrics.definitions import item_metrics

        metrics = [m.name for m in item_metrics() if m.name != "RA"]
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.6 * len(metrics), 4.0), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, metric in zip(axes, metrics, strict=True):
        for r in runs:
            groups = r.groups("length")
            vals = [_err(r.get(metric, "length", g)) for g in groups]
            xs = [int(g) for g in groups]
            ys = [v[0] for v in vals]
            ax.errorbar(xs, ys, yerr=[[v[1] for v in vals], [v[2] for v in vals]], marker="o", capsize=2, label=r.label)
        if runs and runs[0].bins:  # the bin number on the axis; its turn range under it, small
            ax.set_xticks([b.index for b in runs[0].bins], [f"{b.index}\n{b.label}" for b in runs[0].bins],
                          fontsize=6, rotation=30, ha="right")
        ax.set_title(metric)
        ax.set_ylim(-3, 103)
        ax.grid(alpha=0.3)
        ax.set_xlabel("length bin (turns)")
    axes[0].set_ylabel("%")
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=min(4, len(labels)), frameon=False,
                   bbox_to_anchor=(0.5, -0.16))
    fig.suptitle("Metrics by dialogue length (quintile bins of turns per instance)", y=1.02)
    fig.tight_layout()
    return _png(fig)


def all_plots(runs: Sequence[RunScores]) -> dict[str, bytes]:
    return {
        "tradeoff": tradeoff_plot(runs),
        "fe_by_type": grouped_bars(runs, "type", "FE", "Forgetting efficacy per request type", "request type"),
        "ar_by_frame": grouped_bars(runs, "frame", "AR", "Attack robustness per attack frame", "attack frame"),
        "length_curves": length_curves(runs),
    }
