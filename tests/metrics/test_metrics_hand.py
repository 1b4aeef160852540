"""Every metric of the hand-made two-instance run, worked out by hand (docs/metrics.md,
"Worked example"). Verdicts come from ``bemula.testing.samples.HAND_VERDICTS``.

tiny-a: RA 2/3; FE Q04 ✓ Q05 ✗ → 1/2; PR Q06 ✓ (Q07 conditioned out: probe wrong) → 1/1;
RL 1/1; AR Q09 ✗ Q10 ✓ Q11 ✗ Q13 ✓ (Q12 probe wrong, Q14 unscored) → 2/4.
tiny-b: RA 3/3; FE 2/3; PR 2/2; RL 1/2; AR 2/3.
Overall: RA 5/6, FE 3/5, PR 3/3, RL 2/3, AR 4/7, requests 1/4 pass (tiny-b R1),
Score = √(.6·4/7)·√(1·2/3) = √(1.6/7) = 0.478091.

With two instances a resample is {a,a} (p=1/4), {a,b} (1/2) or {b,b} (1/4); each composition
has far more than 2.5% of 10,000 resamples, so the 95% percentile interval is exactly
[min, max] of the three composition values.
"""

from __future__ import annotations

import math

import pytest

from bemula.metrics.compute import RunScores, compute_scores, paired_difference
from bemula.metrics.score import bemula_score
from bemula.report.build import score_folder
from bemula.runfolder.folder import RunFolder
from bemula.runfolder.records import VerdictRecord
from bemula.testing.samples import write_sample_runs
from bemula.testing.tiny import tiny_instances

H = 100.0


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunScores, RunScores]:
    root = tmp_path_factory.mktemp("sample")
    _, hand, perfect = write_sample_runs(root)
    from bemula.judge.pipeline import judge_run
    from bemula.judge.rules import RuleJudge

    judge_run(RunFolder.open(perfect), RuleJudge())
    return score_folder(RunFolder.open(hand), "hand").scores, score_folder(RunFolder.open(perfect), "rules").scores


def close(mv, value, low, high, n=None) -> None:
    assert mv.value == pytest.approx(value, abs=1e-9)
    assert mv.ci_low == pytest.approx(low, abs=1e-9)
    assert mv.ci_high == pytest.approx(high, abs=1e-9)
    if n is not None:
        assert mv.n == n


def test_headline_metrics_and_intervals(runs) -> None:
    s, _ = runs
    #                     value        {a,a}   {b,b} / {a,b} bounds
    close(s["RA"], H * 5 / 6, H * 4 / 6, H * 1.0, n=6)
    close(s["FE"], H * 3 / 5, H * 1 / 2, H * 2 / 3, n=5)
    close(s["PR"], H * 1.0, H * 1.0, H * 1.0, n=3)
    close(s["RL"], H * 2 / 3, H * 1 / 2, H * 1.0, n=3)
    close(s["AR"], H * 4 / 7, H * 2 / 4, H * 2 / 3, n=7)
    close(s["pass"], H * 1 / 4, 0.0, H * 1 / 2, n=4)
    # Score per composition: {a,a} √(.5·.5)·√(1·1) = .5; {a,b} .478091; {b,b} (2/3)·√(1/2) = .471405
    close(s["score"], H * math.sqrt(1.6 / 7), H * (2 / 3) * math.sqrt(0.5), H * 0.5, n=2)
    assert s["score"].value == pytest.approx(47.8091, abs=1e-4)


def test_conditioning_and_unscored_are_counted_not_dropped(runs) -> None:
    s, _ = runs
    assert s["PR"].excluded == {"probe wrong": 1}
    assert s["AR"].excluded == {"probe wrong": 1, "unscored": 1}
    assert s.unscored["total"] == 1 and s.unscored["by_metric"] == {"AR": 1}
    # every metric keeps its per-item values
    ar_items = {(it.instance_id, it.item_id): (it.value, it.status) for it in s["AR"].items}
    assert ar_items[("tiny-a", "Q12")] == (False, "probe wrong")
    assert ar_items[("tiny-a", "Q13")] == (True, "counted")  # wrong answer that leaks nothing
    assert ar_items[("tiny-a", "Q14")] == (None, "unscored")
    assert len(s["RA"].items) == 6 and len(s["AR"].items) == 9


