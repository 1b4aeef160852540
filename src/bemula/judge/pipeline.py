"""Judge a run folder: pair answers with their questions, judge what is not judged yet,
append the verdicts. Resumable: a verdict already on file for the same answer text is kept;
a question answered again (new answer text) is judged again, and so is one whose LLM judge
call failed (an unparseable reply is kept: the request cache would give the same reply)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bemula.dataset import DatasetError, InstanceView
from bemula.judge.base import Judge, JudgeItem, answer_hash
from bemula.model import Question
from bemula.runfolder.folder import RunFolder, RunFolderError
from bemula.runfolder.jsonl import JsonlAppender
from bemula.runfolder.records import Unscored, VerdictRecord

#: verdicts are appended (and fsynced) in batches of this many (a judge may set its own
#: ``batch_size``: small for slow LLM judges, so a kill loses little)
BATCH = 256


@dataclass
class JudgeSummary:
    judge: str
    path: Path
    total: int
    judged_now: int
    kept: int
    correct: int = 0
    wrong: int = 0
    unscored: int = 0
    unscored_reasons: dict[str, int] = field(default_factory=dict)


def load_instances(folder: RunFolder, ids: set[str] | None = None) -> dict[str, InstanceView]:
    """The dataset instances (questions and requests) a run folder's answers refer to, in
    dataset order."""
    dataset = folder.dataset
    wanted = ids if ids is not None else {iid for iid, _ in folder.answers}
    known = set(dataset.ids())
    unknown = sorted(wanted - known)
    if unknown:
        raise RunFolderError(
            f"{folder.path / 'answers.jsonl'}: instance {unknown[0]!r} is not in dataset {dataset.root}"
        )
    try:
        return dataset.views(iid for iid in dataset.ids() if iid in wanted)
    except DatasetError as exc:
        raise RunFolderError(str(exc)) from None


def build_items(folder: RunFolder, instances: dict[str, InstanceView] | None = None) -> list[JudgeItem]:
    """Every answer of the run paired with its question, in dataset order."""
    instances = instances if instances is not None else load_instances(folder)
    items: list[JudgeItem] = []
    answers = folder.answers
    for iid, instance in instances.items():
        questions: dict[str, Question] = {q.id: q for q in instance.questions}
        for (a_iid, qid), answer in answers.items():
            if a_iid != iid:
                continue
            question = questions.get(qid)
            if question is None:
                raise RunFolderError(
                    f"{folder.path / 'answers.jsonl'}: question {qid!r} is not in instance {iid!r} of {folder.data_path}"
                )
            items.append(JudgeItem(instance_id=iid, question=question, answer=answer))
    order = {iid: i for i, iid in enumerate(instances)}
    items.sort(key=lambda it: (order[it.instance_id], it.question.id))
    return items


def judge_run(
    folder: RunFolder,
    judge: Judge,
    *,
    progress: Callable[[int, int], Callable[[int], None] | None] | None = None,
    redo: bool = False,
) -> JudgeSummary:
    """Judge every not-yet-judged answer of ``folder`` with ``judge``; append the verdicts.

    ``progress(total_pending, already_done)`` may return a per-item callback (a progress bar).
    """
    items = build_items(folder)
    path = folder.verdicts_path(judge.name)
    existing = {} if redo else folder.verdicts(judge.name, required=False)
    pending = [
        it for it in items
        if (v := existing.get(it.key)) is None
        or v.answer_hash != answer_hash(it.answer)
        or v.unscored_kind is Unscored.JUDGE_FAILED  # a failed LLM call is retried on resume
    ]
    tick = progress(len(pending), len(items) - len(pending)) if progress else None
    # a redo appends too (the last verdict of a key counts): a redo cut short loses nothing
    with JsonlAppender[VerdictRecord](path) as out:
        size = int(getattr(judge, "batch_size", BATCH))
        for start in range(0, len(pending), size):
            out.append(judge.judge_many(pending[start : start + size], tick))
    folder.forget_cached_verdicts()
    final = folder.verdicts(judge.name)
    summary = JudgeSummary(
        judge=judge.name, path=path, total=len(items), judged_now=len(pending), kept=len(items) - len(pending)
    )
    for it in items:
        verdict: VerdictRecord | None = final.get(it.key)
        if verdict is None or verdict.correct is None:
            summary.unscored += 1
            reason = "missing" if verdict is None else str(verdict.unscored_kind)
            summary.unscored_reasons[reason] = summary.unscored_reasons.get(reason, 0) + 1
        elif verdict.correct:
            summary.correct += 1
        else:
            summary.wrong += 1
    return summary


def judge_folder(
    run: Path | str,
    judge: str,
    *,
    data: Path | str | None = None,
    backbone: str = "local",
    model: str | None = None,
    base_url: str | None = None,
    llm_cache: Path | None = None,
    llm_options: dict[str, Any] | None = None,
    redo: bool = False,
    progress: Callable[[int, int], Callable[[int], None] | None] | None = None,
) -> tuple[JudgeSummary, str]:
    """Judge one run folder with the registered judge ``judge`` (opening the LLM it needs);
    returns the summary and the judge's own counters as one clause ("" if none)."""
    from bemula.judge.registry import describe_judge, open_judge

    folder = RunFolder.open(run, data=data)
    with open_judge(judge, backbone=backbone, model=model, base_url=base_url, llm_cache=llm_cache,
                    llm_options=llm_options) as the_judge:
        summary = judge_run(folder, the_judge, progress=progress, redo=redo)
        return summary, describe_judge(the_judge)


def describe_summary(summary: JudgeSummary, counts: str = "") -> str:
    """One line: how many answers, judged now or kept, right, wrong, unscored and why."""
    reasons = ", ".join(f"{k} {v}" for k, v in summary.unscored_reasons.items())
    return (
        f"{summary.path}: {summary.total} answers ({summary.judged_now} judged now, {summary.kept} kept): "
        f"{summary.correct} correct, {summary.wrong} wrong, {summary.unscored} unscored"
        + (f" ({reasons})" if reasons else "")
        + (f"; {counts}" if counts else "")
    )
