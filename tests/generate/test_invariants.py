"""SPEC §1 invariants of the generated data, checked per request type, on the full seed-0
benchmark (generated once per session by the fixture in conftest.py)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bemula.model import AttackFrame, GoldKind, Instance, RequestType, Segment, Suite, Version

Pos = tuple[int, int]


def _positions(inst: Instance) -> tuple[dict[str, Pos], dict[str, Pos], dict[str, int]]:
    """fact id -> first statement position, request id -> position, session id -> index."""
    stated: dict[str, Pos] = {}
    requests: dict[str, Pos] = {}
    session_index = {s.id: i for i, s in enumerate(inst.forget.sessions)}
    for si, session in enumerate(inst.forget.sessions):
        for ti, turn in enumerate(session.turns):
            for fid in turn.annotations.facts:
                stated.setdefault(fid, (si, ti))
            if turn.annotations.segment == Segment.REQUEST:
                requests[turn.annotations.request_id or ""] = (si, ti)
    return stated, requests, session_index


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _mentions(text: str, form: str) -> bool:
    return f" {_norm(form)} " in f" {_norm(text)} "


def test_every_fact_is_stated_once(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        counts = Counter(fid for _, t in inst.forget.iter_turns() for fid in t.annotations.facts)
        assert set(counts) == {f.id for f in inst.profile.facts}, inst.id
        assert max(counts.values()) == 1, inst.id
        for _, turn in inst.forget.iter_turns():
            for fid in turn.annotations.facts:
                assert inst.fact(fid).statement in turn.text


def test_targets_stated_in_an_earlier_session(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        stated, requests, _ = _positions(inst)
        for r in inst.requests:
            rs, _ = requests[r.id]
            for tid in r.target_fact_ids:
                target = inst.fact(tid)
                sources = getattr(target, "source_fact_ids", None) or [tid]
                for sid in sources:
                    assert stated[sid][0] < rs, (inst.id, r.id, sid)


def test_request_types(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        stated, requests, session_index = _positions(inst)
        derived = {d.id: d for d in inst.profile.derived_facts}
        atomic = {f.id: f for f in inst.profile.facts}
        all_targets = [t for r in inst.requests for t in r.target_fact_ids]
        assert len(all_targets) == len(set(all_targets)), f"{inst.id}: targets overlap"
        for r in inst.requests:
            pos = requests[r.id]
            low = r.text.lower()
            assert any(w in low for w in ("forget", "delete", "erase", "remove", "wipe")), r.text
            if r.type == RequestType.F1:
                assert len(r.target_fact_ids) == 1
            elif r.type == RequestType.F2:
                assert len(r.target_fact_ids) >= 2
            elif r.type == RequestType.F3:
                before = sorted(f.id for f in inst.profile.facts
                                if f.category == r.category and stated[f.id] < pos)
                assert sorted(r.target_fact_ids) == before, (inst.id, r.id)
            elif r.type == RequestType.F4:
                (tid,) = r.target_fact_ids
                d = derived[tid]
                assert len(d.source_fact_ids) >= 2 and d.rationale
                for _, turn in inst.forget.iter_turns():
                    assert not _mentions(turn.text, d.value), f"{inst.id}: F4 conclusion stated: {turn.text}"
            elif r.type == RequestType.F5:
                assert r.window is not None
                (wsid,) = r.window.session_ids
                wi = session_index[wsid]
                in_window = sorted(fid for fid, (si, _) in stated.items() if si == wi)
                assert sorted(r.target_fact_ids) == in_window
                assert r.window.start <= r.window.end < inst.forget.sessions[pos[0]].start
            elif r.type == RequestType.F6:
                (tid,) = r.target_fact_ids
                assert r.new_value and r.new_value != atomic[tid].value
                assert r.new_value in r.text
        # relearning facts: after their request, same category, a different attribute
        for f in inst.profile.facts:
            if f.relearns is None:
                continue
            req = next(r for r in inst.requests if r.id == f.relearns)
            assert req.type != RequestType.F6
            assert stated[f.id] > requests[req.id]
            target_attrs = {inst.fact(t).attribute for t in req.target_fact_ids}
            assert f.attribute not in target_attrs


def test_versions_differ_only_at_requests(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        f_turns = [t for _, t in inst.forget.iter_turns()]
        c_turns = [t for _, t in inst.control.iter_turns()]
        assert [t.id for t in f_turns] == [t.id for t in c_turns]
        n_diff = 0
        for ft, ct in zip(f_turns, c_turns, strict=True):
            assert ft.timestamp == ct.timestamp and ft.role == ct.role
            if ft.annotations.segment in (Segment.REQUEST, Segment.CONFIRMATION):
                assert ct.annotations.segment == Segment.NEUTRAL
                assert ct.annotations.request_id == ft.annotations.request_id
                assert ft.text != ct.text
                n_diff += 1
            else:
                assert ft == ct
        assert n_diff == 2 * len(inst.requests)


def test_no_turn_repeats_and_filler_holds_no_value(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        for version in (inst.forget, inst.control):
            texts = [t.text for _, t in version.iter_turns()]
            dupes = [t for t, n in Counter(texts).items() if n > 1]
            assert not dupes, (inst.id, dupes[:3])
        # a targeted value appears only in the turn that states it (control version: no
        # requests), so forgetting that statement really removes it; F6 new values never
        turns = [(t, f" {_norm(t.text)} ") for _, t in inst.control.iter_turns()]
        for r in inst.requests:
            forms = [(t, form) for t in r.target_fact_ids for form in inst.fact(t).accepted]
            if r.new_value:
                forms.append(("new", r.new_value))
            for fid, form in forms:
                needle = f" {_norm(form)} "
                for turn, text in turns:
                    if needle in text:
                        assert fid in turn.annotations.facts, (inst.id, form, turn.text)


def test_questions(benchmark_seed0: list[Instance]) -> None:
    for inst in benchmark_seed0:
        by_id = {q.id: q for q in inst.questions}
        targets = {t: r for r in inst.requests for t in r.target_fact_ids}
        covered = set(targets)
        f3_categories = {r.category for r in inst.requests if r.type == RequestType.F3}
        for d in inst.profile.derived_facts:
            if d.id in targets:
                covered.update(d.source_fact_ids)
        shares_turn = {fid for _, t in inst.forget.iter_turns() if covered & set(t.annotations.facts)
                       for fid in t.annotations.facts}
        attacked = Counter()
        for q in inst.questions:
            if q.is_probe:
                parent = by_id[q.probe_of or ""]
                assert q.version == Version.CONTROL and q.text == parent.text
                assert q.gold.kind == GoldKind.VALUE
                assert q.gold.accepted[0] == inst.fact(q.fact_id or "").value  # F6: the old value
                continue
            if q.suite == Suite.RETENTION:
                assert q.version == Version.CONTROL and q.gold.kind == GoldKind.VALUE
                continue
            assert q.version == Version.FORGET
            if q.suite in (Suite.EFFICACY, Suite.PRESERVATION, Suite.ATTACK):
                assert by_id[q.control_probe_id or ""].probe_of == q.id
            fact = inst.fact(q.fact_id or "")
            if q.suite == Suite.PRESERVATION:
                assert q.fact_id not in covered and fact.category not in f3_categories
                assert q.fact_id not in shares_turn, "preservation fact stated in a target's turn"
                assert getattr(fact, "relearns", None) is None
                assert q.gold.accepted == fact.accepted
            elif q.suite == Suite.RELEARNING:
                assert fact.relearns == q.request_id
            elif q.suite in (Suite.EFFICACY, Suite.ATTACK):
                req = targets[q.fact_id or ""]
                assert q.gold.protected == fact.accepted
                if req.type == RequestType.F6:
                    assert req.new_value in q.gold.accepted
                    assert (q.gold.kind == GoldKind.VALUE) == (q.suite == Suite.EFFICACY)
                else:
                    assert q.gold.kind == GoldKind.SENTINEL and not q.gold.accepted
                if q.suite == Suite.ATTACK:
                    attacked[(q.fact_id, q.frame)] += 1
        per_target = Counter(fid for fid, _ in attacked)
        assert all(n == len(AttackFrame) for n in per_target.values())


def test_efficacy_question_not_answered_by_relearning_fact(benchmark_seed0: list[Instance]) -> None:
    """(c) of the brief: the relearning fact has a different attribute, hence a different
    question; no efficacy question text is the relearning question's core."""
    for inst in benchmark_seed0:
        relearn_q = {q.fact_id: q.text for q in inst.questions if q.suite == Suite.RELEARNING}
        for q in inst.questions:
            if q.suite == Suite.EFFICACY and not q.is_probe:
                for fid, _text in relearn_q.items():
                    assert inst.fact(fid).attribute != inst.fact(q.fact_id or "").attribute


@pytest.mark.parametrize("frame", list(AttackFrame))
def test_boolean_frame_names_the_value(benchmark_seed0: list[Instance], frame: AttackFrame) -> None:
    inst = benchmark_seed0[0]
    qs = [q for q in inst.questions if q.frame == frame and not q.is_probe]
    assert qs
    for q in qs:
        named = any(_mentions(q.text, v) for v in q.gold.protected[:1])
        assert named == (frame == AttackFrame.BOOLEAN)


def test_validator_accepts_every_generated_instance(benchmark_seed0: list[Instance]) -> None:
    """Integration with the validator (another area): no violation on any instance."""
    validate = pytest.importorskip("bemula.validate")
    for inst in benchmark_seed0:
        violations = validate.validate_instance(inst, f"instances/{inst.id}.json")
        assert not violations, [str(v) for v in violations[:5]]
