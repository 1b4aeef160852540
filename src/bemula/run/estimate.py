"""``bemula estimate``: LLM calls, tokens and money of a planned run or sweep, before any is spent.

Method (printed with every estimate, so a reader knows what the figures rest on):

- **Ingestion** (the memory system's own LLM calls): the system's *cost profile* — calls,
  prompt and completion tokens per ingested turn — times the turns the run will ingest. With
  ``fork()`` a version pair's shared prefix is ingested once (the turns are counted from the
  dataset itself). Profiles are measured by ``python benchmarks/bench_adapters.py
  --write-profiles``: the real package ingests the hand-written ``tiny-a`` instance against
  the scripted OpenAI-compatible server, and every request and answer is counted in cl100k
  tokens (``src/bemula/systems/cost_profiles.toml``, with the date and package version).
  Systems whose prompts grow with their store (mem0, LangMem, A-MEM) cost more per turn on
  long dialogues than on tiny-a: for them the figure is a lower bound.
- **Retrieval**: the profile's system-side calls per question (SimpleMem asks its LLM while
  retrieving), times the questions.
- **Answering** (LLM backbones only): one call per question. Prompt: the profile's answer
  prompt per question (the agent prompt around what the system retrieved for tiny-a's
  questions), or, for a system that answers from the raw history (full-context), the
  version's dialogue in tokens up to the backbone's context window. Completion: at most the
  agent's cap (``ANSWER_MAX_TOKENS``), an upper bound.
- **Money**: tokens × a price table (``--prices FILE``: per model, dollars per million input
  and output tokens). No table, no money: prices change, and bemula ships none.

``bemula run`` writes the estimate of its selection to ``<run>/estimate.json`` when it
starts; the report sets it beside what the run spent (``actual_cost``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bemula.agent import ANSWER_MAX_TOKENS, RESERVED_TOKENS
from bemula.dataset import Dataset
from bemula.runfolder.jsonl import atomic_write_json
from bemula.runfolder.names import ESTIMATE_NAME

PROFILES_FILE = ("systems", "cost_profiles.toml")


class EstimateError(ValueError):
    """An estimate cannot be made as asked (a bad price table, no data); one line."""


class CostProfile(BaseModel):
    """What one system costs per ingested turn and per question (cl100k tokens)."""

    model_config = ConfigDict(extra="forbid")

    measured: str = Field(description="how, when and on which package version the figures were measured")
    llm_calls_per_turn: float = 0.0
    prompt_tokens_per_turn: float = 0.0
    completion_tokens_per_turn: float = 0.0
    llm_calls_per_question: float = 0.0
    prompt_tokens_per_question: float = 0.0
    completion_tokens_per_question: float = 0.0
    #: the agent prompt for one answer: "items" (the profile's figure) or "history" (the dialogue)
    answer_context: str = "items"
    answer_prompt_tokens: float = 0.0
    #: the figures grow with the store (a lower bound on long dialogues)
    grows_with_store: bool = False
    #: the system forks (a version pair's shared prefix is ingested once), as measured
    supports_fork: bool = False


@lru_cache(maxsize=1)
def cost_profiles() -> dict[str, CostProfile]:
    """The shipped profiles, by system name."""
    ref = resources.files("bemula").joinpath(*PROFILES_FILE)
    raw = tomllib.loads(ref.read_text(encoding="utf-8"))
    try:
        return {name: CostProfile.model_validate(values) for name, values in raw.items()}
    except ValidationError as exc:
        raise EstimateError(f"{'/'.join(PROFILES_FILE)}: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}") from None


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0, description="dollars per million prompt tokens")
    output: float = Field(ge=0, description="dollars per million completion tokens")


def load_prices(path: Path | str) -> dict[str, Price]:
    """A price table: ``[prices."<model>"] input = …, output = …`` (dollars per million tokens)."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EstimateError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise EstimateError(f"{path}: not TOML ({exc})") from None
    table = raw.get("prices")
    if not isinstance(table, dict) or not table or set(raw) - {"prices"}:
        raise EstimateError(f'{path}: expected only a [prices."<model>"] table per model, with input and output')
    prices = {}
    for model, values in table.items():
        try:
            prices[model] = Price.model_validate(values)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error["loc"])
            raise EstimateError(f"{path}: prices.{model}{'.' + where if where else ''}: {error['msg']}") from None
    return prices


