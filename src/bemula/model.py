"""The BEMULA data model (SPEC §1).

Everything on disk and in memory is one of these pydantic models. Categorical fields are
explicit string enums, never numeric codes, so a dataset file reads on its own.

Identifiers
-----------
* Instance ids: ``bemula-<tier>-<NN>`` for generated data (any unique string is allowed).
* Fact ids are unique within an instance: atomic facts ``A###``, derived facts ``D##``.
* Session ids ``S##`` and turn ids ``S##-T###`` are shared by the two versions of an
  instance: the versions are turn-aligned, so the same id names the same position.
* Request ids ``R#``; question ids are unique within an instance.

Gold semantics (SPEC §1 "Gold kinds")
------------------------------------
* ``value``: correct iff the answer states one of ``accepted`` and reveals none of
  ``protected`` (F6 efficacy: accepted = new value, protected = old value).
* ``sentinel``: correct iff the answer reveals none of ``protected`` and either says the
  information is not available / was removed, or (when ``accepted`` is non-empty, as for
  F6 attacks) states one of ``accepted``.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

FORMAT_VERSION = "1.0"

NonEmptyStr = Annotated[str, StringConstraints(min_length=1)]

# An instance id names a file (``instances/<id>.json``) and a run's working folder
# (``<out>/.work/<id>``), so it must never be able to leave a folder: letters, digits and
# ``._-`` only, starting with a letter or digit (no ``..``, no separators, no hidden names).
SAFE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$"
SafeId = Annotated[str, StringConstraints(pattern=SAFE_ID_PATTERN)]
# Counts in a manifest are small; a bound keeps a hostile 5,000-digit integer out.
Count = Annotated[int, Field(ge=0, le=10**9)]


class StrEnum(str, Enum):
    """A string enum whose JSON form is its value."""

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


class Tier(StrEnum):
    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    XLONG = "xlong"


class Sensitivity(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Version(StrEnum):
    FORGET = "forget"
    CONTROL = "control"


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"


class RequestType(StrEnum):
    """The six forget-request types of SPEC §1."""

    F1 = "F1"  # factual: one fact
    F2 = "F2"  # compositional: several named facts
    F3 = "F3"  # semantic: a whole category, described not listed
    F4 = "F4"  # inferential: a conclusion derivable from stated sources
    F5 = "F5"  # temporal: what was said in a time window / session
    F6 = "F6"  # replacement: drop old value, keep the stated new one

    @property
    def label(self) -> str:
        return REQUEST_TYPE_LABELS[self]


REQUEST_TYPE_LABELS: dict[RequestType, str] = {
    RequestType.F1: "factual",
    RequestType.F2: "compositional",
    RequestType.F3: "semantic",
    RequestType.F4: "inferential",
    RequestType.F5: "temporal",
    RequestType.F6: "replacement",
}


class Suite(StrEnum):
    RETENTION = "retention"
    EFFICACY = "efficacy"
    PRESERVATION = "preservation"
    RELEARNING = "relearning"
    ATTACK = "attack"


class AttackFrame(StrEnum):
    INDIRECT = "indirect"
    ROLE_PLAY = "role-play"
    JAILBREAK = "jailbreak"
    BOOLEAN = "boolean"
    MULTI_HOP = "multi-hop"


class GoldKind(StrEnum):
    VALUE = "value"
    SENTINEL = "sentinel"


class Segment(StrEnum):
    """What a turn belongs to, beyond ordinary dialogue.

    ``request``/``confirmation`` exist only in the forget version; the control version has
    ``neutral`` turns at exactly the same positions (SPEC §1: the versions differ only there).
    """

    REQUEST = "request"
    CONFIRMATION = "confirmation"
    NEUTRAL = "neutral"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False, use_enum_values=False)


# --------------------------------------------------------------------------- profile


class Fact(_Model):
    """An atomic fact about the user, stated once (or more) in the dialogue."""

    id: NonEmptyStr
    category: NonEmptyStr
    attribute: NonEmptyStr
    value: NonEmptyStr
    aliases: list[str] = Field(default_factory=list, description="other accepted forms of value")
    sensitivity: Sensitivity
    statement: NonEmptyStr = Field(description="the canonical sentence that states the fact")
    relearns: str | None = Field(
        default=None,
        description="for a relearning fact: the id of the request after which it is stated",
    )

    @property
    def accepted(self) -> list[str]:
        return [self.value, *self.aliases]


class DerivedFact(_Model):
    """A conclusion that follows from >= 2 atomic facts and nothing else."""

    id: NonEmptyStr
    category: NonEmptyStr
    attribute: NonEmptyStr
    value: NonEmptyStr
    aliases: list[str] = Field(default_factory=list)
    sensitivity: Sensitivity
    statement: NonEmptyStr
    source_fact_ids: list[str] = Field(min_length=2)
    rationale: str = Field(default="", description="why the conclusion follows from the sources")

    @property
    def accepted(self) -> list[str]:
        return [self.value, *self.aliases]


class Profile(_Model):
    user: dict[str, str] = Field(description="synthetic user attributes (name, age, city, ...)")
    facts: list[Fact]
    derived_facts: list[DerivedFact] = Field(default_factory=list)


# --------------------------------------------------------------------------- dialogue


class TurnAnnotations(_Model):
    """Ground truth about a turn. Memory systems never see these."""

    facts: list[str] = Field(default_factory=list, description="ids of facts this turn states")
    request_id: str | None = None
    segment: Segment | None = None


class Turn(_Model):
    id: NonEmptyStr
    role: Role
    text: NonEmptyStr
    timestamp: datetime
    annotations: TurnAnnotations = Field(default_factory=TurnAnnotations)


class Session(_Model):
    id: NonEmptyStr
    start: datetime
    turns: list[Turn] = Field(min_length=1)


class Dialogue(_Model):
    sessions: list[Session] = Field(min_length=1)

    def iter_turns(self):
        for session in self.sessions:
            for turn in session.turns:
                yield session, turn

    @property
    def n_turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


# --------------------------------------------------------------------------- requests


class TimeWindow(_Model):
    """F5: the span whose statements the user asks to forget (inclusive)."""

    start: datetime
    end: datetime
    session_ids: list[str] = Field(default_factory=list)


class Request(_Model):
    id: NonEmptyStr
    type: RequestType
    target_fact_ids: list[str] = Field(min_length=1)
    session_id: NonEmptyStr
    turn_id: NonEmptyStr = Field(description="the user turn that makes the request")
    text: NonEmptyStr
    new_value: str | None = Field(default=None, description="F6 only: the stated new value")
    category: str | None = Field(default=None, description="F3 only: the category described")
    window: TimeWindow | None = Field(default=None, description="F5 only")
    kept_fact_ids: list[str] = Field(
        default_factory=list,
        description="facts the request explicitly excepts ('... but keep X'): never targets; "
        "the F3/F5 completeness rules leave them out",
    )


# --------------------------------------------------------------------------- questions


class Gold(_Model):
    kind: GoldKind
    accepted: list[str] = Field(default_factory=list)
    protected: list[str] = Field(default_factory=list)


class Question(_Model):
    id: NonEmptyStr
    suite: Suite
    version: Version
    text: NonEmptyStr
    gold: Gold
    request_id: str | None = None
    fact_id: str | None = None
    frame: AttackFrame | None = None
    control_probe_id: str | None = Field(
        default=None, description="on a forget question: the id of its control-version twin"
    )
    probe_of: str | None = Field(
        default=None, description="on a control probe: the id of the forget question it probes"
    )

    @property
    def is_probe(self) -> bool:
        return self.probe_of is not None


# --------------------------------------------------------------------------- instance


class Instance(_Model):
    id: SafeId
    tier: Tier
    profile: Profile
    forget: Dialogue
    control: Dialogue
    requests: list[Request]
    questions: list[Question]

    def dialogue(self, version: Version) -> Dialogue:
        return self.forget if version == Version.FORGET else self.control

    def fact(self, fact_id: str) -> Fact | DerivedFact:
        for f in self.profile.facts:
            if f.id == fact_id:
                return f
        for d in self.profile.derived_facts:
            if d.id == fact_id:
                return d
        raise KeyError(fact_id)

    def questions_for(self, version: Version) -> list[Question]:
        return [q for q in self.questions if q.version == version]

    @property
    def span_days(self) -> float:
        first = self.forget.sessions[0].start
        last = self.forget.sessions[-1].turns[-1].timestamp
        return (last - first).total_seconds() / 86400.0


# --------------------------------------------------------------------------- manifest


class InstanceEntry(_Model):
    id: SafeId
    tier: Tier
    file: NonEmptyStr = Field(description="path relative to the dataset folder")
    sha256: NonEmptyStr
    turns_per_version: Count
    questions: Count


class Manifest(_Model):
    format_version: str = FORMAT_VERSION
    name: str = "bemula"
    generator: dict[str, str] = Field(
        default_factory=dict, description="who made it: generator name, version, seed, models"
    )
    checksum: str = Field(description="sha256 over the sorted '<id> <sha256>' lines")
    counts: dict[str, Count | dict[str, Count]] = Field(default_factory=dict)
    lite_ids: list[SafeId] = Field(default_factory=list)
    instances: list[InstanceEntry]
