"""Compile hand-written authoring files (TOML) into a BEMULA dataset folder.

A person writing an instance should only decide what a person has to decide: who the user
is, what each side says, which turn states which fact, what is asked to be forgotten and how
each question is scored. Everything mechanical — turn and question ids, timestamps, the
two turn-aligned versions, control probes, F5 windows, golds that follow from the facts, the
manifest and checksums — is done here, the same way for every file, so a hand-written
dataset cannot disagree with itself in bookkeeping. The format is documented in
``docs/authoring.md``; the compiled folder is checked by ``bemula.validate`` like any other.

Nothing here invents text: a compiled instance contains exactly the sentences of its file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from datetime import datetime, time, timedelta
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from bemula.dataset import DatasetError, json_location, parse_model, read_file, write_dataset
from bemula.model import (
    SAFE_ID_PATTERN,
    AttackFrame,
    DerivedFact,
    Dialogue,
    Fact,
    Gold,
    GoldKind,
    Instance,
    Profile,
    Question,
    Request,
    RequestType,
    Role,
    Segment,
    Sensitivity,
    Session,
    Suite,
    Tier,
    TimeWindow,
    Turn,
    TurnAnnotations,
    Version,
)

#: a turn follows the previous one by this much plus PER_WORD per word of its text
BASE_DELAY = timedelta(seconds=40)
PER_WORD = timedelta(seconds=1.2)
#: the suffix of a control probe's id
PROBE_SUFFIX = "-probe"
#: turns-per-version ceilings of the tiers (SPEC §1 table); the first that fits is used
TIER_CEILINGS: tuple[tuple[int, Tier], ...] = ((164, Tier.SHORT), (915, Tier.MEDIUM), (2687, Tier.LONG))


class _Source(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _SourceFactFields(_Source):
    """What an atomic and a derived fact share."""

    id: str
    category: str
    attribute: str
    value: str
    aliases: list[str] = Field(default_factory=list)
    sensitivity: Sensitivity
    statement: str


class SourceFact(_SourceFactFields):
    relearns: str | None = None


class SourceDerived(_SourceFactFields):
    sources: list[str]
    rationale: str = ""


class SourceRequest(_Source):
    id: str
    type: RequestType
    targets: list[str] = Field(min_length=1)
    kept: list[str] = Field(default_factory=list)
    new_value: str | None = None
    category: str | None = None
    window_sessions: list[str] = Field(default_factory=list)
    text: str | None = None


class SourceTurn(_Source):
    """One ordinary turn (``user`` or ``assistant``), or a request exchange (``request``)."""

    user: str | None = None
    assistant: str | None = None
    facts: list[str] = Field(default_factory=list)
    time: str | None = Field(default=None, description="HH:MM on the session's day")
    request: str | None = None
    control_user: str | None = None
    control_assistant: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> SourceTurn:
        if self.request is not None:
            missing = [k for k in ("user", "assistant", "control_user", "control_assistant") if not getattr(self, k)]
            if missing:
                raise ValueError(f"a request exchange needs user, assistant, control_user and control_assistant "
                                 f"(missing: {', '.join(missing)})")
            if self.facts:
                raise ValueError("a request exchange states no facts (put them in an ordinary turn)")
        else:
            if (self.user is None) == (self.assistant is None):
                raise ValueError("an ordinary turn has exactly one of 'user' or 'assistant'")
            if self.control_user is not None or self.control_assistant is not None:
                raise ValueError("control_user/control_assistant belong to a request exchange (set 'request')")
            if not (self.user or self.assistant or "").strip():
                raise ValueError("a turn's text is empty")
        if self.time is not None and not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", self.time):
            raise ValueError(f"time {self.time!r} is not HH:MM")
        return self


class SourceSession(_Source):
    id: str
    start: datetime
    turn: list[SourceTurn] = Field(min_length=1)


class SourceQuestion(_Source):
    suite: Suite
    fact: str
    text: str
    request: str | None = None
    frame: AttackFrame | None = None
    accepted: list[str] | None = None
    protected: list[str] = Field(default_factory=list)


class SourceInstance(_Source):
    id: str = Field(pattern=SAFE_ID_PATTERN)
    persona: str = ""
    tier: Tier | None = None
    user: dict[str, str] = Field(default_factory=dict)
    fact: list[SourceFact] = Field(min_length=1)
    derived: list[SourceDerived] = Field(default_factory=list)
    request: list[SourceRequest] = Field(default_factory=list)
    session: list[SourceSession] = Field(min_length=1)
    question: list[SourceQuestion] = Field(default_factory=list)


# --------------------------------------------------------------------------- reading


def _toml_location(error: tomllib.TOMLDecodeError) -> str:
    found = re.search(r"line (\d+), column (\d+)", str(error))
    return f"line {found.group(1)} column {found.group(2)}" if found else "$"


def load_source(path: Path | str) -> SourceInstance:
    """Read one authoring file; errors name the file and the line/column or TOML path."""
    path = Path(path)
    raw = read_file(path)
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise DatasetError(path, f"byte {exc.start}", "not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise DatasetError(path, _toml_location(exc), f"TOML syntax: {exc}") from None
    return parse_model(SourceInstance, data, path)


def source_files(paths: Iterable[Path | str]) -> list[Path]:
    """Files named directly, and every ``*.toml`` in a named folder (sorted)."""
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return out


# --------------------------------------------------------------------------- compiling


class _Compiler:
    """Builds one :class:`Instance` from one :class:`SourceInstance`."""

    def __init__(self, src: SourceInstance, path: Path) -> None:
        self.src = src
        self.path = path
        all_facts: list[SourceFact | SourceDerived] = [*src.fact, *src.derived]
        self.facts: dict[str, SourceFact | SourceDerived] = {f.id: f for f in all_facts}
        self.requests = {r.id: r for r in src.request}

    def fail(self, location: str, message: str) -> DatasetError:
        return DatasetError(self.path, location, message)

    def compile(self) -> Instance:
        forget, control = self._dialogues()
        requests = [self._request(i, r, forget) for i, r in enumerate(self.src.request)]
        questions = self._questions()
        n_turns = forget.n_turns
        tier = self.src.tier or next((t for ceiling, t in TIER_CEILINGS if n_turns <= ceiling), Tier.XLONG)
        user = dict(self.src.user)
        if self.src.persona:
            user.setdefault("persona", self.src.persona.strip())
        profile = Profile(
            user=user,
            facts=[Fact(id=f.id, category=f.category, attribute=f.attribute, value=f.value, aliases=f.aliases,
                        sensitivity=f.sensitivity, statement=f.statement, relearns=f.relearns)
                   for f in self.src.fact],
            derived_facts=[DerivedFact(id=d.id, category=d.category, attribute=d.attribute, value=d.value,
                                       aliases=d.aliases, sensitivity=d.sensitivity, statement=d.statement,
                                       source_fact_ids=d.sources, rationale=d.rationale)
                           for d in self.src.derived],
        )
        return Instance(id=self.src.id, tier=tier, profile=profile, forget=forget, control=control,
                        requests=requests, questions=questions)

    # ---------------------------------------------------------------- dialogue

    def _dialogues(self) -> tuple[Dialogue, Dialogue]:
        forget: list[Session] = []
        control: list[Session] = []
        previous_end: datetime | None = None
        seen_requests: set[str] = set()
        for si, session in enumerate(self.src.session):
            where = f"$.session[{si}]"
            if previous_end is not None and session.start < previous_end:
                raise self.fail(f"{where}.start", f"session {session.id} starts at {session.start:%Y-%m-%d %H:%M}, "
                                f"before the previous session ends ({previous_end:%Y-%m-%d %H:%M})")
            f_turns: list[Turn] = []
            c_turns: list[Turn] = []
            clock: datetime | None = None
            for ti, st in enumerate(session.turn):
                at = f"{where}.turn[{ti}]"
                texts = [st.user, st.assistant, st.control_user, st.control_assistant]
                words = max(len(t.split()) for t in texts if t)
                stamp = self._stamp(session, st, clock, words, at)
                if st.request is None:
                    role = Role.USER if st.user is not None else Role.ASSISTANT
                    said = st.user if st.user is not None else st.assistant
                    assert said is not None  # SourceTurn._shape: an ordinary turn has user or assistant
                    turn = Turn(id=f"{session.id}-T{len(f_turns) + 1:03d}", role=role,
                                text=said.strip(), timestamp=stamp,
                                annotations=TurnAnnotations(facts=list(st.facts)))
                    f_turns.append(turn)
                    c_turns.append(turn.model_copy(deep=True))
                    clock = stamp
                    continue
                if st.request not in self.requests:
                    raise self.fail(f"{at}.request", f"request {st.request!r} has no [[request]] table")
                if st.request in seen_requests:
                    raise self.fail(f"{at}.request", f"request {st.request} has a second exchange")
                seen_requests.add(st.request)
                user, assistant, control_user, control_assistant = (
                    st.user, st.assistant, st.control_user, st.control_assistant)
                # SourceTurn._shape: a request exchange has all four texts, none empty
                assert user and assistant and control_user and control_assistant
                longest = max(len(assistant.split()), len(control_assistant.split()))
                reply = (stamp + self._delay(longest)).replace(microsecond=0)
                for version, (ask, answer, segs) in {
                    Version.FORGET: (user, assistant, (Segment.REQUEST, Segment.CONFIRMATION)),
                    Version.CONTROL: (control_user, control_assistant, (Segment.NEUTRAL, Segment.NEUTRAL)),
                }.items():
                    bucket = f_turns if version == Version.FORGET else c_turns
                    n = len(bucket)
                    bucket.append(Turn(id=f"{session.id}-T{n + 1:03d}", role=Role.USER, text=ask.strip(),
                                       timestamp=stamp,
                                       annotations=TurnAnnotations(request_id=st.request, segment=segs[0])))
                    bucket.append(Turn(id=f"{session.id}-T{n + 2:03d}", role=Role.ASSISTANT, text=answer.strip(),
                                       timestamp=reply,
                                       annotations=TurnAnnotations(request_id=st.request, segment=segs[1])))
                clock = reply
            forget.append(Session(id=session.id, start=session.start, turns=f_turns))
            control.append(Session(id=session.id, start=session.start, turns=c_turns))
            previous_end = clock
        missing = sorted(set(self.requests) - seen_requests)
        if missing:
            raise self.fail("$.request", f"request(s) {', '.join(missing)} have no request exchange in any session")
        return Dialogue(sessions=forget), Dialogue(sessions=control)

    @staticmethod
    def _delay(words: int) -> timedelta:
        return BASE_DELAY + PER_WORD * words

    def _stamp(self, session: SourceSession, st: SourceTurn, clock: datetime | None, words: int, at: str) -> datetime:
        if st.time is not None:
            hours, minutes = map(int, st.time.split(":"))
            stamp = datetime.combine(session.start.date(), time(hours, minutes), tzinfo=session.start.tzinfo)
            floor = clock or session.start
            if stamp < floor:
                raise self.fail(f"{at}.time", f"time {st.time} is before the previous turn ({floor:%H:%M:%S})")
            return stamp
        if clock is None:
            return session.start
        return (clock + self._delay(words)).replace(microsecond=0)

    # ---------------------------------------------------------------- requests

    def _request(self, index: int, r: SourceRequest, forget: Dialogue) -> Request:
        turn_at = next(((s, t) for s, t in forget.iter_turns()
                        if t.annotations.request_id == r.id and t.annotations.segment == Segment.REQUEST), None)
        assert turn_at is not None  # _dialogues checked every request has an exchange
        session, turn = turn_at
        window = None
        if r.window_sessions:
            by_id = {s.id: s for s in forget.sessions}
            unknown = [s for s in r.window_sessions if s not in by_id]
            if unknown:
                raise self.fail(f"$.request[{index}].window_sessions", f"unknown session(s) {', '.join(unknown)}")
            chosen = sorted((by_id[s] for s in r.window_sessions), key=lambda s: s.start)
            window = TimeWindow(start=chosen[0].start, end=chosen[-1].turns[-1].timestamp,
                                session_ids=[s.id for s in chosen])
        return Request(id=r.id, type=r.type, target_fact_ids=r.targets, session_id=session.id, turn_id=turn.id,
                       text=(r.text or turn.text).strip(), new_value=r.new_value, category=r.category,
                       window=window, kept_fact_ids=r.kept)

    # ---------------------------------------------------------------- questions

    def _questions(self) -> list[Question]:
        width = max(2, len(str(len(self.src.question))))
        out: list[Question] = []
        for qi, q in enumerate(self.src.question):
            qid = f"Q{qi + 1:0{width}d}"
            where = f"$.question[{qi}]"
            fact = self.facts.get(q.fact)
            if fact is None:
                raise self.fail(f"{where}.fact", f"unknown fact {q.fact!r}")
            request = None
            if q.request is not None:
                request = self.requests.get(q.request)
                if request is None:
                    raise self.fail(f"{where}.request", f"unknown request {q.request!r}")
            forms = _unique([fact.value, *fact.aliases])
            # the new value, when the question is an efficacy/attack one about an F6 (replace) request
            replacement: str | None = None
            if request is not None and request.type == RequestType.F6 and q.suite in (Suite.EFFICACY, Suite.ATTACK):
                if not request.new_value:
                    raise self.fail(f"{where}.request", f"F6 request {request.id} has no new_value")
                replacement = request.new_value
            if q.suite in (Suite.RETENTION, Suite.PRESERVATION, Suite.RELEARNING):
                gold = Gold(kind=GoldKind.VALUE, accepted=q.accepted if q.accepted is not None else forms)
            elif replacement is not None and q.suite == Suite.EFFICACY:
                gold = Gold(kind=GoldKind.VALUE, accepted=q.accepted or [replacement],
                            protected=_unique([*forms, *q.protected]))
            else:  # efficacy / attack, sentinel; an explicit accepted list (even []) is kept:
                # an F6 attack about the past ("last winter, which gym…") need not accept the new value
                default = [replacement] if replacement is not None else []
                accepted = q.accepted if q.accepted is not None else default
                gold = Gold(kind=GoldKind.SENTINEL, accepted=accepted, protected=_unique([*forms, *q.protected]))
            version = Version.CONTROL if q.suite == Suite.RETENTION else Version.FORGET
            probed = q.suite in (Suite.EFFICACY, Suite.PRESERVATION, Suite.ATTACK)
            question = Question(id=qid, suite=q.suite, version=version, text=q.text.strip(), gold=gold,
                                request_id=q.request, fact_id=q.fact, frame=q.frame,
                                control_probe_id=qid + PROBE_SUFFIX if probed else None)
            out.append(question)
            if probed:
                out.append(Question(id=qid + PROBE_SUFFIX, suite=q.suite, version=Version.CONTROL, text=question.text,
                                    gold=Gold(kind=GoldKind.VALUE, accepted=gold.protected or gold.accepted),
                                    request_id=q.request, fact_id=q.fact, frame=q.frame, probe_of=qid))
        return out


def _unique(values: Sequence[str]) -> list[str]:
    seen: dict[str, None] = {}
    for v in values:
        v = v.strip()
        if v and v.casefold() not in {k.casefold() for k in seen}:
            seen[v] = None
    return list(seen)


def compile_instance(source: SourceInstance, path: Path | str = "<memory>") -> Instance:
    """The dataset instance an authoring file describes (errors name the file and location)."""
    try:
        return _Compiler(source, Path(path)).compile()
    except ValidationError as exc:  # a value the data model refuses (e.g. an empty text)
        first = exc.errors()[0]
        raise DatasetError(path, json_location(first["loc"]), first["msg"]) from None


def compile_file(path: Path | str) -> Instance:
    return compile_instance(load_source(path), path)


def compile_dataset(sources: Iterable[Path | str], out: Path | str, *, name: str = "bemula-handwritten",
                    generator: dict[str, str] | None = None) -> list[Instance]:
    """Compile authoring files into a dataset folder at ``out`` (written atomically)."""
    from bemula.stats import counts_for_manifest

    files = source_files(sources)
    if not files:
        raise DatasetError(Path(str(next(iter(sources), "."))), "$", "no authoring (*.toml) files found")
    instances = [compile_file(f) for f in files]
    ids = [i.id for i in instances]
    for f, inst in zip(files, instances):
        if ids.count(inst.id) > 1:
            raise DatasetError(f, "$.id", f"instance id {inst.id} is used by more than one file")
    info = {"name": "by hand", "compiler": "bemula.authoring", "files": str(len(files))}
    write_dataset(out, instances, generator={**info, **(generator or {})}, counts=counts_for_manifest(instances),
                  name=name)
    return instances


__all__ = ["SourceInstance", "load_source", "compile_instance", "compile_file", "compile_dataset", "source_files",
           "PROBE_SUFFIX"]
