"""Near-miss precision cases: does a memory remove exactly what was asked, and nothing else?

A *case* is a short hand-written dialogue where the thing to forget sits beside something
similar that must stay: the same person's other fact, the same attribute of someone else,
an identifier sharing a prefix, a negated fact beside an affirmed one, the value written in
several forms, a chain of updates. The cases ship as TOML (``bemula/datasets/near-miss/``:
``dev.toml`` for developing a system, ``held-out.toml`` for measuring it)::

    [[case]]
    id = "subj-01"
    kind = "shared-subject"
    note = "the trap this case sets"
    dialogue = [ { user = "...", assistant = "..." }, ... ]    # before the request
    request = { user = "...", assistant = "..." }             # the forget request
    after = [ { user = "...", assistant = "..." } ]            # optional, after it

    [[case.question]]
    ask = "Where does Omar live?"
    gold = "removed"        # removed | kept | replaced
    forms = ["Didsbury"]    # removed: every form of the value; kept: accepted forms;
    new = []                # replaced: the current value(s); forms = the old one(s)

Why two versions, as in the benchmark (SPEC §1): each case is replayed into a fresh memory
twice, with and without the request exchange. A question counts only when the memory
answered it right without the request (it stored the fact at all); a case *passes* when every
question counts and every answer after the request is right. A case with an uncounted
question is reported as *unmeasured*, never as a pass or a failure — so a probe that cannot
read a question does not move the figure either way.

Answers come from the same yardstick as a run: the retrieval probe (``ProbeBackbone``) over
what the system retrieves, judged by the rule judge; a ``removed`` question is sentinel gold
protecting every form, ``replaced`` is value gold on the new value protecting the old one.
Every exchange is its own session, a day apart; questions are asked a day after the last.
"""

from __future__ import annotations

import tempfile
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError, model_validator

from bemula.model import Gold, GoldKind, Question, Suite, Version

#: the shipped case files, relative to the ``bemula`` package
SHIPPED_DIR = ("datasets", "near-miss")
SHIPPED_SPLITS = ("dev", "held-out")
#: what a case tests, one word per kind of near miss
Kind = Literal["shared-subject", "shared-attribute", "prefix-id", "negation", "surface-form", "update-chain"]
KINDS: tuple[Kind, ...] = get_args(Kind)
#: when the first exchange of every case happens (any fixed date: the cases carry no dates)
START = datetime(2026, 3, 2, 9, 0)


class NearMissError(ValueError):
    """A case file that cannot be used; the message names the file, the case and the field."""


