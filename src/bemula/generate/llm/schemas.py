"""Small pydantic models: what each LLM call must return, and what each stage caches.

LLM outputs are validated against these (the JSON schema sent with the call is generated
from the same model), so a malformed answer is caught at the boundary and the stage can
retry with feedback or fall back to a deterministic repair.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from bemula.model import Profile, Question, Request, RequestType, Sensitivity, TimeWindow

Short = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
Sentence = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=600)]


class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")


# --------------------------------------------------------------------------- LLM outputs


class UserSketch(_Out):
    name: Short
    age: int = Field(ge=18, le=99)
    city: Short
    occupation: Short


class FactDraft(_Out):
    attribute: Short
    value: Short
    aliases: list[Short] = Field(default_factory=list, max_length=4)
    sensitivity: Sensitivity
    statement: Sentence


class FactBatch(_Out):
    facts: list[FactDraft] = Field(min_length=1, max_length=50)


class DerivedDraft(_Out):
    source_fact_ids: list[Short] = Field(min_length=2, max_length=4)
    attribute: Short
    value: Short
    statement: Sentence
    rationale: Sentence


class EntailmentVerdict(_Out):
    follows: bool
    reason: str = ""


class TopicList(_Out):
    topics: list[Short] = Field(min_length=1, max_length=64)


class NewValue(_Out):
    new_value: Short


class StatedVerdict(_Out):
    stated: bool


class RequestDraft(_Out):
    message: Sentence


class RemovalVerdict(_Out):
    asks_removal: bool


class ReplyDraft(_Out):
    reply: Sentence


class ExchangeDraft(_Out):
    user: Sentence
    assistant: Sentence


class QuestionDraft(_Out):
    question: Sentence


# --------------------------------------------------------------------------- stage outputs


class ProfileStats(BaseModel):
    fact_drafts_rejected: int = 0
    fact_batches_fallback: int = 0
    derived_rejected: int = 0
    derived_dropped: int = 0


class ProfileStage(BaseModel):
    """Stage 1 output: the profile (facts and verified derived facts)."""

    profile: Profile
    stats: ProfileStats = Field(default_factory=ProfileStats)


class PlannedUserTurn(BaseModel):
    """One user turn of the simulation plan; ``facts`` are the ids it must state."""

    index: int = Field(description="0-based position of the user turn within its session")
    facts: list[str] = Field(default_factory=list)


class SessionPlan(BaseModel):
    id: str
    start: datetime
    topic: str
    pairs: int = Field(description="user/assistant turn pairs simulated in this session")
    user_turns: list[PlannedUserTurn]


class RequestPlan(BaseModel):
    """A forget request: where it goes (after pair ``after_pair`` of its session) and what it targets."""

    id: str
    type: RequestType
    target_fact_ids: list[str]
    session_id: str
    after_pair: int
    style: str
    new_value: str | None = None
    category: str | None = None
    window: TimeWindow | None = None


class PlanStage(BaseModel):
    """Stage 2 output: the schedule every later stage follows."""

    profile: Profile = Field(description="the profile with relearning facts marked")
    sessions: list[SessionPlan]
    requests: list[RequestPlan]
    preservation_fact_ids: list[str]
    retention_fact_ids: list[str]


class SimTurn(BaseModel):
    role: str
    text: str
    facts: list[str] = Field(default_factory=list)
    repaired: bool = False


class SimulationStats(BaseModel):
    turns: int = 0
    retries: int = 0
    repairs: int = 0
    unstated_caught: int = 0
    leaks_fixed: int = 0
    duplicates_fixed: int = 0


class SessionSim(BaseModel):
    session_id: str
    turns: list[SimTurn]
    stats: SimulationStats = Field(default_factory=SimulationStats)


class SimulationStage(BaseModel):
    sessions: list[SessionSim]


class InjectedRequest(BaseModel):
    request: Request
    confirmation: str
    neutral_user: str
    neutral_assistant: str
    regenerated: int = 0
    fallback: bool = False


class InjectionStage(BaseModel):
    requests: list[InjectedRequest]


class QuestionsStage(BaseModel):
    questions: list[Question]


__all__ = [
    "DerivedDraft",
    "EntailmentVerdict",
    "ExchangeDraft",
    "FactBatch",
    "FactDraft",
    "InjectedRequest",
    "InjectionStage",
    "NewValue",
    "PlanStage",
    "PlannedUserTurn",
    "ProfileStage",
    "ProfileStats",
    "QuestionDraft",
    "QuestionsStage",
    "RemovalVerdict",
    "ReplyDraft",
    "RequestDraft",
    "RequestPlan",
    "SessionPlan",
    "SessionSim",
    "SimTurn",
    "SimulationStage",
    "SimulationStats",
    "StatedVerdict",
    "TopicList",
    "UserSketch",
]