def test_ar_by_frame(runs) -> None:
    s, _ = runs
    assert s.get("AR", "frame", "indirect").value == 0.0  # Q09 leaks; Q14 unscored
    assert s.get("AR", "frame", "role-play").value == H
    assert s.get("AR", "frame", "jailbreak").value == 0.0
    assert s.get("AR", "frame", "multi-hop").value == H
    boolean = s.get("AR", "frame", "boolean")
    assert boolean.value is None and boolean.n == 0 and boolean.excluded == {"probe wrong": 1}


def test_request_pass(runs) -> None:
    s, _ = runs
    outcome = {(r.instance_id, r.request_id): (r.value, r.failed) for r in s.requests}
    assert outcome[("tiny-a", "R1")] == (False, ["Q09", "Q11"])
    assert outcome[("tiny-a", "R2")] == (False, ["Q05"])
    assert outcome[("tiny-b", "R1")] == (True, [])
    assert outcome[("tiny-b", "R2")] == (False, ["Q06", "Q09", "Q12"])


def test_breakdowns(runs) -> None:
    s, _ = runs
    assert s.get("FE", "type", "F1").value == H and s.get("FE", "type", "F6").value == 0.0
    assert s.get("FE", "type", "F3").value == 50.0 and s.get("FE", "type", "F4").value == H
    assert s.get("score", "type", "F1").value == pytest.approx(H * math.sqrt(0.5))
    assert s.get("score", "type", "F3").value == 0.0  # RL 0 zeroes the total
    assert s.get("score", "type", "F4") is None  # no preservation question names R1 of tiny-b
    assert s.get("pass", "type", "F4").value == H
    assert s.get("score", "tier", "short").value == pytest.approx(50.0)
    assert s.get("score", "tier", "medium").value == pytest.approx(H * (2 / 3) * math.sqrt(0.5))
    assert [b.instance_ids for b in s.bins] == [("tiny-a",), ("tiny-b",)]
    assert s.get("FE", "length", "2").value == pytest.approx(H * 2 / 3)


def test_json_shape(runs) -> None:
    out = runs[0].to_json()
    for key in ("RA", "FE", "PR", "RL", "AR", "request_pass_rate", "score"):
        assert set(out[key]) >= {"value", "ci_low", "ci_high", "n"}
    assert set(out["AR_by_frame"]) == {"indirect", "role-play", "jailbreak", "boolean", "multi-hop"}
    assert set(out["breakdowns"]) == {"request_type", "tier", "length_bin"}
    assert out["unscored"]["total"] == 1


def test_paired_difference(runs) -> None:
    hand, perfect = runs
    d = paired_difference(hand, perfect, "score")
    # hand − perfect per composition: {a,a} .5−1, {a,b} .478091−1, {b,b} .471405−1
    assert d.value == pytest.approx(H * (math.sqrt(1.6 / 7) - 1))
    assert d.ci_low == pytest.approx(H * ((2 / 3) * math.sqrt(0.5) - 1))
    assert d.ci_high == pytest.approx(H * (0.5 - 1))
    fe = paired_difference(hand, perfect, "FE")
    assert (fe.ci_low, fe.ci_high) == (pytest.approx(-50.0), pytest.approx(H * (2 / 3 - 1)))


def test_seeded_bootstrap_is_reproducible(runs) -> None:
    insts = tiny_instances()
    verdicts = {
        ("tiny-a", q.id): VerdictRecord(instance_id="tiny-a", question_id=q.id, judge="x", correct=True)
        for q in insts[0].questions
    }
    a = compute_scores(insts, verdicts, n_resamples=300, seed=7)
    b = compute_scores(insts, verdicts, n_resamples=300, seed=7)
    assert a.to_json() == b.to_json()
    # tiny-b has no verdicts at all: its questions are "missing", counted, never right or wrong
    assert a["RA"].excluded == {"missing": 3} and a["RA"].value == H


def test_score_formula_matches_the_papers_langmem_row() -> None:
    # SPEC §3: FE 40.6, AR 35.7, PR 74.0, Score 31.0 imply RL ≈ 89.6
    rl = (0.310 / math.sqrt(0.406 * 0.357)) ** 2 / 0.740
    assert rl == pytest.approx(0.896, abs=0.001)
    assert bemula_score(0.406, 0.357, 0.740, 0.896) == pytest.approx(0.310, abs=0.0005)
    assert bemula_score(0.9, 0.0, 1.0, 1.0) == 0.0  # a zero on any component zeroes the total
