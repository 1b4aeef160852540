"""Metrics (SPEC §3): per-item table, suite metrics with control conditioning, request pass,
Score, cluster bootstrap and paired intervals, breakdowns. See docs/metrics.md."""

from __future__ import annotations

from bemula.metrics.compute import Difference, MetricValue, RunScores, compute_scores, paired_difference
from bemula.metrics.score import bemula_score

__all__ = ["Difference", "MetricValue", "RunScores", "bemula_score", "compute_scores", "paired_difference"]
