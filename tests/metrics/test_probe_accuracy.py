"""metrics.probes: judged control probes answered right, overall / per suite / per frame."""

from __future__ import annotations

from bemula.metrics.items import ItemRow
from bemula.metrics.probes import probe_accuracy
from bemula.model import AttackFrame, Suite, Tier, Version


def _row(qid: str, suite: Suite, correct: bool | None, *, probe: bool = True, frame: AttackFrame | None = None) -> ItemRow:
    return ItemRow(instance_id="i", question_id=qid, suite=suite, version=Version.CONTROL if probe else Version.FORGET,
                   is_probe=probe, frame=frame, request_id="R1", request_type=None, fact_id="A1", tier=Tier.SHORT,
                   turns=10, correct=correct, leaked=False, judged=correct is not None, reason="", unscored="",
                   probe_id=None, probe_correct=None, probe_judged=False)


def test_counts_by_hand() -> None:
    rows = [
        _row("Q1-P", Suite.EFFICACY, True),
        _row("Q2-P", Suite.ATTACK, True, frame=AttackFrame.ROLE_PLAY),
        _row("Q3-P", Suite.ATTACK, False, frame=AttackFrame.ROLE_PLAY),
        _row("Q4-P", Suite.ATTACK, None, frame=AttackFrame.JAILBREAK),  # unscored: not counted
        _row("Q5", Suite.ATTACK, False, probe=False, frame=AttackFrame.ROLE_PLAY),  # not a probe
    ]
    got = {a.group: (a.right, a.judged) for a in probe_accuracy(rows)}
    assert got == {"all": (2, 3), "suite efficacy": (1, 1), "suite attack": (1, 2), "frame role-play": (1, 2)}
    assert probe_accuracy(rows)[0].group == "all" and probe_accuracy(rows)[0].rate == 200 / 3
