"""What a third-party package adds to bemula, with no change to bemula itself."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from pydantic import Field

from bemula.judge.base import JudgeItem, Progress, answer_hash, error_verdict
from bemula.metrics.definitions import Metric
from bemula.metrics.items import ItemRow
from bemula.model import Suite, Version
from bemula.runfolder.records import VerdictRecord
from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    SystemOptions,
    TurnEvent,
)


class LastTurns(MemorySystem):
    """Keeps only the last ``keep`` user turns and hands them all back."""

    name = "last-turns"
    description = "demo plug-in: the last N user turns, no forgetting"

    class Options(SystemOptions):
        keep: int = Field(default=40, ge=1)

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.keep = int(self.Options.model_validate(context.options).keep)
        self.turns: list[str] = []

    def reset(self) -> None:
        self.turns = []

    def ingest(self, turn: TurnEvent) -> None:
        if turn.role == "user":
            self.turns = [*self.turns, turn.text][-self.keep :]

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        return [RetrievedItem(text=f"user: {t}", store="turns") for t in self.turns]

    def dump(self) -> list[StoreRecord]:
        return [StoreRecord(store="turns", id=str(i), text=t) for i, t in enumerate(self.turns)]


class VerbatimJudge:
    """Right when an accepted value appears word for word; leaked when a protected one does."""

    name = "verbatim"

    def judge_many(self, items: Sequence[JudgeItem], progress: Progress | None = None) -> list[VerdictRecord]:
        out = []
        for item in items:
            if item.answer.error is not None:
                out.append(error_verdict(item, self.name))
                continue
            text = item.answer.answer.lower()
            gold = item.question.gold
            leaked = any(v.lower() in text for v in gold.protected)
            stated = any(v.lower() in text for v in gold.accepted)
            correct = stated if gold.accepted else not leaked
            out.append(VerdictRecord(instance_id=item.instance_id, question_id=item.question.id, judge=self.name,
                                     correct=correct, leaked=leaked, reason="verbatim match",
                                     answer_hash=answer_hash(item.answer)))
            if progress is not None:
                progress(1)
        return out


def verbatim_judge(context: object) -> VerbatimJudge:
    """word-for-word matching of gold values"""
    return VerbatimJudge()


def _forgetting(row: ItemRow) -> bool:
    return not row.is_probe and row.version == Version.FORGET and row.suite in (Suite.EFFICACY, Suite.ATTACK)


FORGETTING = Metric("FA", "FE+AR", "forgetting, efficacy and attack questions together",
                    "efficacy and attack suites, forget version, control probe right", selects=_forgetting)
