"""What every judge shares: the item it judges and the record it returns.

A judge turns ``(question, answer)`` pairs into ``VerdictRecord``s. Judges never see
anything but the question (with its gold) and the answer record, so a judge can be swapped
without re-running systems (SPEC §2: answers are stored first, judged in a separate step).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bemula.model import Question
from bemula.runfolder.records import AnswerRecord, Unscored, VerdictRecord

#: progress callback: called with the number of items just finished
Progress = Callable[[int], None]


@dataclass(frozen=True)
class JudgeItem:
    """One answered question, ready to be judged."""

    instance_id: str
    question: Question
    answer: AnswerRecord

    @property
    def key(self) -> tuple[str, str]:
        return (self.instance_id, self.question.id)


class Judge(Protocol):
    """A judge: ``name`` names its verdict file ``verdicts-<name>.jsonl``."""

    name: str

    def judge_many(self, items: Sequence[JudgeItem], progress: Progress | None = None) -> list[VerdictRecord]:
        """Verdicts for ``items``, in the same order."""
        ...


def answer_hash(answer: AnswerRecord) -> str:
    """Identity of the judged answer (text + error), so re-answered questions get re-judged."""
    payload = f"{answer.answer}\x00{answer.error or ''}".encode()
    return hashlib.sha256(payload).hexdigest()[:16]


def error_verdict(item: JudgeItem, judge: str, *, judge_model: str = "", prompt_hash: str = "") -> VerdictRecord:
    """The verdict for an answer the backbone failed to give: unscored, never right or wrong."""
    return VerdictRecord(
        instance_id=item.instance_id,
        question_id=item.question.id,
        judge=judge,
        correct=None,
        unscored=Unscored.NO_ANSWER,
        reason=f"unscored: no answer (backbone error: {(item.answer.error or '')[:120]})",
        answer_hash=answer_hash(item.answer),
        judge_model=judge_model,
        prompt_hash=prompt_hash,
    )
