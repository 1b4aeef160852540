"""Orchestration of the LLM generation pipeline, and its dry-run cost estimate.

``generate_llm_benchmark`` runs the five stages for each instance (profile → planning →
simulation → injection → questions), assembles the instance, and writes the same dataset
folder the offline generator writes (:func:`bemula.dataset.write_dataset`), so the same
validator and harness apply. Each instance has its own cache file under
``<out>/.llm-cache/`` keyed by a fingerprint of everything that shapes it (model, prompt
hashes, frames, configuration, seed), so a crashed run resumes where it stopped and a run
with another model or prompt starts fresh. The manifest's ``generator`` records the model
and the prompt hash of every stage.

``estimate`` draws the same seeded shapes the stages draw and counts the calls and tokens
each stage will make when every LLM answer is accepted at the first attempt — a lower bound
that the benchmark script compares with measured runs.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bemula import __version__
from bemula.dataset import INSTANCES_DIR, MANIFEST_NAME, write_dataset
from bemula.generate import frames
from bemula.generate.llm.assemble import assemble_instance
from bemula.generate.llm.cache import InstanceCache
from bemula.generate.llm.calls import ChatClient, LLMCaller, Meters
from bemula.generate.llm.config import LLMPipelineConfig, paper_config
from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.injection import inject
from bemula.generate.llm.planning import draw_plan_shape, plan_instance
from bemula.generate.llm.profile import draw_profile_shape, synthesize_profile
from bemula.generate.llm.prompts import STAGES, stage_prompt_hashes
from bemula.generate.llm.questions import generate_questions
from bemula.generate.llm.simulation import simulate
from bemula.model import Instance, RequestType, Tier

CACHE_DIRNAME = ".llm-cache"


def frames_hash() -> str:
    """The attack frames' fixed wording is part of what the questions stage produces."""
    text = json.dumps({f.value: t for f, t in frames.FRAME_TEMPLATES.items()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def prompt_hashes() -> dict[str, str]:
    hashes = stage_prompt_hashes()
    hashes["questions"] = hashlib.sha256((hashes["questions"] + frames_hash()).encode()).hexdigest()[:16]
    return hashes


#: bump a stage's number when its code changes what it produces (the prompts are hashed anyway)
STAGE_VERSIONS: dict[str, int] = {"profile": 2, "planning": 1, "simulation": 4, "injection": 1, "questions": 1}

#: which cache keys each stage writes (``call:`` answers are keyed by the exact request)
KEY_PREFIXES: dict[str, tuple[str, ...]] = {
    "profile": ("profile:", "stage:profile"),
    "planning": ("plan:", "stage:planning"),
    "simulation": ("sim:", "stage:simulation"),
    "injection": ("inject:", "stage:injection"),
    "questions": ("q:", "stage:questions"),
}


def stage_salts() -> dict[str, str]:
    """Per key prefix: a hash of its stage's prompts and code version and of every earlier
    stage's, so changing one stage re-runs it and what follows, not what came before."""
    hashes = prompt_hashes()
    salts: dict[str, str] = {}
    chain = hashlib.sha256()
    for stage in STAGES:
        chain.update(f"{stage}:{hashes[stage]}:{STAGE_VERSIONS[stage]}".encode())
        for prefix in KEY_PREFIXES[stage]:
            salts[prefix] = chain.hexdigest()[:12]
    return salts


def instance_fingerprint(config: LLMPipelineConfig, seed: int, model: str, instance_id: str, index: int) -> str:
    """What invalidates a whole instance: model, configuration, seed, position (prompts and
    stage code are handled per stage by :func:`stage_salts`)."""
    material = json.dumps(
        {"config": config.fingerprint_fields(), "seed": seed, "model": model, "instance": instance_id,
         "index": index, "format": 2},
        sort_keys=True, default=str,
    )
    return hashlib.sha256(material.encode()).hexdigest()


@dataclass
class GenerationReport:
    out: Path
    instances: list[str]
    meters: dict[str, dict[str, Any]]
    wall_s: float
    cache_hits: int = 0
    manifest_checksum: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "instances": self.instances,
            "stages": self.meters,
            "wall_s": round(self.wall_s, 3),
            "cache_hits": self.cache_hits,
            "checksum": self.manifest_checksum,
            **self.extra,
        }


def _counts(instances: list[Instance]) -> dict[str, Any]:
    """The manifest's counts (same keys and meaning as ``bemula stats``)."""
    tiers: Counter[str] = Counter()
    by_type: Counter[str] = Counter()
    by_suite: Counter[str] = Counter()
    by_frame: Counter[str] = Counter()
    out: dict[str, Any] = {k: 0 for k in (
        "instances", "sessions", "turns_per_version", "atomic_facts", "derived_facts", "sensitive_facts",
        "requests", "targeted_facts", "questions", "probes")}
    for inst in instances:
        out["instances"] += 1
        tiers[inst.tier.value] += 1
        out["sessions"] += len(inst.forget.sessions)
        out["turns_per_version"] += inst.forget.n_turns
        out["atomic_facts"] += len(inst.profile.facts)
        out["derived_facts"] += len(inst.profile.derived_facts)
        out["sensitive_facts"] += sum(1 for f in inst.profile.facts if f.sensitivity.value != "low")
        out["requests"] += len(inst.requests)
        by_type.update(r.type.value for r in inst.requests)
        out["targeted_facts"] += sum(len(r.target_fact_ids) for r in inst.requests)
        for q in inst.questions:
            if q.is_probe:
                out["probes"] += 1
                continue
            out["questions"] += 1
            by_suite[q.suite.value] += 1
            if q.frame is not None:
                by_frame[q.frame.value] += 1
    out["tiers"] = dict(sorted(tiers.items()))
    out["requests_by_type"] = dict(sorted(by_type.items()))
    out["questions_by_suite"] = dict(sorted(by_suite.items()))
    out["questions_by_frame"] = dict(sorted(by_frame.items()))
    return out


def _remove_stale_instances(out: Path, keep: set[str]) -> None:
    """Instance files of an earlier, larger run in the same folder would be unlisted files."""
    folder = out / INSTANCES_DIR
    if (out / MANIFEST_NAME).is_file() and folder.is_dir():
        for path in folder.glob("*.json"):
            if path.stem not in keep:
                path.unlink()


def generate_instance(ctx: InstanceContext) -> Instance:
    """The five stages for one instance, each timed into its meter, then assembly."""

    def timed(stage: str, fn: Callable[[], Any]) -> Any:
        started = time.perf_counter()
        try:
            return fn()
        finally:
            ctx.meters.add_wall(stage, time.perf_counter() - started)

    profile = timed("profile", lambda: synthesize_profile(ctx))
    plan = timed("planning", lambda: plan_instance(ctx, profile))
    sim = timed("simulation", lambda: simulate(ctx, plan))
    injection = timed("injection", lambda: inject(ctx, plan, sim))
    questions = timed("questions", lambda: generate_questions(ctx, plan))
    return assemble_instance(ctx, plan, sim, injection, questions)


def generate_llm_benchmark(
    client: ChatClient,
    out: Path | str,
    *,
    seed: int = 0,
    config: LLMPipelineConfig | None = None,
    tiers: list[Tier] | None = None,
    limit: int | None = None,
    model: str = "",
    backbone: str = "",
    cache_dir: Path | str | None = None,
    on_instance: Callable[[str, int, int], None] | None = None,
) -> GenerationReport:
    """Generate, assemble and write a dataset folder with the LLM pipeline."""
    config = config or paper_config()
    out = Path(out)
    cache_root = Path(cache_dir) if cache_dir is not None else out / CACHE_DIRNAME
    meters = Meters(STAGES)
    caller = LLMCaller(client, meters, attempts=config.attempts)
    chosen = config.instances(tiers, limit)
    if not chosen:
        raise ValueError("no instance selected: check --tiers / --instances")
    model_label = model or getattr(getattr(client, "config", None), "model", "") or "unknown"
    started = time.perf_counter()
    instances: list[Instance] = []
    hits = 0
    for n, (instance_id, tier) in enumerate(chosen):
        index = config.instances().index((instance_id, tier))
        cache = InstanceCache(cache_root, instance_id,
                              instance_fingerprint(config, seed, model_label, instance_id, index), stage_salts())
        ctx = InstanceContext(instance_id=instance_id, tier=tier, index=index, seed=seed, config=config,
                              caller=caller.for_instance(cache), cache=cache, meters=meters)
        if on_instance is not None:
            on_instance(instance_id, n, len(chosen))
        instances.append(generate_instance(ctx))
        hits += cache.hits
    _remove_stale_instances(out, {i.id for i in instances})
    hashes = prompt_hashes()
    generator = {
        "name": "bemula-llm",
        "version": __version__,
        "pipeline": "llm",
        "preset": config.name,
        "seed": str(seed),
        "backbone": backbone or "custom",
        "model": model_label,
        "frames_hash": frames_hash(),
    }
    for stage in STAGES:
        generator[f"stage.{stage}.model"] = model_label
        generator[f"stage.{stage}.prompt_hash"] = hashes[stage]
    manifest = write_dataset(out, instances, generator=generator, counts=_counts(instances),
                             name=f"bemula-llm-{config.name}")
    report = GenerationReport(out=out, instances=[i.id for i in instances], meters=meters.as_dict(),
                              wall_s=time.perf_counter() - started, cache_hits=hits,
                              manifest_checksum=manifest.checksum)
    cache_root.mkdir(parents=True, exist_ok=True)
    (cache_root / "report.json").write_text(json.dumps(report.as_dict(), indent=1) + "\n", encoding="utf-8")
    return report


# --------------------------------------------------------------------------- dry run

#: (prompt tokens, completion tokens) per call kind, first attempt; prompt sizes measured on
#: the rendered prompts (≈4 characters per token), completions from the max_tokens budgets'
#: typical use. ``turn_history`` is added per turn of visible history.
CALL_COSTS: dict[str, tuple[int, int]] = {
    "user_sketch": (90, 35),
    "fact_batch": (230, 60),  # + 60 completion tokens per fact
    "derived_propose": (150, 90),  # + 20 prompt tokens per listed fact
    "derived_verify": (110, 30),
    "session_topics": (90, 10),  # + 10 completion tokens per session
    "new_value": (80, 12),
    "user_turn": (200, 40),
    "assistant_turn": (45, 45),
    "turn_history": (35, 0),
    "fact_stated": (110, 8),
    "request_text": (140, 40),
    "request_verify": (100, 10),
    "confirmation": (90, 25),
    "neutral_exchange": (110, 60),
    "fact_question": (90, 20),
    "indirect_question": (110, 25),
}


@dataclass
class StageEstimate:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, kind: str, n: int = 1, *, extra_prompt: int = 0, extra_completion: int = 0) -> None:
        p, c = CALL_COSTS[kind]
        self.calls += n
        self.prompt_tokens += n * p + extra_prompt
        self.completion_tokens += n * c + extra_completion


