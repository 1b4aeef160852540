"""Assembly: plan + simulated sessions + injected requests + questions → one ``Instance``.

Both versions are built from the same simulated turns; at each request's planned place the
forget version gets request + confirmation and the control version the neutral exchange, so
the versions are turn-aligned (same ids, roles and timestamps) and differ only there.
"""

from __future__ import annotations

from datetime import timedelta

from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.injection import request_turn_index, turn_id
from bemula.generate.llm.schemas import InjectionStage, PlanStage, QuestionsStage, SimTurn, SimulationStage
from bemula.model import Dialogue, Instance, Role, Segment, Session, Turn, TurnAnnotations
from bemula.text import squash


def _ensure_stated(turn: SimTurn, plan: PlanStage) -> None:
    """Last guard, with the validator's own test (value or alias as a substring)."""
    facts = {f.id: f for f in plan.profile.facts}
    for fid in turn.facts:
        fact = facts[fid]
        if not any(squash(form) in squash(turn.text) for form in fact.accepted):
            turn.text = f"{turn.text} {fact.statement}".strip()


def assemble_instance(
    ctx: InstanceContext,
    plan: PlanStage,
    sim: SimulationStage,
    injection: InjectionStage,
    questions: QuestionsStage,
) -> Instance:
    by_session = {s.session_id: s for s in sim.sessions}
    injected = {r.request.session_id: r for r in injection.requests}
    forget_sessions: list[Session] = []
    control_sessions: list[Session] = []
    for sp in plan.sessions:
        sim_turns = [t.model_copy() for t in by_session[sp.id].turns]
        for t in sim_turns:
            _ensure_stated(t, plan)
        rows: list[tuple[Role, str, str, list[str], str | None, Segment | None, Segment | None]] = [
            (Role(t.role), t.text, t.text, list(t.facts), None, None, None) for t in sim_turns
        ]
        inj = injected.get(sp.id)
        if inj is not None:
            req_plan = next(r for r in plan.requests if r.id == inj.request.id)
            at = request_turn_index(req_plan)
            req_id = inj.request.id
            rows[at:at] = [
                (Role.USER, inj.request.text, inj.neutral_user, [], req_id, Segment.REQUEST, Segment.NEUTRAL),
                (Role.ASSISTANT, inj.confirmation, inj.neutral_assistant, [], req_id, Segment.CONFIRMATION,
                 Segment.NEUTRAL),
            ]
        rng = ctx.rng("timestamps", sp.id)
        now = sp.start
        f_turns: list[Turn] = []
        c_turns: list[Turn] = []
        for k, (role, f_text, c_text, facts, rid, f_seg, c_seg) in enumerate(rows):
            if k:
                now += timedelta(seconds=rng.randint(20, 150) if role == Role.USER else rng.randint(6, 55))
            tid = turn_id(sp.id, k)
            f_turns.append(Turn(id=tid, role=role, text=f_text, timestamp=now,
                                annotations=TurnAnnotations(facts=facts, request_id=rid, segment=f_seg)))
            c_turns.append(Turn(id=tid, role=role, text=c_text, timestamp=now,
                                annotations=TurnAnnotations(facts=list(facts), request_id=rid, segment=c_seg)))
        forget_sessions.append(Session(id=sp.id, start=sp.start, turns=f_turns))
        control_sessions.append(Session(id=sp.id, start=sp.start, turns=c_turns))
    return Instance(
        id=ctx.instance_id,
        tier=ctx.tier,
        profile=plan.profile,
        forget=Dialogue(sessions=forget_sessions),
        control=Dialogue(sessions=control_sessions),
        requests=[r.request for r in injection.requests],
        questions=questions.questions,
    )
