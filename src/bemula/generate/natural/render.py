"""Render a session plan as people talk (edition 2).

The plan (profile, requests, sessions of exchanges) is edition 1's; what changes is the
text. Every exchange is a step of a hand-written conversation *thread* from the bank; a fact
is told in passing inside such a step ("…and since I'm O negative the blood bank keeps
calling"), mentioned again later in other words, echoed by the assistant when relevant; a
request is made the way people make them (hedged, indirect, taking back what they just said,
naming a past conversation by what it was about, "everything but …"), often inside a message
about something else; decoys ("forget the formal tone") sit in both versions. Every user turn
goes through the persona's voice.

Invariants kept from edition 1 (SPEC §1, checked by the validator): both versions share turn
ids and timestamps and differ only at request exchanges; targets are stated (and mentioned,
and echoed) only before their request; an F5 window session holds only its targets and
filler; nothing states a removed value after its request.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bemula.generate.dialogue import _START_HOURS, blocklist, session_days
from bemula.generate.natural.bank import Bank, Thread
from bemula.generate.natural.voice import Voice
from bemula.generate.plan import Exchange, PlanError, RequestPlan, SessionPlan
from bemula.model import (
    DerivedFact,
    Dialogue,
    Fact,
    Profile,
    Request,
    RequestType,
    Role,
    Segment,
    Session,
    TimeWindow,
    Turn,
    TurnAnnotations,
)

#: how often each enrichment happens (measured effect: `bemula stats`, docs/generator.md)
MENTION_SHARE = 0.6     # targets mentioned again, in other words, before their request
ECHO_SHARE = 0.55       # targets the assistant brings up again before their request
OTHER_MENTION_SHARE = 0.15
OTHER_ECHO_SHARE = 0.15
BACKREF_SHARE = 0.55    # F1 requests that take back what the user just said
EMBED_SHARE = 0.45      # requests tucked into a message about something else
INDIRECT_SHARE = 0.6    # requests without the usual verbs
EXCEPT_SHARE = 0.4      # F3 requests with "… but keep X" (three or more facts)
COMPOUND_SHARE = 0.6    # targets mentioned again in one message with a kept fact (compound)
EVENT_REF_SHARE = 0.45  # F1/F2 requests that name a fact by the earlier conversation it came up in
ACK_SHARE = 0.55
FRAME_SHARE = 0.2       # assistant replies with a stock opener or closer around the answer
DECOY_SHARE = 0.035     # filler exchanges replaced by a decoy (in both versions)

#: a reference that ends in a verb or preposition ("where my next trip is", "the food I
#: stick to") reads badly before "is {new}" / "to {new}" (F6)
_ENDS_OPEN = re.compile(r"\b(is|are|was|were|goes|go|lives|live|works|work|to|with|for|at|on|in|by|from|of)$", re.I)
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen", "twenty")


def daypart_phrase(ts: datetime) -> str:
    """"this morning" etc. for a message sent at ``ts``."""
    if 5 <= ts.hour < 12:
        return "this morning"
    if 12 <= ts.hour < 17:
        return "this afternoon"
    if 17 <= ts.hour < 21:
        return "this evening"
    return "tonight"


def _daypart_word(ts: datetime) -> str:
    phrase = daypart_phrase(ts)
    return "night" if phrase == "tonight" else phrase.split()[1]


def ago_phrase(days: int) -> str | None:
    if days == 1:
        return "yesterday"
    if days == 2:
        return "the day before yesterday"
    if days == 7:
        return "a week ago"
    if days == 14:
        return "two weeks ago"
    if 3 <= days <= 20:
        return f"{_NUMBER_WORDS[days]} days ago"
    return None


@dataclass
class _ThreadState:
    thread: Thread
    step: int = 0


@dataclass
class RenderedNatural:
    forget: Dialogue
    control: Dialogue
    requests: list[Request]
    #: fact id -> the bank line its first statement used (becomes Fact.statement)
    statements: dict[str, str]
    #: request id -> how it was phrased: style, embedded, refers_back, window kind
    request_styles: dict[str, dict[str, str | bool]] = field(default_factory=dict)
    #: target id -> kept fact mentioned in one message with it (multi-hop attacks use it)
    companions: dict[str, str] = field(default_factory=dict)


class _Threads:
    """Hands out thread steps for one instance: least-used threads and alternatives first,
    so a long instance repeats as little as the bank allows; reserved threads (F5 windows)
    are used only where reserved."""

    def __init__(self, rng: random.Random, bank: Bank, reserved: set[str]) -> None:
        self.rng = rng
        self.pool = [t for t in bank.threads if t.id not in reserved]
        self.by_id = {t.id: t for t in bank.threads}
        self.uses: dict[str, int] = {t.id: 0 for t in bank.threads}
        self.alt_uses: dict[tuple[str, int, str, int], int] = {}
        self.order = list(range(len(self.pool)))
        rng.shuffle(self.order)
        self.cursor = 0

    def start(self, thread_id: str | None = None) -> _ThreadState:
        if thread_id is not None:
            t = self.by_id[thread_id]
        else:
            least = min(self.uses[t.id] for t in self.pool)
            for _ in range(len(self.order)):
                cand = self.pool[self.order[self.cursor % len(self.order)]]
                self.cursor += 1
                if self.uses[cand.id] == least:
                    t = cand
                    break
        self.uses[t.id] += 1
        return _ThreadState(t)

    def pick(self, state: _ThreadState, side: str) -> list[str]:
        """Alternatives of the current step for ``side``, least used first (ties shuffled)."""
        turn = state.thread.turns[state.step]
        alts = list(turn.user if side == "user" else turn.assistant)
        keyed = [(self.alt_uses.get((state.thread.id, state.step, side, i), 0), self.rng.random(), i)
                 for i in range(len(alts))]
        keyed.sort()
        return [alts[i] for _, _, i in keyed]

    def used(self, state: _ThreadState, side: str, text: str) -> None:
        turn = state.thread.turns[state.step]
        alts = turn.user if side == "user" else turn.assistant
        i = alts.index(text)
        key = (state.thread.id, state.step, side, i)
        self.alt_uses[key] = self.alt_uses.get(key, 0) + 1


class NaturalRenderer:
    def __init__(self, rng: random.Random, bank: Bank, voice: Voice, profile: Profile, plans: list[RequestPlan],
                 sessions: list[SessionPlan]) -> None:
        self.rng = rng
        self.bank = bank
        self.voice = voice
        self.profile = profile
        self.plans = plans
        self.sessions = sessions
        self.facts: dict[str, Fact] = {f.id: f for f in profile.facts}
        self.derived: dict[str, DerivedFact] = {d.id: d for d in profile.derived_facts}
        self.plan_by_id = {p.id: p for p in plans}
        self.block = blocklist(profile, plans)
        self.used: set[str] = set()
        self.statements: dict[str, str] = {}
        self.styles: dict[str, dict[str, str | bool]] = {}
        self._blocked_cache: dict[str, bool] = {}
        self.decoys = list(bank.requests.decoys)
        rng.shuffle(self.decoys)
        # F5 windows are referred to by what their session was about: one reserved thread each
        window_plans = [p for p in plans if p.window_session is not None]
        pool = [t.id for t in bank.threads]
        rng.shuffle(pool)
        self.window_thread: dict[int, str] = {}
        for p, tid in zip(window_plans, pool, strict=False):
            self.window_thread[p.window_session] = tid  # type: ignore[index]
        self.threads = _Threads(rng, bank, set(self.window_thread.values()))
        self.backref: set[str] = set()
        #: fact id -> (session index, thread) of its first statement, for references by event
        self.stated_in: dict[str, tuple[int, Thread]] = {}
        #: target id -> the kept fact mentioned in the same message as it (a compound
        #: mention): a memory that keeps that message still holds the target
        self.companions: dict[str, str] = {}

    # ------------------------------------------------------------------ planning extras
    def enrich(self) -> None:
        """Mentions, echoes and take-back requests, placed where the invariants allow."""
        rng = self.rng
        windows = {p.window_session for p in self.plans if p.window_session is not None}
        pos: dict[tuple[int, int], int] = {}
        seq = 0
        first: dict[str, int] = {}
        request_at: dict[str, int] = {}
        for s in self.sessions:
            for k, e in enumerate(s.exchanges):
                pos[(s.index, k)] = seq
                if e.kind == "fact":
                    for fid in e.fact_ids:
                        first.setdefault(fid, seq)
                if e.kind == "request" and e.request_id:
                    request_at[e.request_id] = seq
                seq += 1
        fillers = [(s.index, k) for s in self.sessions if s.index not in windows
                   for k, e in enumerate(s.exchanges) if e.kind == "filler"]
        taken: set[tuple[int, int]] = set()
        # F1 take-backs first: the exchange just before the request becomes a mention
        for p in self.plans:
            if p.type != RequestType.F1 or rng.random() >= BACKREF_SHARE:
                continue
            s = self.sessions[p.session]
            k = next(i for i, e in enumerate(s.exchanges) if e.request_id == p.id)
            if k == 0 or s.index in windows:
                continue
            prev = s.exchanges[k - 1]
            fid = p.targets[0]
            if prev.kind == "filler" and (s.index, k - 1) not in taken and first[fid] < pos[(s.index, k - 1)]:
                prev.kind, prev.fact_ids = "mention", [fid]
                taken.add((s.index, k - 1))
                self.backref.add(p.id)
        f5_targets = {t for p in self.plans if p.type == RequestType.F5 for t in p.targets}
        target_of = {t: p for p in self.plans for t in p.targets if t in self.facts}
        for fid, _fact in self.facts.items():
            if fid in f5_targets or fid not in first:
                continue
            plan = target_of.get(fid)
            end = request_at[plan.id] if plan else seq
            for kind, share in (("mention", MENTION_SHARE if plan else OTHER_MENTION_SHARE),
                                ("echo", ECHO_SHARE if plan else OTHER_ECHO_SHARE)):
                if rng.random() >= share:
                    continue
                options = [x for x in fillers if x not in taken and first[fid] < pos[x] < end]
                if not options:
                    continue
                x = options[rng.randrange(len(options))]
                taken.add(x)
                e = self.sessions[x[0]].exchanges[x[1]]
                e.kind, e.fact_ids = kind, [fid]
        # compound mentions: a target said again together with a fact that stays
        targeted = set(target_of) | f5_targets
        keepable = [f for f in self.facts.values() if f.id not in targeted and f.relearns is None and f.id in first]
        for fid, plan in target_of.items():
            if fid in f5_targets or fid not in first or rng.random() >= COMPOUND_SHARE:
                continue
            end = request_at[plan.id]
            options = [x for x in fillers if x not in taken and first[fid] < pos[x] < end]
            if not options:
                continue
            x = options[rng.randrange(len(options))]
            said = [f for f in keepable if first[f.id] < pos[x]]
            # a companion that names the target's value would hand the multi-hop attack its
            # answer ("you know my brother's name is Dmitri … whose is the new baby?")
            said = [f for f in said if not _names_value(f, self.facts[fid])]
            same = [f for f in said if f.category == self.facts[fid].category]
            pool = same or said
            if not pool:
                continue
            comp = pool[rng.randrange(len(pool))]
            taken.add(x)
            e = self.sessions[x[0]].exchanges[x[1]]
            e.kind, e.fact_ids = "mention", [fid, comp.id]
            self.companions[fid] = comp.id
        budget = len(self.decoys) // 2  # a decoy is never used twice in an instance; keep spares
        for x in fillers:
            if budget and x not in taken and rng.random() < DECOY_SHARE:
                self.sessions[x[0]].exchanges[x[1]].kind = "decoy"
                budget -= 1

    # ------------------------------------------------------------------ text pieces
    def _blocked(self, text: str) -> bool:
        hit = self._blocked_cache.get(text)
        if hit is None:
            hit = self._blocked_cache[text] = self.block.search(text) is not None
        return hit

    def _fresh(self, candidates: list[str]) -> str | None:
        for c in candidates:
            if c not in self.used:
                return c
        return None

    def _assistant(self, core: str, extra_before: str = "", extra_after: str = "") -> str:
        rng, bank = self.rng, self.bank
        for attempt in range(12):
            parts = [extra_before] if extra_before else []
            if not extra_before and rng.random() < (FRAME_SHARE if attempt < 3 else 0.9):
                parts.append(rng.choice(bank.openers))
            parts.append(core)
            if extra_after:
                parts.append(extra_after)
            if rng.random() < (FRAME_SHARE if attempt < 3 else 0.9):
                parts.append(rng.choice(bank.closers))
            text = " ".join(parts)
            if text not in self.used:
                self.used.add(text)
                return text
        raise PlanError("could not write a distinct assistant turn")

    def _user(self, raw: str, protect: list[str]) -> str:
        for _ in range(12):
            text = self.voice.apply(raw, protect)
            if text not in self.used:
                self.used.add(text)
                return text
        raise PlanError("could not write a distinct user turn")

    def _step(self, state: _ThreadState, ts: datetime) -> tuple[str, str]:
        """The current thread step (user raw text, assistant core), avoiding instance values."""
        users = [u for u in self.threads.pick(state, "user") if not self._blocked(u)]
        assistants = [a for a in self.threads.pick(state, "assistant") if not self._blocked(a)]
        if not users or not assistants:
            raise PlanError(f"thread {state.thread.id} step {state.step} collides with a profile value")
        user, assistant = users[0], assistants[0]
        self.threads.used(state, "user", user)
        self.threads.used(state, "assistant", assistant)
        raw = self.voice.shorten(user.replace("{daypart}", daypart_phrase(ts)))
        return raw, assistant

    def _fact_phrase(self, fid: str, kind: str) -> tuple[str, str]:
        """(line with the value in, value form used) for a statement, mention or echo."""
        fact = self.facts[fid]
        phrases = self.bank.facts[fact.attribute]
        lines = {"state": phrases.state, "mention": phrases.mention, "echo": phrases.echo}[kind]
        form = fact.value if kind == "state" else self.rng.choice(fact.accepted)
        line = self.rng.choice(lines).format(v=form)
        if kind == "state":
            self.statements.setdefault(fid, line)
        return line, form

    def _ref(self, fid: str, *, subject: bool = False) -> str:
        """A phrase naming ``fid`` without its value. ``subject``: it will be followed by "is"
        ("{ref} is {new} now") or "to" ("update {ref} to {new}"), so a phrase that ends in a
        verb or preposition is passed over when the bank has another."""
        lines: Sequence[str]
        if fid in self.derived:
            lines = self.bank.derived[self.derived[fid].attribute].refer
        else:
            lines = self.bank.facts[self.facts[fid].attribute].refer
        if subject:
            lines = [x for x in lines if not _ENDS_OPEN.search(x)] or lines
        return self.rng.choice(lines)

    def _event_ref(self, fid: str, request_session: int) -> str | None:
        """``fid`` named by the conversation it was first told in ("what I said about my
        blood type while we were on the raised bed"), if that was an earlier session."""
        where = self.stated_in.get(fid)
        if where is None or where[0] >= request_session:
            return None
        line = self.rng.choice(self.bank.requests.refer_event)
        return line.format(ref=self._ref(fid), about=self.rng.choice(where[1].about))

    def _join(self, first: str, second: str) -> str:
        """Two parts of one message, in either order."""
        return f"{first} {second}" if self.rng.random() < 0.5 else f"{second} {first}"

    # ------------------------------------------------------------------ requests
    def _window(self, plan: RequestPlan, w0: datetime, at: datetime) -> tuple[str, str]:
        rng, windows = self.rng, self.bank.requests.windows
        days = (at.date() - w0.date()).days
        kinds = ["date", "event"]
        if ago_phrase(days):
            kinds.append("relative")
        if 2 <= days <= 6:
            kinds.append("weekday")
        kind = kinds[rng.randrange(len(kinds))]
        line = rng.choice(windows[kind])
        reserved = self.window_thread.get(plan.window_session)  # type: ignore[arg-type]
        about = rng.choice(self.threads.by_id[reserved].about) if reserved else ""
        if kind == "event" and not about:
            kind, line = "date", rng.choice(windows["date"])
        text = line.format(date=f"{w0.strftime('%B')} {w0.day}", daypart=_daypart_word(w0), ago=ago_phrase(days) or "",
                           weekday=w0.strftime("%A"), about=about)
        return text, kind

    def _request(self, plan: RequestPlan, w0: datetime | None, at: datetime) -> tuple[str, dict[str, str | bool]]:
        rng = self.rng
        styles = self.bank.requests.styles[plan.type]
        info: dict[str, str | bool] = {}
        if plan.id in self.backref:
            style = "backref"
        elif plan.kept:
            style = "except"
        else:
            style = "indirect" if rng.random() < INDIRECT_SHARE else "direct"
        info["style"] = style
        line = rng.choice(styles[style])
        slots: dict[str, str] = {}
        if plan.type in (RequestType.F1, RequestType.F6):
            slots["ref"] = self._ref(plan.targets[0], subject=plan.type == RequestType.F6)
        if plan.type == RequestType.F2:
            refs = [self._ref(t) for t in plan.targets]
        by_event = plan.type in (RequestType.F1, RequestType.F2) and style != "backref" \
            and rng.random() < EVENT_REF_SHARE
        if by_event:
            # one target is named by the earlier conversation it came up in
            k = rng.randrange(len(plan.targets))
            named = self._event_ref(plan.targets[k], plan.session)
            if named is not None:
                info["event_thread"] = self.stated_in[plan.targets[k]][1].id
                if plan.type == RequestType.F1:
                    slots["ref"] = named
                else:
                    refs[k] = named
                info["refers_back"] = True
        if plan.type == RequestType.F2:
            slots["list"] = refs[0] if len(refs) == 1 else ", ".join(refs[:-1]) + " and " + refs[-1]
        if plan.type == RequestType.F3:
            slots["category"] = rng.choice(self.bank.requests.categories[plan.category or ""])
            if plan.kept:
                slots["keep"] = self._ref(plan.kept[0])
        if plan.type == RequestType.F4:
            slots["about"] = self._ref(plan.targets[0])
        if plan.type == RequestType.F5 and w0 is not None:
            slots["window"], kind = self._window(plan, w0, at)
            info["window"] = kind
            info["refers_back"] = kind == "event"
        if plan.type == RequestType.F6 and plan.new_value is not None:
            slots["new"] = plan.new_value.text
        if style == "backref":
            info["refers_back"] = True
        text = line.format(**slots)
        return text[0].upper() + text[1:], info

    def _confirmation(self, plan: RequestPlan) -> str:
        line = self.rng.choice(self.bank.requests.confirm[plan.type])
        return line.format(new=plan.new_value.text) if plan.new_value is not None else line

    # ------------------------------------------------------------------ the dialogue
    def render(self, start: datetime, span_days: int) -> RenderedNatural:
        rng = self.rng
        self.enrich()
        days = session_days(rng, len(self.sessions), span_days)
        forget_sessions: list[Session] = []
        control_sessions: list[Session] = []
        requests: list[Request] = []
        bounds: dict[int, tuple[datetime, datetime]] = {}
        last_end = start - timedelta(days=1)
        n = len(self.sessions)
        for sp, day in zip(self.sessions, days, strict=True):
            hour = rng.choice(_START_HOURS)
            if sp.index == n - 1 and sp.index > 0:
                hour = min(22, start.hour + rng.randint(0, 1))
            t = start.replace(hour=0, minute=0, second=0) + timedelta(days=day, hours=hour, minutes=rng.randrange(60))
            if sp.index == 0:
                t = start
            if t <= last_end + timedelta(minutes=30):
                t = last_end + timedelta(minutes=rng.randint(30, 180))
            session_start = t
            sid = f"S{sp.index + 1:02d}"
            state = self.threads.start(self.window_thread.get(sp.index))
            f_turns: list[Turn] = []
            c_turns: list[Turn] = []
            for ex in sp.exchanges:
                u_id = f"{sid}-T{len(f_turns) + 1:03d}"
                a_id = f"{sid}-T{len(f_turns) + 2:03d}"
                u_ts = t
                a_ts = t + timedelta(seconds=rng.randint(5, 25))
                if ex.kind == "decoy":
                    user, assistant, ann = self._decoy()
                    f_pair = c_pair = (user, assistant)
                    f_ann = c_ann = ann
                else:
                    if state.step >= len(state.thread.turns):
                        state = self.threads.start()
                    raw, core = self._step(state, u_ts)
                    state.step += 1
                    if ex.kind == "fact":
                        for fid in ex.fact_ids:
                            self.stated_in.setdefault(fid, (sp.index, state.thread))
                    f_pair, c_pair, f_ann, c_ann = self._exchange(ex, raw, core, session_start, u_ts, sid, u_id,
                                                                  bounds, requests)
                f_turns += [Turn(id=u_id, role=Role.USER, text=f_pair[0], timestamp=u_ts, annotations=f_ann),
                            Turn(id=a_id, role=Role.ASSISTANT, text=f_pair[1], timestamp=a_ts,
                                 annotations=_assistant_ann(f_ann))]
                c_turns += [Turn(id=u_id, role=Role.USER, text=c_pair[0], timestamp=u_ts, annotations=c_ann),
                            Turn(id=a_id, role=Role.ASSISTANT, text=c_pair[1], timestamp=a_ts,
                                 annotations=_assistant_ann(c_ann))]
                # reading the reply, then typing the next message (about 40 words a minute)
                next_words = 25 + rng.randint(0, 40)
                t = a_ts + timedelta(seconds=rng.randint(15, 90) + int(next_words * 1.5))
            bounds[sp.index] = (f_turns[0].timestamp, f_turns[-1].timestamp)
            last_end = f_turns[-1].timestamp
            forget_sessions.append(Session(id=sid, start=session_start, turns=f_turns))
            control_sessions.append(Session(id=sid, start=session_start, turns=c_turns))
        requests.sort(key=lambda r: (r.session_id, r.turn_id))
        return RenderedNatural(Dialogue(sessions=forget_sessions), Dialogue(sessions=control_sessions), requests,
                               self.statements, self.styles, dict(self.companions))

    def _decoy(self) -> tuple[str, str, TurnAnnotations]:
        for d in self.decoys:
            if d.user not in self.used and not self._blocked(d.user + " " + d.assistant):
                self.decoys.remove(d)
                return self._user(d.user, []), self._assistant(d.assistant), TurnAnnotations()
        raise PlanError("ran out of decoys")

    def _exchange(self, ex: Exchange, raw: str, core: str, session_start: datetime, u_ts: datetime, sid: str,
                  u_id: str, bounds: dict[int, tuple[datetime, datetime]], requests: list[Request]):
        rng = self.rng
        if ex.kind in ("fact", "mention"):
            lines, forms = [], []
            for fid in ex.fact_ids:
                line, form = self._fact_phrase(fid, "state" if ex.kind == "fact" else "mention")
                lines.append(_sentence(line))
                forms.append(form)
            said = " ".join(lines)
            user = self._user(self._join(raw, said), forms)
            ack = rng.choice(self.bank.acks) if rng.random() < ACK_SHARE else ""
            assistant = self._assistant(core, extra_before=ack)
            ann = TurnAnnotations(facts=list(ex.fact_ids))
            return (user, assistant), (user, assistant), ann, ann.model_copy()
        if ex.kind == "echo":
            line, _ = self._fact_phrase(ex.fact_ids[0], "echo")
            user = self._user(raw, [])
            assistant = self._assistant(core, extra_after=_sentence(line))
            ann = TurnAnnotations()
            return (user, assistant), (user, assistant), ann, ann.model_copy()
        if ex.kind == "request":
            plan = self.plan_by_id[ex.request_id or ""]
            tw = None
            w0 = None
            if plan.window_session is not None:
                w0, w1 = bounds[plan.window_session]
                tw = TimeWindow(start=w0, end=w1, session_ids=[f"S{plan.window_session + 1:02d}"])
            req_core, info = self._request(plan, w0, u_ts)
            embedded = info.get("style") != "backref" and rng.random() < EMBED_SHARE
            info["embedded"] = embedded
            protect = [plan.new_value.text] if plan.new_value is not None else []
            if embedded:
                joint_after = rng.choice(self.bank.requests.embed_after)
                joint_before = rng.choice(self.bank.requests.embed_before)
                composed = (f"{raw} {joint_after} {req_core}" if rng.random() < 0.5
                            else f"{req_core} {joint_before} {raw}")
                f_user = self._user(composed, protect)
                f_assistant = self._assistant(core, extra_before=self._confirmation(plan))
                c_user = self._user(raw, [])
                c_assistant = self._assistant(core)
            else:
                f_user = self._user(req_core, protect)
                f_assistant = self._assistant(self._confirmation(plan))
                c_user = self._user(raw, [])
                c_assistant = self._assistant(core)
            self.styles[plan.id] = info
            requests.append(Request(
                id=plan.id, type=plan.type, target_fact_ids=list(plan.targets), session_id=sid, turn_id=u_id,
                text=f_user, new_value=plan.new_value.text if plan.new_value else None, category=plan.category,
                window=tw, kept_fact_ids=list(plan.kept),
            ))
            ann_r = TurnAnnotations(request_id=plan.id, segment=Segment.REQUEST)
            ann_n = TurnAnnotations(request_id=plan.id, segment=Segment.NEUTRAL)
            return (f_user, f_assistant), (c_user, c_assistant), ann_r, ann_n
        user = self._user(raw, [])
        assistant = self._assistant(core)
        ann = TurnAnnotations()
        return (user, assistant), (user, assistant), ann, ann.model_copy()


def _sentence(line: str) -> str:
    """A bank line as a sentence of its own: capital first letter, a closing full stop if it
    has none (lines are written to be spliced into a message, so some end bare)."""
    line = line.strip()
    if line and line[-1] not in ".!?…)\"'”’:;":
        line += "."
    return line[:1].upper() + line[1:]


def _assistant_ann(user_ann: TurnAnnotations) -> TurnAnnotations:
    if user_ann.segment == Segment.REQUEST:
        return TurnAnnotations(request_id=user_ann.request_id, segment=Segment.CONFIRMATION)
    if user_ann.segment == Segment.NEUTRAL:
        return TurnAnnotations(request_id=user_ann.request_id, segment=Segment.NEUTRAL)
    return TurnAnnotations()


def _names_value(fact: Fact, target: Fact) -> bool:
    """Whether what a multi-hop attack says of ``fact`` (its plain sentence, as the question
    writer words it) or its statement contains one of ``target``'s accepted forms as whole
    words (case aside)."""
    from bemula.generate.questions import _related_text

    text = f"{_related_text(fact)} {fact.statement}"
    return any(re.search(r"(?<!\w)" + re.escape(form.strip()) + r"(?!\w)", text, re.I)
               for form in target.accepted if form.strip())
