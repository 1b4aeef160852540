"""Checks on the two dialogues: unique ids, annotation references, time order, forget/control
alignment, fact statements and filler that repeats."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bemula.model import DerivedFact, Fact, Role, Segment, Turn, Version
from bemula.validate.context import (
    EXCHANGE_SEGMENTS,
    InstanceContext,
    epoch_seconds,
    states_form,
)


def check_unique_ids(ctx: InstanceContext) -> None:
    def dup(items: Iterable[tuple[str, str, tuple[int, ...]]], what: str) -> None:
        """items: (id, location template, indexes); locations are only built for duplicates."""
        first: dict[str, tuple[str, tuple[int, ...]]] = {}
        for ident, template, idx in items:
            if ident in first:
                where, at = first[ident]
                ctx.add(template.format(*idx), "duplicate-id",
                         f"{what} id {ident!r} already used at {where.format(*at)}")
            else:
                first[ident] = (template, idx)

    p = ctx.inst.profile
    dup([(f.id, "$.profile.facts[{}].id", (i,)) for i, f in enumerate(p.facts)]
        + [(d.id, "$.profile.derived_facts[{}].id", (i,)) for i, d in enumerate(p.derived_facts)], "fact")
    for version in Version:
        dialogue = ctx.inst.dialogue(version)
        name = version.value
        dup([(s.id, f"$.{name}.sessions[{{}}].id", (i,)) for i, s in enumerate(dialogue.sessions)], "session")
        turn_template = f"$.{name}.sessions[{{}}].turns[{{}}].id"
        dup(((t.id, turn_template, (i, j)) for i, s in enumerate(dialogue.sessions) for j, t in enumerate(s.turns)),
            "turn")
    dup([(r.id, "$.requests[{}].id", (i,)) for i, r in enumerate(ctx.inst.requests)], "request")
    dup([(q.id, "$.questions[{}].id", (i,)) for i, q in enumerate(ctx.inst.questions)], "question")


def check_derived(ctx: InstanceContext) -> None:
    for i, d in enumerate(ctx.inst.profile.derived_facts):
        loc = f"$.profile.derived_facts[{i}].source_fact_ids"
        for j, sid in enumerate(d.source_fact_ids):
            if sid not in ctx.facts:
                what = "a derived fact" if sid in ctx.derived else "no atomic fact"
                ctx.add(f"{loc}[{j}]", "derived-source" if sid in ctx.derived else "unknown-ref",
                         f"source {sid!r} of {d.id} is {what}")
        if len(set(d.source_fact_ids)) < 2:
            ctx.add(loc, "derived-source", f"{d.id} needs at least two distinct source facts")
        elif len(set(d.source_fact_ids)) != len(d.source_fact_ids):
            ctx.add(loc, "derived-source", f"{d.id} lists a source twice")


def check_timestamps(ctx: InstanceContext, version: Version) -> None:
    prev_end: float | None = None
    prev_id = ""
    for si, s in enumerate(ctx.inst.dialogue(version).sessions):
        sloc = f"$.{version.value}.sessions[{si}]"
        start = epoch_seconds(s.start)
        if prev_end is not None and start < prev_end:
            ctx.add(f"{sloc}.start", "timestamp",
                     f"session {s.id} starts {s.start.isoformat()} before session {prev_id} ends")
        last = start
        for ti, t in enumerate(s.turns):
            now = epoch_seconds(t.timestamp)
            if now < last:
                what = "the session start" if ti == 0 else "the previous turn"
                ctx.add(f"{sloc}.turns[{ti}].timestamp", "timestamp",
                         f"turn {t.id} at {t.timestamp.isoformat()} is earlier than {what}")
            last = max(last, now)
        prev_end, prev_id = last, s.id


def check_turn_annotations(ctx: InstanceContext) -> None:
    for version in Version:
        name = version.value
        for si, s in enumerate(ctx.inst.dialogue(version).sessions):
            for ti, t in enumerate(s.turns):
                a = t.annotations
                if not a.facts and a.segment is None and a.request_id is None:
                    continue  # the common case: nothing to check
                loc = f"$.{name}.sessions[{si}].turns[{ti}].annotations"
                for k, fid in enumerate(a.facts):
                    if fid not in ctx.facts and fid not in ctx.derived:
                        ctx.add(f"{loc}.facts[{k}]", "unknown-ref", f"turn {t.id} states unknown fact {fid!r}")
                if a.request_id is not None and a.request_id not in ctx.requests:
                    ctx.add(f"{loc}.request_id", "unknown-ref",
                             f"turn {t.id} refers to unknown request {a.request_id!r}")
                if (a.segment is None) != (a.request_id is None):
                    ctx.add(loc, "segment", f"turn {t.id}: segment and request_id must be set together")
                if a.segment is None:
                    continue
                allowed = EXCHANGE_SEGMENTS if version == Version.FORGET else (Segment.NEUTRAL,)
                if a.segment not in allowed:
                    ctx.add(f"{loc}.segment", "segment",
                             f"segment {a.segment.value!r} cannot occur in the {version.value} version")
                elif a.segment == Segment.REQUEST and t.role != Role.USER:
                    ctx.add(f"{loc}.segment", "segment", f"request turn {t.id} must be a user turn")
                elif a.segment == Segment.CONFIRMATION and t.role != Role.ASSISTANT:
                    ctx.add(f"{loc}.segment", "segment", f"confirmation turn {t.id} must be an assistant turn")
                elif a.segment == Segment.CONFIRMATION:
                    prev = s.turns[ti - 1].annotations if ti > 0 else None
                    if prev is None or prev.segment != Segment.REQUEST or prev.request_id != a.request_id:
                        ctx.add(f"{loc}.segment", "segment",
                                 f"confirmation turn {t.id} does not directly follow the turn making "
                                 f"{a.request_id}")
                elif a.segment == Segment.REQUEST:
                    r = ctx.requests.get(a.request_id or "")
                    if r is not None and r.turn_id != t.id:
                        ctx.add(f"{loc}.request_id", "request-turn",
                                 f"turn {t.id} is marked as making {r.id}, whose turn is {r.turn_id}")


def check_alignment(ctx: InstanceContext) -> None:
    """Forget and control: same sessions and turns; text differs only at exchanges."""
    f_sessions = ctx.inst.forget.sessions
    c_sessions = ctx.inst.control.sessions
    if len(f_sessions) != len(c_sessions):
        ctx.add("$.control.sessions", "version-misaligned",
                 f"forget has {len(f_sessions)} sessions, control has {len(c_sessions)}")
    for si, (fs, cs) in enumerate(zip(f_sessions, c_sessions, strict=False)):
        loc = f"$.control.sessions[{si}]"
        if fs.id != cs.id:
            ctx.add(f"{loc}.id", "version-misaligned", f"session id {cs.id!r}, forget has {fs.id!r}")
        if epoch_seconds(fs.start) != epoch_seconds(cs.start):
            ctx.add(f"{loc}.start", "version-misaligned",
                     f"session {cs.id} starts {cs.start.isoformat()}, forget has {fs.start.isoformat()}")
        if len(fs.turns) != len(cs.turns):
            ctx.add(f"{loc}.turns", "version-misaligned",
                     f"session {cs.id} has {len(cs.turns)} turns, forget has {len(fs.turns)}")
        for ti, (ft, ct) in enumerate(zip(fs.turns, cs.turns, strict=False)):
            _align_turn(ctx, f"{loc}.turns[{ti}]", ft, ct)


def _align_turn(ctx: InstanceContext, loc: str, ft: Turn, ct: Turn) -> None:
    if ft.id != ct.id:
        ctx.add(f"{loc}.id", "version-misaligned", f"turn id {ct.id!r}, forget has {ft.id!r}")
    if ft.role != ct.role:
        ctx.add(f"{loc}.role", "version-misaligned",
                 f"turn {ct.id} is {ct.role.value} here, {ft.role.value} in forget")
    if ft.timestamp != ct.timestamp:
        ctx.add(f"{loc}.timestamp", "version-misaligned",
                 f"turn {ct.id} at {ct.timestamp.isoformat()}, forget has {ft.timestamp.isoformat()}")
    fa, ca = ft.annotations, ct.annotations
    if fa.segment in EXCHANGE_SEGMENTS:
        if ca.segment != Segment.NEUTRAL:
            ctx.add(f"{loc}.annotations.segment", "segment",
                     f"turn {ct.id} must be neutral: forget has a {fa.segment.value} turn here")
        elif ca.request_id != fa.request_id:
            ctx.add(f"{loc}.annotations.request_id", "segment",
                     f"neutral turn {ct.id} belongs to {ca.request_id!r}, forget's turn to {fa.request_id!r}")
        if ca.facts != fa.facts:
            ctx.add(f"{loc}.annotations.facts", "version-differs",
                     f"turn {ct.id} states {ca.facts}, forget's turn states {fa.facts}")
        return
    if ca.segment == Segment.NEUTRAL:
        ctx.add(f"{loc}.annotations.segment", "segment",
                 f"neutral turn {ct.id} is not at a request exchange of the forget version")
        return
    if ft.text != ct.text:
        ctx.add(f"{loc}.text", "version-differs",
                 f"turn {ct.id} text differs from forget outside a request exchange")
    if ca.facts != fa.facts:
        ctx.add(f"{loc}.annotations.facts", "version-differs",
                 f"turn {ct.id} states {ca.facts}, forget's turn states {fa.facts}")


def check_facts_stated(ctx: InstanceContext) -> None:
    for i, f in enumerate(ctx.inst.profile.facts):
        if f.id not in ctx.stated:
            ctx.add(f"$.profile.facts[{i}]", "fact-unstated", f"fact {f.id} is never stated in the dialogue")
    for d in ctx.inst.profile.derived_facts:
        for pos in ctx.stated.get(d.id, []):
            ctx.add(f"{ctx.turn_loc(pos)}.annotations.facts", "derived-stated",
                     f"derived fact {d.id} must never be stated, only its sources")
    profile = ctx.inst.profile
    groups: tuple[tuple[str, Sequence[Fact | DerivedFact]], ...] = (
        ("facts", profile.facts),
        ("derived_facts", profile.derived_facts),
    )
    for kind, items in groups:
        for i, fact in enumerate(items):
            if not any(states_form(fact.statement, x) for x in fact.accepted):
                ctx.add(f"$.profile.{kind}[{i}].statement", "fact-value",
                         f"the statement of {fact.id} contains neither {fact.value!r} nor an alias")
    for fid, positions in ctx.stated.items():
        stated = ctx.facts.get(fid)
        if stated is None:
            continue
        for pos in positions:
            text = ctx.turn(pos).text
            if not any(states_form(text, form) for form in stated.accepted):
                ctx.add(f"{ctx.turn_loc(pos)}.text", "fact-value",
                         f"turn is said to state {fid} but contains neither {stated.value!r} nor an alias")


def check_filler(ctx: InstanceContext) -> None:
    """No ordinary turn (no facts, no segment) repeats any turn of the instance verbatim."""
    seen: dict[str, str] = {}
    for version in Version:
        name = version.value
        for si, s in enumerate(ctx.inst.dialogue(version).sessions):
            for ti, t in enumerate(s.turns):
                a = t.annotations
                is_filler = not a.facts and a.segment is None
                if version == Version.CONTROL and is_filler:
                    continue  # identical to forget (checked by alignment)
                if is_filler and t.text in seen:
                    ctx.add(f"$.{name}.sessions[{si}].turns[{ti}].text", "duplicate-filler",
                             f"turn {t.id} repeats {seen[t.text]} verbatim")
                elif t.text not in seen:
                    seen[t.text] = f"{t.id} ({name})"