@dataclass
class Usage:
    calls: float = 0.0
    prompt_tokens: float = 0.0
    completion_tokens: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.calls + other.calls, self.prompt_tokens + other.prompt_tokens,
                     self.completion_tokens + other.completion_tokens)

    def as_json(self) -> dict[str, int]:
        return {"calls": round(self.calls), "prompt_tokens": round(self.prompt_tokens),
                "completion_tokens": round(self.completion_tokens)}


@dataclass
class Estimate:
    """One planned run: what it will cost, by part."""

    system: str
    backbone: str
    model: str | None
    instances: int
    turns_ingested: int
    questions: int
    profile: CostProfile | None
    ingest: Usage = field(default_factory=Usage)
    #: ingestion as the two versions' stores count it (a forked prefix in both): what
    #: ``runfolder.costs`` compares with the systems' own counters
    ingest_as_stores_count: Usage = field(default_factory=Usage)
    retrieval: Usage = field(default_factory=Usage)
    answering: Usage = field(default_factory=Usage)
    dollars: float | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> Usage:
        return self.ingest + self.retrieval + self.answering

    def as_json(self) -> dict[str, Any]:
        return {
            "system": self.system, "backbone": self.backbone, "model": self.model,
            "instances": self.instances, "turns_ingested": self.turns_ingested, "questions": self.questions,
            "ingest": self.ingest.as_json(), "ingest_as_stores_count": self.ingest_as_stores_count.as_json(),
            "retrieval": self.retrieval.as_json(),
            "answering": self.answering.as_json(), "total": self.total.as_json(),
            "dollars": None if self.dollars is None else round(self.dollars, 2),
            "profile": self.profile.measured if self.profile else None,
            "notes": self.notes,
        }


@dataclass
class _Plan:
    """What a selection of a dataset holds, counted once per dataset and reused per system."""

    instances: int
    questions: int
    turns_both: int  # both versions, each from scratch
    turns_with_fork: int  # the shared prefix once
    history_tokens_per_question: float  # full-context's prompt, before the window


def _plan(data: Path, *, lite: bool, instances: Sequence[str] | None, limit: int | None,
          need_history: bool) -> _Plan:
    from bemula.fidelity import count_tokens
    from bemula.model import Version
    from bemula.run.ingest import count_turns, shared_prefix_length, version_steps
    from bemula.run.runner import load_instance

    dataset = Dataset.open(data)
    ids = dataset.select(lite=lite, instances=list(instances) if instances else None, limit=limit)
    questions = turns_both = turns_fork = 0
    history_question_tokens = 0.0
    for instance_id in ids:
        instance = load_instance(dataset, instance_id)
        steps = {v: version_steps(instance.dialogue(v)) for v in (Version.FORGET, Version.CONTROL)}
        both = count_turns(steps[Version.FORGET]) + count_turns(steps[Version.CONTROL])
        prefix = shared_prefix_length(steps[Version.FORGET], steps[Version.CONTROL])
        turns_both += both
        turns_fork += both - count_turns(steps[Version.FORGET][:prefix])
        questions += len(instance.questions)
        if need_history:
            for version in (Version.FORGET, Version.CONTROL):
                texts = [f"{t.role.value}: {t.text}" for _, t in instance.dialogue(version).iter_turns()]
                tokens = sum(count_tokens(texts)[0])
                history_question_tokens += tokens * sum(1 for q in instance.questions if q.version == version)
    return _Plan(len(ids), questions, turns_both, turns_fork,
                 history_question_tokens / questions if questions else 0.0)