def estimate(
    config: LLMPipelineConfig, *, seed: int = 0, tiers: list[Tier] | None = None, limit: int | None = None
) -> dict[str, Any]:
    """Planned calls and tokens per stage (no LLM call is made)."""
    stages = {s: StageEstimate() for s in STAGES}
    chosen = config.instances(tiers, limit)
    turns = 0
    for instance_id, tier in chosen:
        index = config.instances().index((instance_id, tier))
        shape = config.shapes[tier]
        probe = InstanceContext(instance_id=instance_id, tier=tier, index=index, seed=seed, config=config,
                                caller=None, cache=InstanceCache(None, instance_id, ""), meters=Meters(STAGES))  # type: ignore[arg-type]
        n_facts, n_derived = draw_profile_shape(probe.rng("profile"), shape)
        drawn = draw_plan_shape(probe.rng("plan"), shape, config.request_types, index)
        p = stages["profile"]
        p.add("user_sketch")
        batches = math.ceil(n_facts / config.facts_per_call)
        p.add("fact_batch", batches, extra_completion=60 * n_facts)
        p.add("derived_propose", n_derived, extra_prompt=n_derived * 20 * min(n_facts, 14))
        p.add("derived_verify", n_derived)
        pl = stages["planning"]
        pl.add("session_topics", extra_completion=10 * drawn.n_sessions)
        pl.add("new_value", sum(1 for t in drawn.types if t == RequestType.F6))
        sim = stages["simulation"]
        for pairs in drawn.pairs:
            for k in range(2 * pairs):
                visible = min(k, config.history_turns)
                kind = "user_turn" if k % 2 == 0 else "assistant_turn"
                sim.add(kind, extra_prompt=visible * CALL_COSTS["turn_history"][0])
        sim.add("fact_stated", n_facts)
        turns += 2 * sum(drawn.pairs) + 2 * len(drawn.types)
        inj = stages["injection"]
        for kind in ("request_text", "request_verify", "confirmation", "neutral_exchange"):
            inj.add(kind, len(drawn.types))
        q = stages["questions"]
        n_requests = len(drawn.types)
        targets = sum({RequestType.F2: 2, RequestType.F3: 3, RequestType.F5: 2}.get(t, 1) for t in drawn.types)
        relearning = sum(1 for t in drawn.types if t != RequestType.F6)
        asked = targets + relearning + n_requests * (config.preservation_per_request + config.retention_per_request)
        q.add("fact_question", asked)
        q.add("indirect_question", min(targets, n_requests * config.attacked_per_request))
    total = StageEstimate()
    for s in stages.values():
        total.calls += s.calls
        total.prompt_tokens += s.prompt_tokens
        total.completion_tokens += s.completion_tokens
    return {
        "instances": len(chosen),
        "turns_per_version": turns,
        "stages": {name: vars(s) for name, s in stages.items()},
        "total": vars(total),
    }
