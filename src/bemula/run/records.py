"""The records a run writes, one JSON object per line (append-only files).

``answers.jsonl`` holds ``AnswerRecord``s written by ``bemula run``; ``verdicts-<judge>.jsonl``
holds ``VerdictRecord``s written by ``bemula judge``. Both are keyed by
``(instance_id, question_id)``: question ids are unique within an instance and carry their
version (each question is asked on exactly one version).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from bemula.model import Version


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


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
    error: str | None = Field(
        default=None, description="set when the backbone failed after retries; answer is then ''"
    )

    @property
    def key(self) -> tuple[str, str]:
        return (self.instance_id, self.question_id)


class VerdictRecord(_Record):
    instance_id: str
    question_id: str
    judge: str
    correct: bool | None = Field(description="None = unscored (e.g. unparseable LLM verdict)")
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
