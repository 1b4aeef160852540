"""The BEMULA Score, in one function (SPEC §3).

Score = forgetting ability × usability guard, with forgetting ability = √(FE·AR) and
usability guard = √(PR·RL), all on [0, 1]. A zero on any of the four components zeroes
the total. Check against the paper (SPEC §3, pinned in tests): LangMem/DeepSeek has FE 40.6,
AR 35.7, PR 74.0 and Score 31.0, which implies RL ≈ 89.6 — inside the reported RL range.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np

T = TypeVar("T", float, np.ndarray)


def bemula_score(fe: T, ar: T, pr: T, rl: T) -> T:
    """√(FE·AR)·√(PR·RL) for fractions in [0, 1]; works elementwise on numpy arrays."""
    return np.sqrt(fe * ar) * np.sqrt(pr * rl)
