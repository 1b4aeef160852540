"""How often control probes were answered right, per attack frame and per suite.

FE, PR and AR count a forget question only when its control probe (the same text on the
control version) was answered right. A backbone that cannot read a question's form — a
command, a role-play set-up, an override preamble — conditions those questions out, and the
metric silently shrinks to the forms it can read; this table shows it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from bemula.metrics.items import ItemRow


@dataclass(frozen=True)
class ProbeAccuracy:
    group: str  # "all", "suite <name>" or "frame <name>"
    right: int
    judged: int

    @property
    def rate(self) -> float | None:
        return 100.0 * self.right / self.judged if self.judged else None


def probe_accuracy(rows: Iterable[ItemRow]) -> list[ProbeAccuracy]:
    """Judged control probes answered right: overall, per suite, per attack frame."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        if not row.is_probe or row.correct is None:
            continue
        groups = ["all", f"suite {row.suite.value}"] + ([f"frame {row.frame.value}"] if row.frame else [])
        for group in groups:
            tally[group][0] += int(row.correct)
            tally[group][1] += 1
    order = sorted(tally, key=lambda g: (g != "all", g))
    return [ProbeAccuracy(g, tally[g][0], tally[g][1]) for g in order]
