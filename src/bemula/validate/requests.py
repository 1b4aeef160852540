"""Checks on forget requests: the turn that makes each one, its targets and typed fields (F3
category, F5 window, F6 new value), relearning facts, and no removed value coming back."""

from __future__ import annotations

import re
from bisect import bisect_right

from bemula.model import DerivedFact, Fact, Request, RequestType, Role, Segment
from bemula.validate.context import (
    REMOVAL_WORDS,
    InstanceContext,
    TurnPos,
    epoch_seconds,
    norm,
    states_form,
)


def check_request(ctx: InstanceContext, i: int, r: Request) -> None:
    loc = f"$.requests[{i}]"
    if r.session_id not in ctx.session_index:
        ctx.add(f"{loc}.session_id", "unknown-ref", f"request {r.id}: unknown session {r.session_id!r}")
    pos = ctx.turn_pos.get(r.turn_id)
    if pos is None:
        ctx.add(f"{loc}.turn_id", "unknown-ref", f"request {r.id}: unknown turn {r.turn_id!r}")
    else:
        turn = ctx.turn(pos)
        session = ctx.inst.forget.sessions[pos.session]
        if session.id != r.session_id:
            ctx.add(f"{loc}.session_id", "request-turn",
                     f"request {r.id}: turn {r.turn_id} is in session {session.id}, not {r.session_id}")
        a = turn.annotations
        if turn.role != Role.USER or a.segment != Segment.REQUEST or a.request_id != r.id:
            ctx.add(f"{ctx.turn_loc(pos)}.annotations", "request-turn",
                     f"turn {turn.id} must be a user turn with segment 'request' and request_id {r.id!r}")
        if norm(r.text) not in norm(turn.text):
            ctx.add(f"{loc}.text", "request-text", f"request {r.id}'s text is not the text of turn {turn.id}")
    if not REMOVAL_WORDS.search(r.text):
        ctx.add(f"{loc}.text", "request-wording",
                 f"request {r.id} does not say to forget/delete/erase/remove/drop anything: {r.text!r}")
    _check_request_fields(ctx, loc, r)
    targets: list[tuple[int, Fact | DerivedFact]] = []
    for j, fid in enumerate(r.target_fact_ids):
        t = ctx.target(fid)
        if t is None:
            ctx.add(f"{loc}.target_fact_ids[{j}]", "unknown-ref", f"request {r.id}: unknown target {fid!r}")
        else:
            targets.append((j, t))
    if len(set(r.target_fact_ids)) != len(r.target_fact_ids):
        ctx.add(f"{loc}.target_fact_ids", "duplicate-id", f"request {r.id} lists a target twice")
    for j, fid in enumerate(r.kept_fact_ids):
        if ctx.target(fid) is None:
            ctx.add(f"{loc}.kept_fact_ids[{j}]", "unknown-ref", f"request {r.id}: unknown kept fact {fid!r}")
        elif fid in r.target_fact_ids:
            ctx.add(f"{loc}.kept_fact_ids[{j}]", "request-type", f"request {r.id} both removes and keeps {fid}")
    if pos is None:
        return
    for j, t in targets:
        _check_target_stated(ctx, loc, j, r, t, pos)
    if r.type == RequestType.F3:
        _check_f3(ctx, loc, r, [t for _, t in targets], pos)
    elif r.type == RequestType.F5:
        _check_f5(ctx, loc, r, [t for _, t in targets], pos)
    elif r.type == RequestType.F6:
        if r.new_value is None or not r.new_value.strip():
            ctx.add(f"{loc}.new_value", "f6-new-value", f"F6 request {r.id} has no new value")
        elif not states_form(r.text, r.new_value):
            ctx.add(f"{loc}.text", "f6-wording", f"F6 request {r.id} does not state its new value "
                                                  f"{r.new_value!r} as written")


