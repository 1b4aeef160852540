"""BEMULA as an Inspect task (``pip install 'bemula[inspect]'``)::

    inspect eval bemula/bemula -T system=erasemem -T data=handwritten --model openai/gpt-4o-mini
    inspect eval src/bemula/inspect_task.py -T system=naive-rag -T data=data/bemula -T lite=true

One sample per question. The solver replays the question's version of the instance into
the memory system — once per (instance, version), cached, not once per question — asks the
system for its memory, and has the Inspect model answer with bemula's answering prompt
(``bemula.agent``). The scorer is bemula's judge; the metrics are bemula's RA, FE, PR, RL,
AR, request pass rate and Score, computed from the whole log exactly as ``bemula score``
computes them (control-probe conditioning, request pass rule, Score's formula). Inspect's
log viewer then shows every prompt, memory and answer; ``inspect eval-retry`` resumes.

Offline systems only (those that need no LLM of their own); the answering model is
Inspect's. Task options: ``system``, ``data`` (folder or bundled name), ``lite``,
``instances`` (comma-separated ids), ``judge`` (a judge that needs no LLM, default
``rules``), ``options`` (the system's ``KEY=VALUE,KEY=VALUE``), ``index`` (bm25 | dense).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import CORRECT, INCORRECT, SampleScore, Score, Target, metric, scorer
from inspect_ai.solver import Generate, TaskState, solver

from bemula.agent import build_messages
from bemula.dataset import Dataset, resolve_data
from bemula.judge.base import JudgeItem
from bemula.judge.registry import JUDGES, JudgeContext, needs_llm
from bemula.metrics.compute import RunScores, compute_scores
from bemula.metrics.definitions import all_metrics
from bemula.model import Instance, Version
from bemula.run.ingest import feed, version_steps
from bemula.run.instance import question_time
from bemula.runfolder.records import AnswerKind, AnswerRecord, VerdictRecord
from bemula.systems.base import MemorySystem, SystemContext, create_system, registry

#: the metadata keys a sample's score carries (the verdict bemula's judge gave)
VERDICT_KEYS = ("instance_id", "question_id", "correct", "leaked", "refusal", "reason")


def _options(text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for item in (p.strip() for p in text.split(",") if p.strip()):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"options: {item!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def _samples(dataset: Dataset, ids: Sequence[str]) -> list[Sample]:
    samples = []
    for iid in ids:
        view = dataset.view(iid)
        for q in view.questions:
            samples.append(Sample(
                id=f"{iid}/{q.id}",
                input=q.text,
                target=list(q.gold.accepted) or [""],
                metadata={"instance_id": iid, "question_id": q.id, "version": q.version.value,
                          "suite": q.suite.value, "frame": q.frame.value if q.frame else None,
                          "request_id": q.request_id, "probe_of": q.probe_of},
            ))
    return samples


@dataclass
class _Memories:
    """Memory systems after ingesting one (instance, version) each, built on first use."""

    dataset: Dataset
    system: str
    options: dict[str, Any]
    index: str
    workdir: tempfile.TemporaryDirectory[str]
    built: dict[tuple[str, str], MemorySystem] = field(default_factory=dict)
    locks: dict[tuple[str, str], asyncio.Lock] = field(default_factory=dict)
    instances: dict[str, Instance] = field(default_factory=dict)

    def instance(self, iid: str) -> Instance:
        if iid not in self.instances:
            self.instances[iid] = self.dataset.load(iid)
        return self.instances[iid]

    async def get(self, iid: str, version: Version) -> MemorySystem:
        key = (iid, version.value)
        lock = self.locks.setdefault(key, asyncio.Lock())
        async with lock:
            if key not in self.built:
                self.built[key] = await asyncio.to_thread(self._build, iid, version)
        return self.built[key]

    def _build(self, iid: str, version: Version) -> MemorySystem:
        folder = Path(self.workdir.name) / iid / version.value
        folder.mkdir(parents=True, exist_ok=True)
        context = SystemContext(workdir=folder, llm=None, seed=0, options=dict(self.options), index_kind=self.index)
        memory = create_system(self.system, context)
        memory.reset()
        feed(memory, version_steps(self.instance(iid).dialogue(version)))
        return memory


@solver
def memory_answer(memories: _Memories):
    """Retrieve from the memory system's state for the sample's (instance, version), then
    let the model answer with bemula's answering prompt."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        version = Version(meta["version"])
        memory = await memories.get(meta["instance_id"], version)
        now = question_time(memories.instance(meta["instance_id"]), version)
        retrieved = await asyncio.to_thread(memory.retrieve, state.input_text, now)
        system_prompt, user = build_messages(state.input_text, retrieved, now)
        state.metadata["retrieved"] = [item.text for item in retrieved[:20]]
        state.messages = [ChatMessageSystem(content=system_prompt["content"]), ChatMessageUser(content=user["content"])]
        return await generate(state)

    return solve