def estimate_run(
    system: str, *, data: Path, backbone: str = "probe", model: str | None = None, lite: bool = False,
    instances: Sequence[str] | None = None, limit: int | None = None, context_window: int | None = None,
    prices: dict[str, Price] | None = None, plan: _Plan | None = None,
) -> Estimate:
    """The estimate for one (system, backbone) over ``data``'s selection."""
    from bemula.backbones import answers_with_llm
    from bemula.systems.base import registry

    info = registry().get(system)
    if info is None:
        raise EstimateError(f"unknown system {system!r}")
    profile = cost_profiles().get(system)
    if plan is None:
        plan = _plan(data, lite=lite, instances=instances, limit=limit,
                     need_history=profile is not None and profile.answer_context == "history")
    # an adapter whose package is not installed here has no factory: its profile knows
    supports_fork = bool(info.factory.supports_fork) if info.factory is not None else bool(
        profile is not None and profile.supports_fork)
    turns = plan.turns_with_fork if supports_fork else plan.turns_both
    estimate = Estimate(system, backbone, model, plan.instances, turns, plan.questions, profile)
    if profile is None:
        estimate.notes.append(f"{system}: no cost profile (measure one: python benchmarks/bench_adapters.py "
                              f"--systems {system} --write-profiles); its own LLM calls are not counted")
    else:
        estimate.ingest = Usage(turns * profile.llm_calls_per_turn, turns * profile.prompt_tokens_per_turn,
                                turns * profile.completion_tokens_per_turn)
        both = plan.turns_both
        estimate.ingest_as_stores_count = Usage(both * profile.llm_calls_per_turn, both * profile.prompt_tokens_per_turn,
                                                both * profile.completion_tokens_per_turn)
        estimate.retrieval = Usage(plan.questions * profile.llm_calls_per_question,
                                   plan.questions * profile.prompt_tokens_per_question,
                                   plan.questions * profile.completion_tokens_per_question)
        if profile.grows_with_store:
            estimate.notes.append(f"{system}: prompts grow with the store; ingestion is a lower bound")
    if answers_with_llm(backbone):
        if profile is not None and profile.answer_context == "history":
            window = (context_window - RESERVED_TOKENS) if context_window else None
            history = plan.history_tokens_per_question
            prompt = profile.answer_prompt_tokens + (min(history, window) if window else history)
        else:
            prompt = profile.answer_prompt_tokens if profile is not None else 0.0
        estimate.answering = Usage(plan.questions, plan.questions * prompt, plan.questions * ANSWER_MAX_TOKENS)
    else:
        estimate.notes.append(f"{backbone} backbone: answers cost no LLM call")
    if prices is not None:
        price = prices.get(model or "") or prices.get(backbone)
        if price is None:
            estimate.notes.append(f"no price for model {model or backbone!r} in the price table")
        else:
            total = estimate.total
            estimate.dollars = (total.prompt_tokens * price.input + total.completion_tokens * price.output) / 1e6
    return estimate


def estimate_grid(systems: Sequence[str], backbones: Sequence[tuple[str, str | None, int | None]],
                  data: Path, *, lite: bool = False, instances: Sequence[str] | None = None,
                  limit: int | None = None, prices: dict[str, Price] | None = None) -> list[Estimate]:
    """Estimates for systems × backbones (``(name, model, context window)``) over one dataset;
    the dataset is read once."""
    need_history = any((p := cost_profiles().get(s)) is not None and p.answer_context == "history" for s in systems)
    plan = _plan(data, lite=lite, instances=instances, limit=limit, need_history=need_history)
    return [
        estimate_run(system, data=data, backbone=backbone, model=model, context_window=window, prices=prices,
                     plan=plan)
        for backbone, model, window in backbones
        for system in systems
    ]


def write_run_estimate(out: Path, estimate: Estimate) -> None:
    """``<run>/estimate.json``: what the run was expected to cost (the report compares)."""
    atomic_write_json(out / ESTIMATE_NAME, estimate.as_json())


METHOD = (
    "Method: ingestion = the system's cost profile (calls and cl100k tokens per turn, measured by "
    "benchmarks/bench_adapters.py on tiny-a with the scripted server) × turns to ingest (a shared "
    "prefix once with fork()); retrieval = profile calls per question × questions; answering = one "
    "call per question (LLM backbones), prompt from the profile (or the dialogue up to the context "
    f"window for full-context), completion at most {ANSWER_MAX_TOKENS} tokens (the agent's cap, an upper bound)."
)
