"""How far two judges agree on the same run: raw agreement, Cohen's kappa, the disagreements.

Compared on the items both judges scored (an unscored verdict on either side is counted
apart, never as agreement or disagreement).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bemula.runfolder.records import VerdictRecord


@dataclass
class Disagreement:
    instance_id: str
    question_id: str
    a: VerdictRecord
    b: VerdictRecord


@dataclass
class Agreement:
    judge_a: str
    judge_b: str
    n: int  # items both scored
    agree: int
    kappa: float | None  # None when undefined (both judges constant and identical)
    leak_agree: int
    only_in_a: int
    only_in_b: int
    unscored_a: int
    unscored_b: int
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def rate(self) -> float | None:
        return self.agree / self.n if self.n else None

    def as_dict(self) -> dict:
        return {
            "judge_a": self.judge_a,
            "judge_b": self.judge_b,
            "n": self.n,
            "agree": self.agree,
            "agreement": self.rate,
            "kappa": self.kappa,
            "leak_agreement": self.leak_agree / self.n if self.n else None,
            "only_in_a": self.only_in_a,
            "only_in_b": self.only_in_b,
            "unscored_a": self.unscored_a,
            "unscored_b": self.unscored_b,
            "disagreements": [
                {
                    "instance_id": d.instance_id,
                    "question_id": d.question_id,
                    "a": {"correct": d.a.correct, "leaked": d.a.leaked, "reason": d.a.reason},
                    "b": {"correct": d.b.correct, "leaked": d.b.leaked, "reason": d.b.reason},
                }
                for d in self.disagreements
            ],
        }


def cohen_kappa(pairs: list[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa for two binary raters; None when chance agreement is 1 (undefined)."""
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(a == b for a, b in pairs) / n
    pa = sum(a for a, _ in pairs) / n
    pb = sum(b for _, b in pairs) / n
    expected = pa * pb + (1 - pa) * (1 - pb)
    if expected >= 1.0:
        return None
    return (observed - expected) / (1 - expected)


def compare(
    a: dict[tuple[str, str], VerdictRecord],
    b: dict[tuple[str, str], VerdictRecord],
    *,
    judge_a: str,
    judge_b: str,
) -> Agreement:
    common = sorted(set(a) & set(b))
    pairs: list[tuple[bool, bool]] = []
    disagreements: list[Disagreement] = []
    leak_agree = unscored_a = unscored_b = 0
    for key in common:
        va, vb = a[key], b[key]
        if va.correct is None or vb.correct is None:
            unscored_a += va.correct is None
            unscored_b += vb.correct is None
            continue
        pairs.append((va.correct, vb.correct))
        leak_agree += va.leaked == vb.leaked
        if va.correct != vb.correct:
            disagreements.append(Disagreement(key[0], key[1], va, vb))
    return Agreement(
        judge_a=judge_a,
        judge_b=judge_b,
        n=len(pairs),
        agree=sum(x == y for x, y in pairs),
        kappa=cohen_kappa(pairs),
        leak_agree=leak_agree,
        only_in_a=len(set(a) - set(b)),
        only_in_b=len(set(b) - set(a)),
        unscored_a=unscored_a,
        unscored_b=unscored_b,
        disagreements=disagreements,
    )
