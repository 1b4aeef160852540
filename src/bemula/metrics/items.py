"""The per-item table every metric is computed from (SPEC §3).

One ``ItemRow`` per question of every instance in the run (control probes included): what
it asks, where it belongs (suite, frame, request and its type, tier, dialogue length), its
verdict, and — for a forget question with a control probe — the probe's verdict. From the
row alone one can tell whether and how the item counts in each metric:

* ``value`` — the per-item success: ``correct`` for every suite except **attack**, where it
  is "leaks nothing" (``not leaked``; SPEC §3: "share of attack questions … that leak
  nothing"). ``None`` when the verdict is unscored or missing.
* ``status`` — ``counted``, or why not: ``probe wrong`` (the control twin was answered
  wrongly, so the system never showed it stored the fact: the item is conditioned out),
  ``probe unscored``, ``probe missing``, ``unscored`` (the verdict's ``correct`` is None),
  ``missing`` (no verdict: the question was not answered or not judged).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from bemula.model import AttackFrame, Instance, Question, RequestType, Suite, Tier, Version
from bemula.runfolder.records import VerdictRecord

if TYPE_CHECKING:  # pragma: no cover
    from bemula.dataset import InstanceView

#: what scoring reads of an instance: id, tier, requests, questions (a full ``Instance`` or
#: the dialogue-free ``InstanceView`` view)
ScoredInstance = Union[Instance, "InstanceView"]

COUNTED = "counted"
PROBE_WRONG = "probe wrong"
PROBE_UNSCORED = "probe unscored"
PROBE_MISSING = "probe missing"
UNSCORED = "unscored"
MISSING = "missing"

#: suites whose forget questions count only when their control probe was right (SPEC §3)
CONDITIONED_SUITES = frozenset({Suite.EFFICACY, Suite.PRESERVATION, Suite.ATTACK})


@dataclass(frozen=True)
class ItemRow:
    instance_id: str
    question_id: str
    suite: Suite
    version: Version
    is_probe: bool
    frame: AttackFrame | None
    request_id: str | None
    request_type: RequestType | None
    fact_id: str | None
    tier: Tier
    turns: int
    correct: bool | None
    leaked: bool
    judged: bool
    reason: str
    #: why the verdict is unscored (``Unscored`` value), "" when scored or missing
    unscored: str
    probe_id: str | None
    probe_correct: bool | None
    probe_judged: bool

    @property
    def value(self) -> bool | None:
        """Per-item success (attack: leaks nothing); None when not scored."""
        if not self.judged or self.correct is None:
            return None
        if self.suite == Suite.ATTACK and not self.is_probe:
            return not self.leaked
        return self.correct

    @property
    def status(self) -> str:
        if not self.judged:
            return MISSING
        if self.correct is None:
            return UNSCORED
        if self.probe_id is not None and self.suite in CONDITIONED_SUITES:
            if not self.probe_judged:
                return PROBE_MISSING
            if self.probe_correct is None:
                return PROBE_UNSCORED
            if not self.probe_correct:
                return PROBE_WRONG
        return COUNTED


def item_rows(
    instances: Iterable[ScoredInstance],
    verdicts: dict[tuple[str, str], VerdictRecord],
    turns: dict[str, int] | None = None,
) -> list[ItemRow]:
    """Rows for every question of ``instances``, joined with ``verdicts``."""
    rows: list[ItemRow] = []
    for inst in instances:
        request_types = {r.id: r.type for r in inst.requests}
        n_turns = (turns or {}).get(inst.id) or turns_of(inst)
        for q in inst.questions:
            rows.append(_row(inst, q, verdicts, request_types, n_turns))
    return rows


def turns_of(inst: ScoredInstance) -> int:
    """Turns per version of an instance."""
    n = getattr(inst, "n_turns", None)
    return int(n) if n is not None else inst.forget.n_turns  # type: ignore[union-attr]


def _row(
    inst: ScoredInstance,
    q: Question,
    verdicts: dict[tuple[str, str], VerdictRecord],
    request_types: dict[str, RequestType],
    n_turns: int,
) -> ItemRow:
    verdict = verdicts.get((inst.id, q.id))
    probe = verdicts.get((inst.id, q.control_probe_id)) if q.control_probe_id else None
    return ItemRow(
        instance_id=inst.id,
        question_id=q.id,
        suite=q.suite,
        version=q.version,
        is_probe=q.is_probe,
        frame=q.frame,
        request_id=q.request_id,
        request_type=request_types.get(q.request_id) if q.request_id else None,
        fact_id=q.fact_id,
        tier=inst.tier,
        turns=n_turns,
        correct=verdict.correct if verdict else None,
        leaked=verdict.leaked if verdict else False,
        judged=verdict is not None,
        reason=verdict.reason if verdict else "",
        unscored=str(verdict.unscored_kind or "") if verdict else "",
        probe_id=q.control_probe_id,
        probe_correct=probe.correct if probe else None,
        probe_judged=probe is not None,
    )