class Exchange(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    user: StrictStr = Field(min_length=1)
    assistant: StrictStr = ""


class CaseQuestion(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ask: StrictStr = Field(min_length=1)
    gold: Literal["removed", "kept", "replaced"]
    forms: list[StrictStr] = Field(min_length=1)
    new: list[StrictStr] = Field(default_factory=list)

    @model_validator(mode="after")
    def _consistent(self) -> CaseQuestion:
        if any(not f.strip() for f in [*self.forms, *self.new]):
            raise ValueError("forms and new must not hold empty strings")
        if (self.gold == "replaced") != bool(self.new):
            raise ValueError("'new' is required with gold = 'replaced' and only there")
        return self

    def question(self, qid: str, version: Version) -> Question:
        """The benchmark question this asks on ``version`` (the gold the judge applies)."""
        if version == Version.CONTROL or self.gold == "kept":
            gold = Gold(kind=GoldKind.VALUE, accepted=list(self.forms))
        elif self.gold == "removed":
            gold = Gold(kind=GoldKind.SENTINEL, protected=list(self.forms))
        else:
            gold = Gold(kind=GoldKind.VALUE, accepted=list(self.new), protected=list(self.forms))
        suite = Suite.PRESERVATION if self.gold == "kept" else Suite.EFFICACY
        return Question(id=qid, suite=suite, version=version, text=self.ask, gold=gold)


class Case(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: StrictStr = Field(min_length=1)
    kind: Kind
    note: StrictStr = ""
    dialogue: list[Exchange] = Field(min_length=1)
    request: Exchange
    after: list[Exchange] = Field(default_factory=list)
    question: list[CaseQuestion] = Field(min_length=2)

    @model_validator(mode="after")
    def _has_both_sides(self) -> Case:
        golds = {q.gold for q in self.question}
        if "kept" not in golds or not golds & {"removed", "replaced"}:
            raise ValueError("a case needs a 'kept' question and a 'removed' or 'replaced' one")
        return self

    def exchanges(self, version: Version) -> list[Exchange]:
        """The dialogue as ``version`` sees it: the control version has no request."""
        middle = [self.request] if version == Version.FORGET else []
        return [*self.dialogue, *middle, *self.after]


def load_cases(path: Path | str) -> list[Case]:
    """Read one case file; any problem is a ``NearMissError`` naming file, case and field."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise NearMissError(f"{path}: {err}") from None
    if set(raw) - {"case"} or not isinstance(raw.get("case"), list):
        raise NearMissError(f"{path}: expected only [[case]] tables")
    cases: list[Case] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw["case"]):
        name = entry.get("id", f"#{i}") if isinstance(entry, dict) else f"#{i}"
        try:
            case = Case.model_validate(entry)
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "case"
            raise NearMissError(f"{path}: case {name}: field {where!r}: {first['msg']}") from None
        if case.id in seen:
            raise NearMissError(f"{path}: case {case.id}: duplicate id")
        seen.add(case.id)
        cases.append(case)
    return cases


def shipped_cases(split: str = "dev") -> list[Case]:
    """The cases shipped with the package: ``dev`` (develop here) or ``held-out``."""
    if split not in SHIPPED_SPLITS:
        raise NearMissError(f"unknown near-miss split {split!r}; known: {', '.join(SHIPPED_SPLITS)}")
    ref = resources.files("bemula").joinpath(*SHIPPED_DIR, f"{split}.toml")
    return load_cases(Path(str(ref)))


# --------------------------------------------------------------------------- running


@dataclass
class QuestionOutcome:
    ask: str
    gold: str
    control_answer: str
    control_correct: bool
    answer: str
    correct: bool
    reason: str = ""


@dataclass
class CaseOutcome:
    case_id: str
    kind: str
    questions: list[QuestionOutcome] = field(default_factory=list)

    @property
    def measured(self) -> bool:
        return all(q.control_correct for q in self.questions)

    @property
    def passed(self) -> bool:
        return self.measured and all(q.correct for q in self.questions)

    @property
    def over_deleted(self) -> bool:
        """A kept fact was lost (its control answer was right, its answer now is wrong)."""
        return any(q.gold == "kept" and q.control_correct and not q.correct for q in self.questions)

    @property
    def leaked(self) -> bool:
        """A removed or replaced value still came back."""
        return any(q.gold != "kept" and q.control_correct and not q.correct for q in self.questions)


@dataclass
class SuiteOutcome:
    system: str
    cases: list[CaseOutcome]

    def figures(self) -> dict[str, Any]:
        """Pass rate over measured cases, overall and per kind, with the failure split."""

        def summary(group: Sequence[CaseOutcome]) -> dict[str, Any]:
            measured = [c for c in group if c.measured]
            passed = sum(c.passed for c in measured)
            return {
                "cases": len(group), "measured": len(measured), "passed": passed,
                "pass_rate": round(100.0 * passed / len(measured), 1) if measured else None,
                "over_deleted": sum(c.over_deleted for c in measured),
                "leaked": sum(c.leaked for c in measured),
            }

        kinds = [k for k in KINDS if any(c.kind == k for c in self.cases)]
        return {"system": self.system, **summary(self.cases),
                "by_kind": {k: summary([c for c in self.cases if c.kind == k]) for k in kinds}}


def _feed(system: Any, exchanges: Iterable[Exchange]) -> datetime:
    """Replay exchanges, one session each, a day apart; returns when questions are asked."""
    from bemula.systems.base import TurnEvent

    when = START
    for n, ex in enumerate(exchanges, start=1):
        session = f"S{n:02d}"
        when = START + timedelta(days=n - 1)
        system.ingest(TurnEvent("user", ex.user, session, when))
        if ex.assistant:
            system.ingest(TurnEvent("assistant", ex.assistant, session, when + timedelta(minutes=1)))
        system.end_session(session)
    return when + timedelta(days=1)


def run_case(system_name: str, case: Case, *, options: dict[str, Any] | None = None,
             workdir: Path | None = None) -> CaseOutcome:
    """Replay ``case`` into two fresh memories of ``system_name`` (with and without the
    request) and judge every question on both with the probe and the rule judge."""
    from bemula.backbones import ProbeBackbone
    from bemula.judge.rules import judge_answer
    from bemula.systems.base import SystemContext, create_system

    probe = ProbeBackbone()
    outcome = CaseOutcome(case.id, case.kind)
    with tempfile.TemporaryDirectory(prefix="bemula-nearmiss-", dir=workdir) as tmp:
        answers: dict[Version, list[tuple[str, bool | None, str]]] = {}
        for version in (Version.CONTROL, Version.FORGET):
            context = SystemContext(workdir=Path(tmp) / version.value, options=dict(options or {}))
            context.workdir.mkdir()
            system = create_system(system_name, context)
            try:
                system.reset()
                now = _feed(system, case.exchanges(version))
                rows = []
                for i, q in enumerate(case.question, start=1):
                    question = q.question(f"{case.id}-Q{i}", version)
                    answer = probe.answer(q.ask, system.retrieve(q.ask, now), now).text
                    verdict = judge_answer(question, answer, memory=True)
                    rows.append((answer, verdict.correct, verdict.reason))
                answers[version] = rows
            finally:
                system.close()
    for q, control, forget in zip(case.question, answers[Version.CONTROL], answers[Version.FORGET], strict=True):
        outcome.questions.append(QuestionOutcome(
            ask=q.ask, gold=q.gold, control_answer=control[0], control_correct=bool(control[1]),
            answer=forget[0], correct=bool(forget[1]), reason=forget[2],
        ))
    return outcome


def run_suite(system_name: str, cases: Sequence[Case], *, options: dict[str, Any] | None = None) -> SuiteOutcome:
    return SuiteOutcome(system_name, [run_case(system_name, c, options=options) for c in cases])


def kind_counts(cases: Iterable[Case]) -> dict[str, int]:
    counts = Counter(c.kind for c in cases)
    return {k: counts[k] for k in KINDS if counts[k]}
