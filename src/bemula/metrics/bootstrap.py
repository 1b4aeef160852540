"""Cluster bootstrap over instances, vectorised (SPEC §3 "Uncertainty").

Every metric is a ratio of sums over instances (numerator = items that succeeded,
denominator = items counted). Resampling *instances* with replacement keeps an instance's
items together — both versions, its control probes and the forget questions they condition
— so the conditioning stays intact. One index matrix (B resamples × n instances) is drawn
once and turned into a count matrix ``C`` (how often each instance is drawn in each
resample); then every metric's resampled numerators and denominators are ``C @ num`` and
``C @ den`` — one matrix product for all metrics, breakdowns included. Paired intervals
reuse the same ``C`` for both runs (the same resampled ids).

Intervals are 95% percentile intervals. A resample in which a metric has no counted item
(denominator 0) gives no value for that metric and is left out of its percentiles.
"""

from __future__ import annotations

import numpy as np

N_RESAMPLES = 10_000
DEFAULT_SEED = 20261018
CONFIDENCE = 0.95


def resample_counts(n_instances: int, n_resamples: int = N_RESAMPLES, seed: int = DEFAULT_SEED) -> np.ndarray:
    """``C[b, i]`` = how many times instance ``i`` is drawn in resample ``b``."""
    if n_instances == 0:
        return np.zeros((n_resamples, 0), dtype=np.float64)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n_instances, size=(n_resamples, n_instances))
    offsets = (np.arange(n_resamples) * n_instances)[:, None]
    counts = np.bincount((idx + offsets).ravel(), minlength=n_resamples * n_instances)
    return counts.reshape(n_resamples, n_instances).astype(np.float64)


def resampled_ratios(counts: np.ndarray, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Per resample and metric: sum(num)/sum(den) over the drawn instances; NaN where 0/0.

    ``num``, ``den``: (n_instances, n_metrics). Returns (n_resamples, n_metrics).
    """
    boot_num = counts @ num
    boot_den = counts @ den
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(boot_den > 0, boot_num / np.where(boot_den > 0, boot_den, 1.0), np.nan)


def percentile_interval(samples: np.ndarray, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval per column of ``samples`` (NaN resamples ignored; all-NaN -> NaN).

    Same values as ``np.nanpercentile`` (linear interpolation), computed for all columns at
    once: one sort (NaN sorts last), then each column interpolates among its valid values.
    """
    if samples.ndim == 1:
        samples = samples[:, None]
    tail = (1.0 - confidence) / 2.0
    ordered = np.sort(samples, axis=0)
    n_valid = (~np.isnan(samples)).sum(axis=0)
    cols = np.arange(samples.shape[1])

    def quantile(q: float) -> np.ndarray:
        pos = q * np.maximum(n_valid - 1, 0)
        below = np.floor(pos).astype(int)
        above = np.minimum(below + 1, np.maximum(n_valid - 1, 0))
        frac = pos - below
        lo_v, hi_v = ordered[below, cols], ordered[above, cols]
        with np.errstate(invalid="ignore"):
            value = lo_v + (hi_v - lo_v) * frac
        return np.where(n_valid > 0, value, np.nan)

    return quantile(tail), quantile(1.0 - tail)