def _check_request_fields(ctx: InstanceContext, loc: str, r: Request) -> None:
    n = len(r.target_fact_ids)
    derived = [fid for fid in r.target_fact_ids if fid in ctx.derived]
    if r.type == RequestType.F4:
        if len(derived) != n:
            ctx.add(f"{loc}.target_fact_ids", "request-type", f"F4 request {r.id} must target derived facts only")
    elif derived:
        ctx.add(f"{loc}.target_fact_ids", "request-type",
                 f"{r.type.value} request {r.id} targets derived fact(s) {', '.join(derived)} (F4 only)")
    if r.type in (RequestType.F1, RequestType.F6) and n != 1:
        ctx.add(f"{loc}.target_fact_ids", "request-type",
                 f"{r.type.value} request {r.id} needs exactly one target")
    if r.type == RequestType.F2 and n < 2:
        ctx.add(f"{loc}.target_fact_ids", "request-type", f"F2 request {r.id} needs at least two targets")
    if r.new_value is not None and r.type != RequestType.F6:
        ctx.add(f"{loc}.new_value", "request-type", f"new_value is for F6 only, {r.id} is {r.type.value}")
    if r.category is not None and r.type != RequestType.F3:
        ctx.add(f"{loc}.category", "request-type", f"category is for F3 only, {r.id} is {r.type.value}")
    if r.window is not None and r.type != RequestType.F5:
        ctx.add(f"{loc}.window", "request-type", f"window is for F5 only, {r.id} is {r.type.value}")


def _check_target_stated(
    ctx: InstanceContext, loc: str, j: int, r: Request, t: Fact | DerivedFact, pos: TurnPos
) -> None:
    """A target (F4: each source) must be stated in a session before the request's session."""
    needed = t.source_fact_ids if isinstance(t, DerivedFact) else [t.id]
    for fid in needed:
        if not any(p.session < pos.session for p in ctx.stated.get(fid, [])):
            what = f"source {fid} of {t.id}" if fid != t.id else f"target {fid}"
            ctx.add(f"{loc}.target_fact_ids[{j}]", "target-not-stated",
                     f"request {r.id}: {what} is not stated in a session before {r.session_id}")


def _check_f3(ctx: InstanceContext, loc: str, r: Request, targets: list[Fact | DerivedFact], pos: TurnPos) -> None:
    if not r.category:
        ctx.add(f"{loc}.category", "f3-category", f"F3 request {r.id} has no category")
        return
    wrong = [t.id for t in targets if t.category != r.category]
    if wrong:
        ctx.add(f"{loc}.category", "f3-category",
                 f"F3 request {r.id} is about {r.category!r} but targets {', '.join(wrong)} are not")
    chosen = set(r.target_fact_ids) | set(r.kept_fact_ids)
    for f in ctx.inst.profile.facts:
        if f.category == r.category and f.id not in chosen:
            if any(p.seq < pos.seq for p in ctx.stated.get(f.id, [])):
                ctx.add(f"{loc}.target_fact_ids", "f3-incomplete",
                         f"F3 request {r.id} removes all {r.category!r} facts but omits {f.id}, stated before it")


def _check_f5(ctx: InstanceContext, loc: str, r: Request, targets: list[Fact | DerivedFact], pos: TurnPos) -> None:
    w = r.window
    if w is None:
        ctx.add(f"{loc}.window", "f5-window", f"F5 request {r.id} has no time window")
        return
    start, end = epoch_seconds(w.start), epoch_seconds(w.end)
    if start > end:
        ctx.add(f"{loc}.window", "f5-window", f"window of {r.id} ends before it starts")
    if end >= epoch_seconds(ctx.turn(pos).timestamp):
        ctx.add(f"{loc}.window.end", "f5-window", f"window of {r.id} does not end before the request")
    for k, sid in enumerate(w.session_ids):
        if sid not in ctx.session_index:
            ctx.add(f"{loc}.window.session_ids[{k}]", "unknown-ref", f"unknown session {sid!r}")
    in_sessions = {ctx.session_index[s] for s in w.session_ids if s in ctx.session_index}

    def inside(p: TurnPos) -> bool:
        ok_time = start <= epoch_seconds(ctx.turn(p).timestamp) <= end
        return ok_time and (not in_sessions or p.session in in_sessions)

    for t in targets:
        if not any(inside(p) for p in ctx.stated.get(t.id, [])):
            ctx.add(f"{loc}.window", "f5-window", f"target {t.id} of {r.id} is not stated inside the window")
    chosen = set(r.target_fact_ids) | set(r.kept_fact_ids)
    for f in ctx.inst.profile.facts:
        said = ctx.stated.get(f.id, [])
        if f.id not in chosen and said and all(inside(p) for p in said):
            ctx.add(f"{loc}.target_fact_ids", "f5-incomplete",
                     f"F5 request {r.id} omits {f.id}, which is stated only inside its window")