@scorer(metrics=[])
def bemula_judge(dataset: Dataset, judge: str = "rules", system: str = ""):
    """bemula's judge on the model's answer; the verdict goes into the score's metadata."""
    entry = JUDGES.get(judge)
    assert entry.factory is not None
    the_judge = entry.factory(JudgeContext())

    async def score(state: TaskState, target: Target) -> Score:
        meta = state.metadata
        question = next(q for q in dataset.view(meta["instance_id"]).questions if q.id == meta["question_id"])
        answer = AnswerRecord(
            instance_id=meta["instance_id"], question_id=question.id, version=question.version, system=system,
            backbone=f"inspect:{state.model}", answer_kind=AnswerKind.MODEL, question=question.text,
            answer=state.output.completion,
        )
        verdict = the_judge.judge_many([JudgeItem(meta["instance_id"], question, answer)])[0]
        return Score(
            value=CORRECT if verdict.correct else INCORRECT,
            answer=state.output.completion,
            explanation=verdict.reason,
            metadata={"instance_id": verdict.instance_id, "question_id": verdict.question_id,
                      "correct": verdict.correct, "leaked": verdict.leaked, "refusal": verdict.refusal,
                      "reason": verdict.reason},
        )

    return score


def scores_from_log(dataset: Dataset, scores: Sequence[SampleScore], *, judge: str = "rules",
                    n_resamples: int = 1000) -> RunScores:
    """bemula's metrics over the verdicts in an Inspect log's sample scores."""
    verdicts: dict[tuple[str, str], VerdictRecord] = {}
    for sample_score in scores:
        meta = sample_score.score.metadata or {}
        if not all(k in meta for k in VERDICT_KEYS):
            continue
        verdicts[(meta["instance_id"], meta["question_id"])] = VerdictRecord(
            instance_id=meta["instance_id"], question_id=meta["question_id"], judge=judge, correct=meta["correct"],
            leaked=meta["leaked"], refusal=meta["refusal"], reason=meta["reason"],
        )
    ids = [iid for iid in dataset.ids() if any(k[0] == iid for k in verdicts)]
    return compute_scores(list(dataset.views(ids).values()), verdicts, label="inspect", judge=judge,
                          n_resamples=n_resamples)


def _bemula_metric(dataset: Dataset, name: str, judge: str):
    @metric(name=name)
    def bemula_metric():
        def compute(scores: list[SampleScore]) -> float:
            value = scores_from_log(dataset, scores, judge=judge, n_resamples=1).get(name)
            return float("nan") if value is None or value.value is None else round(value.value, 4)

        return compute

    return bemula_metric()


@task
def bemula(system: str = "erasemem", data: str = "handwritten", lite: bool = False, instances: str = "",
           judge: str = "rules", options: str = "", index: str = "bm25") -> Task:
    """BEMULA on one memory system, answered by the Inspect model, judged by bemula's judge."""
    if system not in registry():
        raise ValueError(f"unknown system {system!r}; known: {', '.join(sorted(registry()))}")
    info = registry()[system]
    if not info.available or (info.factory is not None and info.factory.requires_llm):
        raise ValueError(f"system {system!r} needs an LLM or a package of its own; the Inspect task runs "
                         "offline systems (the answering model is Inspect's)")
    if needs_llm(judge):
        raise ValueError(f"judge {judge!r} needs an LLM; the Inspect task uses judges that need none (rules)")
    system_options = _options(options)
    info.validate_options(system_options)
    dataset = Dataset.open(resolve_data(data))
    wanted = [i.strip() for i in instances.split(",") if i.strip()] or None
    ids = dataset.select(lite=lite, instances=wanted)
    # the systems' folders live as long as the task; removed when it is collected or at exit
    workdir = tempfile.TemporaryDirectory(prefix="bemula-inspect-")
    memories = _Memories(dataset=dataset, system=system, options=system_options, index=index, workdir=workdir)
    names = [m.name for m in all_metrics()]
    return Task(
        dataset=MemoryDataset(_samples(dataset, ids), name=f"bemula:{dataset.manifest.name}"),
        solver=memory_answer(memories),
        scorer=bemula_judge(dataset, judge, system),
        metrics=[_bemula_metric(dataset, name, judge) for name in names],
        metadata={"bemula_system": system, "bemula_data": str(dataset.root), "bemula_checksum": dataset.checksum},
    )
