"""The records a run folder holds, one JSON object per line (append-only files).

``answers.jsonl`` holds ``AnswerRecord``s written by ``bemula run``; ``verdicts-<judge>.jsonl``
holds ``VerdictRecord``s written by ``bemula judge``. Both are keyed by
``(instance_id, question_id)``: question ids are unique within an instance and carry their
version (each question is asked on exactly one version).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bemula.model import Gold, Version


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AnswerKind(StrEnum):
    """What an answer's text is, which decides how a judge reads it.

    ``memory``: raw memory text the system retrieved, handed back by the retrieval probe (it
    can contain many facts besides the one asked about). ``model``: an answer a model wrote.
    """

    MEMORY = "memory"
    MODEL = "model"


class RetrievedRecord(_Record):
    text: str
    score: float = 0.0
    store: str = ""
    id: str = ""
    timestamp: datetime | None = None


class AnswerRecord(_Record):
    instance_id: str
    question_id: str
    version: Version
    system: str
    backbone: str
    answer_kind: AnswerKind = Field(
        default=AnswerKind.MODEL,
        description="memory = retrieval-probe memory text, model = a model's answer",
    )
    question: str
    answer: str
    retrieved: list[RetrievedRecord] = Field(default_factory=list)
    retrieved_total: int | None = Field(
        default=None,
        description="how many items the system returned, when more than the recorded ones",
    )
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    retrieve_s: float = 0.0
    prompt_hash: str = Field(default="", description="the answering prompt's template hash ('' for the probe)")
    gold_hash: str = Field(default="", description="sha256 prefix of the question's gold when it was answered")
    error: str | None = Field(
        default=None, description="set when the backbone failed after retries; answer is then ''"
    )

    @property
    def key(self) -> tuple[str, str]:
        return (self.instance_id, self.question_id)

    @model_validator(mode="before")
    @classmethod
    def _kind_of_older_records(cls, data: Any) -> Any:
        """Answers written before ``answer_kind`` existed: the retrieval probe's are memory text."""
        if isinstance(data, dict) and "answer_kind" not in data:
            memory = data.get("backbone") in ("probe", "retrieval-probe")
            data = {**data, "answer_kind": AnswerKind.MEMORY if memory else AnswerKind.MODEL}
        return data


def gold_hash(gold: Gold) -> str:
    """Identity of a question's gold, so a verdict can tell that the data changed under it."""
    return hashlib.sha256(gold.model_dump_json().encode()).hexdigest()[:16]


class Unscored(StrEnum):
    """Why a verdict is neither right nor wrong (counted apart in every summary)."""

    UNPARSEABLE = "unparseable verdict"
    JUDGE_FAILED = "judge call failed"
    NO_ANSWER = "no answer (backbone error)"
    OTHER = "other"


class VerdictRecord(_Record):
    instance_id: str
    question_id: str
    judge: str
    correct: bool | None = Field(description="None = unscored (e.g. unparseable LLM verdict)")
    unscored: Unscored | None = Field(default=None, description="why correct is None; None when scored")
    leaked: bool = Field(default=False, description="a protected value appears in the answer")
    refusal: bool = Field(default=False, description="the answer says the information is unavailable")
    reason: str = ""
    judge_model: str = ""
    prompt_hash: str = ""
    answer_hash: str = Field(
        default="", description="sha256 prefix of the judged answer text: a re-answered question is re-judged"
    )

    @property
    def key(self) -> tuple[str, str]:
        return (self.instance_id, self.question_id)

    @property
    def unscored_kind(self) -> Unscored | None:
        """Why this verdict is unscored; for files written before the field existed, read
        from the reason text those judges wrote."""
        if self.correct is not None:
            return None
        if self.unscored is not None:
            return self.unscored
        reason = self.reason
        if "unparseable" in reason:
            return Unscored.UNPARSEABLE
        if "judge call failed" in reason:
            return Unscored.JUDGE_FAILED
        if "backbone error" in reason:
            return Unscored.NO_ANSWER
        return Unscored.OTHER


class ResidueRecord(_Record):
    """One protected value found in one store record after its forget request
    (``residues.jsonl``, written by ``bemula audit``)."""

    instance_id: str
    request_id: str
    request_type: str
    value: str
    match: str = Field(description="exact | alias | partial: how the record gives the value away")
    store: str
    record_id: str
    snippet: str


class ReceiptRecord(BaseModel):
    """One deletion receipt a system reported (``receipts.jsonl``). Its fields are the
    system's own (what was removed, from which store, why); only the instance is bemula's."""

    model_config = ConfigDict(extra="allow")
    instance_id: str

    def as_dict(self) -> dict[str, Any]:
        return self.model_dump()
