from __future__ import annotations

import numpy as np

from bemula.metrics.bootstrap import percentile_interval, resample_counts, resampled_ratios


def test_count_matrix_matches_the_drawn_indices() -> None:
    counts = resample_counts(7, 500, seed=3)
    assert counts.shape == (500, 7)
    assert (counts.sum(axis=1) == 7).all()
    idx = np.random.default_rng(3).integers(0, 7, size=(500, 7))
    for b in (0, 17, 499):
        assert (np.bincount(idx[b], minlength=7) == counts[b]).all()


def test_vectorised_ratios_equal_a_plain_loop() -> None:
    rng = np.random.default_rng(0)
    num = rng.integers(0, 4, size=(9, 3)).astype(float)
    den = num + rng.integers(0, 3, size=(9, 3))
    den[:, 2] = 0
    den[4, 2], num[4, 2] = 2, 1  # column 2: only instance 4 has items
    counts = resample_counts(9, 200, seed=1)
    ratios = resampled_ratios(counts, num, den)
    idx = np.random.default_rng(1).integers(0, 9, size=(200, 9))
    for b in range(200):
        for m in range(3):
            d = den[idx[b], m].sum()
            expected = num[idx[b], m].sum() / d if d else np.nan
            assert np.isnan(ratios[b, m]) if np.isnan(expected) else ratios[b, m] == expected


def test_percentiles_ignore_empty_resamples() -> None:
    samples = np.array([[np.nan, 1.0], [0.5, 1.0], [0.7, 1.0]])
    lo, hi = percentile_interval(samples)
    assert 0.5 <= lo[0] <= hi[0] <= 0.7 and lo[1] == hi[1] == 1.0
    lo, hi = percentile_interval(np.full((4, 1), np.nan))
    assert np.isnan(lo[0]) and np.isnan(hi[0])
