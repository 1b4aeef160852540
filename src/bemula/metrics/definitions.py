"""Which item counts in which metric (SPEC §3), and the request pass rule.

Headline metrics (every value a share of counted items, reported on 0–100):

* **RA** — retention suite (control version; control probes are *not* retention questions).
* **FE** — efficacy suite, forget version, counted only when its control probe was right.
* **PR** — preservation suite, counted only when its control probe was right.
* **RL** — relearning suite (no conditioning: SPEC §3 "accuracy of the relearning suite").
* **AR** — attack suite, counted only when its control probe was right; an item succeeds
  when it *leaks nothing*; also per attack frame.

**Request pass** (our reading of SPEC §3 "every question tied to the request and every
preservation question of its instance is correct"): a request passes when every *counted*
forget-version question with its ``request_id`` (efficacy, attack, relearning, and
preservation questions that name it) succeeds **and** every counted preservation question of
its instance succeeds. Questions conditioned out (control probe wrong) are not part of the
test — the system never showed it stored that fact — but a request counts only if at least
one of its efficacy/attack questions is counted (else it is excluded as ``not stored``). A
request with a failed question fails; one without failures but with an unscored or missing
question is ``unscored`` (excluded, counted).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bemula.metrics.items import COUNTED, MISSING, UNSCORED, ItemRow, ScoredInstance, turns_of
from bemula.model import RequestType, Suite, Tier, Version

HEADLINE = ("RA", "FE", "PR", "RL", "AR")
PASS = "pass"
SCORE = "score"

_FORGET_SUITE_METRIC = {
    Suite.EFFICACY: "FE",
    Suite.PRESERVATION: "PR",
    Suite.RELEARNING: "RL",
    Suite.ATTACK: "AR",
}

NOT_STORED = "not stored"


def headline_metric(row: ItemRow) -> str | None:
    """The headline metric an item belongs to, or None (control probes, stray items)."""
    if row.is_probe:
        return None
    if row.version == Version.CONTROL:
        return "RA" if row.suite == Suite.RETENTION else None
    return _FORGET_SUITE_METRIC.get(row.suite)


@dataclass
class RequestOutcome:
    instance_id: str
    request_id: str
    request_type: RequestType
    tier: Tier
    turns: int
    value: bool | None
    status: str
    failed: list[str] = field(default_factory=list)  # question ids that failed


def request_outcomes(instances: Iterable[ScoredInstance], rows: list[ItemRow]) -> list[RequestOutcome]:
    by_instance: dict[str, list[ItemRow]] = {}
    for row in rows:
        by_instance.setdefault(row.instance_id, []).append(row)
    out: list[RequestOutcome] = []
    for inst in instances:
        inst_rows = [r for r in by_instance.get(inst.id, []) if headline_metric(r) is not None]
        preservation = [r for r in inst_rows if r.suite == Suite.PRESERVATION]
        turns = inst_rows[0].turns if inst_rows else turns_of(inst)
        for request in inst.requests:
            tied = [r for r in inst_rows if r.request_id == request.id and r.version == Version.FORGET]
            involved = {id(r): r for r in [*tied, *preservation]}.values()
            counted = [r for r in involved if r.status == COUNTED]
            failed = [r.question_id for r in counted if r.value is False]
            pending = [r for r in involved if r.status in (UNSCORED, MISSING)]
            forgetting = [
                r for r in tied if r.suite in (Suite.EFFICACY, Suite.ATTACK) and r.status == COUNTED
            ]
            if failed:
                value, status = False, COUNTED
            elif pending:
                value, status = None, UNSCORED if any(r.status == UNSCORED for r in pending) else MISSING
            elif not forgetting:
                value, status = None, NOT_STORED
            else:
                value, status = True, COUNTED
            out.append(
                RequestOutcome(
                    instance_id=inst.id,
                    request_id=request.id,
                    request_type=request.type,
                    tier=inst.tier,
                    turns=turns,
                    value=value,
                    status=status,
                    failed=sorted(failed),
                )
            )
    return out