def check_not_restated(ctx: InstanceContext) -> None:
    """After a request, the forget dialogue never brings a removed value back.

    If a later turn states a target (annotated, or its value/alias appears as words),
    a memory system would rightly learn it again and the efficacy gold would be wrong.
    The request's own exchange is exempt (an F6 request names the old value), and so are
    F4 sources, which may legitimately stay.
    """
    # one casefolded string of all forget turns; a regex scan of it beats a loop per turn
    starts: list[int] = []
    offset = 0
    for _, _, folded in ctx.flat:
        starts.append(offset)
        offset += len(folded) + 1
    joined = "\x00".join(folded for _, _, folded in ctx.flat)
    for r in ctx.inst.requests:
        rpos = ctx.turn_pos.get(r.turn_id)
        if rpos is None or rpos.seq + 1 >= len(ctx.flat):
            continue
        hits: dict[tuple[int, str], str] = {}  # (turn seq, fact id) -> how
        by_form: dict[str, list[str]] = {}
        for fid in r.target_fact_ids:
            target = ctx.target(fid)
            if target is None:
                continue
            for form in {x.strip().casefold() for x in target.accepted if x.strip()}:
                by_form.setdefault(form, []).append(fid)
            for p in ctx.stated.get(fid, []):
                if p.seq > rpos.seq:
                    hits[(p.seq, fid)] = "states"
        if not by_form:
            continue
        forms = sorted(by_form, key=len, reverse=True)
        pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, forms)) + r")(?!\w)")
        for m in pattern.finditer(joined, starts[rpos.seq + 1]):
            seq = bisect_right(starts, m.start()) - 1
            for fid in by_form[m.group(0)]:
                hits.setdefault((seq, fid), "mentions")
        for (seq, fid), how in sorted(hits.items()):
            pos, turn, _ = ctx.flat[seq]
            if turn.annotations.segment is not None:
                continue  # a request's own exchange (F6 names the old value)
            target = ctx.target(fid)
            assert target is not None
            # annotated as stating it: a system would rightly relearn it (scoring wrong, an
            # error); its words merely appearing may be another sense of them (a warning)
            ctx.add(f"{ctx.turn_loc(pos)}.text", "restated" if how == "states" else "value-mentioned",
                     f"turn {turn.id} {how} {fid} ({target.value!r}) after request {r.id} removed it")


def check_relearning_facts(ctx: InstanceContext) -> None:
    for i, f in enumerate(ctx.inst.profile.facts):
        if f.relearns is None:
            continue
        loc = f"$.profile.facts[{i}].relearns"
        r = ctx.requests.get(f.relearns)
        if r is None:
            ctx.add(loc, "unknown-ref", f"fact {f.id} relearns unknown request {f.relearns!r}")
            continue
        rpos = ctx.turn_pos.get(r.turn_id)
        if rpos is None:
            continue
        if any(p.seq <= rpos.seq for p in ctx.stated.get(f.id, [])):
            ctx.add(loc, "relearning", f"relearning fact {f.id} is stated before its request {r.id}")
        if norm(f.value) in {norm(t.value) for fid in r.target_fact_ids if (t := ctx.target(fid))}:
            ctx.add(f"{loc}", "relearning", f"relearning fact {f.id} has the same value as a target of {r.id}")
        if any(f.id in x.target_fact_ids for x in ctx.inst.requests):
            ctx.add(loc, "relearning", f"relearning fact {f.id} is itself a request target")
