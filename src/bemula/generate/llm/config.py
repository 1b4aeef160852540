"""Shape of what the LLM pipeline generates: per tier, and the tiny preset for CI.

The paper preset follows the paper's shape (SPEC §1 "Scale"): 15 short, 16 medium, 16 long
and 3 xlong instances, turns per instance within each tier's range, ≈60 facts per profile
on average, 135 requests. The offline generator aims at the same figures; where its own
shape parameters are importable, ``paper_config`` takes the tier counts from there so both
pipelines describe one benchmark.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bemula.model import RequestType, Tier

Range = tuple[int, int]


@dataclass(frozen=True)
class TierShape:
    """Ranges (inclusive) drawn per instance by the seeded planner."""

    sessions: Range
    pairs_per_session: Range
    facts: Range
    derived: Range
    requests: Range
    span_days: Range


@dataclass(frozen=True)
class FactCategory:
    """A category the profile stage asks facts about, with prompt hints from the offline catalog."""

    name: str
    ideas: str
    example_attribute: str
    example_value: str


def _categories_from_catalog() -> tuple[FactCategory, ...]:
    """The offline generator's categories, with its attribute nouns as the prompt's ideas, so
    both pipelines cover the same ground."""
    from bemula.generate.catalog import CATEGORIES as CATALOG_CATEGORIES
    from bemula.generate.catalog import attributes_in

    out = []
    for category in CATALOG_CATEGORIES:
        attributes = [a for a in attributes_in(category.key) if not a.derived_only]
        if attributes:
            first = attributes[0]
            out.append(FactCategory(category.key, ", ".join(a.noun for a in attributes[:6]), first.noun,
                                    first.values[0].text))
    return tuple(out)


CATEGORIES: tuple[FactCategory, ...] = _categories_from_catalog()

REQUEST_STYLES: tuple[str, ...] = (
    "polite and warm",
    "short and direct",
    "casual, in passing",
    "firm and serious",
    "slightly embarrassed",
    "formal",
)

#: Roughly the paper's mix: 135 requests, 13 of them F4, the rest spread evenly.
REQUEST_TYPE_CYCLE: tuple[RequestType, ...] = (
    RequestType.F1,
    RequestType.F2,
    RequestType.F6,
    RequestType.F3,
    RequestType.F5,
    RequestType.F1,
    RequestType.F2,
    RequestType.F6,
    RequestType.F5,
    RequestType.F4,
)


@dataclass(frozen=True)
class LLMPipelineConfig:
    """Everything that shapes the output (part of the cache fingerprint)."""

    name: str
    tier_counts: dict[Tier, int]
    shapes: dict[Tier, TierShape]
    request_types: tuple[RequestType, ...] = REQUEST_TYPE_CYCLE
    facts_per_call: int = 4
    attempts: int = 3
    derived_attempts: int = 3
    turn_retries: int = 2
    history_turns: int = 10
    turn_max_tokens: int = 90
    dialogue_temperature: float = 0.8
    workers: int = 2
    #: per request; with ≈1.6 attacked targets × 5 frames this lands near the paper's
    #: 1,742 questions (1,030 attack, 114 relearning) for 135 requests
    preservation_per_request: int = 2
    retention_per_request: int = 1
    attacked_per_request: int = 2
    extra: dict[str, str] = field(default_factory=dict)

    def instances(self, tiers: list[Tier] | None = None, limit: int | None = None) -> list[tuple[str, Tier]]:
        """(instance id, tier) in benchmark order, optionally filtered by tier and truncated."""
        out: list[tuple[str, Tier]] = []
        for tier in Tier:
            if tiers and tier not in tiers:
                continue
            for i in range(1, self.tier_counts.get(tier, 0) + 1):
                out.append((f"bemula-llm-{tier.value}-{i:02d}", tier))
        return out[:limit] if limit is not None else out

    def fingerprint_fields(self) -> dict[str, object]:
        return {
            "name": self.name,
            "tier_counts": {t.value: n for t, n in self.tier_counts.items()},
            "shapes": {t.value: vars(s) for t, s in self.shapes.items()},
            "request_types": [t.value for t in self.request_types],
            "facts_per_call": self.facts_per_call,
            "attempts": self.attempts,
            "derived_attempts": self.derived_attempts,
            "turn_retries": self.turn_retries,
            "history_turns": self.history_turns,
            "turn_max_tokens": self.turn_max_tokens,
            "dialogue_temperature": self.dialogue_temperature,
            "preservation_per_request": self.preservation_per_request,
            "retention_per_request": self.retention_per_request,
            "attacked_per_request": self.attacked_per_request,
        }


PAPER_SHAPES: dict[Tier, TierShape] = {
    Tier.SHORT: TierShape(sessions=(5, 6), pairs_per_session=(10, 13), facts=(22, 30), derived=(1, 1), requests=(1, 2), span_days=(10, 30)),
    Tier.MEDIUM: TierShape(sessions=(9, 14), pairs_per_session=(12, 20), facts=(40, 60), derived=(1, 2), requests=(2, 3), span_days=(25, 60)),
    Tier.LONG: TierShape(sessions=(18, 23), pairs_per_session=(26, 38), facts=(70, 90), derived=(2, 2), requests=(3, 4), span_days=(45, 100)),
    Tier.XLONG: TierShape(sessions=(40, 48), pairs_per_session=(34, 36), facts=(100, 114), derived=(3, 3), requests=(4, 6), span_days=(95, 114)),
}

PAPER_TIER_COUNTS: dict[Tier, int] = {Tier.SHORT: 15, Tier.MEDIUM: 16, Tier.LONG: 16, Tier.XLONG: 3}


def paper_config() -> LLMPipelineConfig:
    return LLMPipelineConfig(name="paper", tier_counts=dict(PAPER_TIER_COUNTS), shapes=dict(PAPER_SHAPES))


def tiny_config() -> LLMPipelineConfig:
    """One short instance with 3 sessions of 8 turns, 6 facts, 1 request: ≈10 minutes on 2 cores
    with the embedded 0.5B model (measured in benchmarks/bench_llm_pipeline.py)."""
    shape = TierShape(sessions=(3, 3), pairs_per_session=(4, 4), facts=(6, 6), derived=(1, 1), requests=(1, 1), span_days=(10, 10))
    return LLMPipelineConfig(
        name="tiny",
        tier_counts={Tier.SHORT: 1},
        shapes={Tier.SHORT: shape},
        request_types=(RequestType.F1,),
        facts_per_call=3,
        # fewer second chances than the paper preset, so a CPU run stays within minutes
        attempts=2,
        derived_attempts=2,
        turn_retries=1,
        preservation_per_request=1,
        retention_per_request=1,
    )


PRESETS = {"paper": paper_config, "tiny": tiny_config}


def preset(name: str) -> LLMPipelineConfig:
    try:
        return PRESETS[name]()
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; use one of {', '.join(PRESETS)}") from None


__all__ = [
    "CATEGORIES",
    "LLMPipelineConfig",
    "PAPER_SHAPES",
    "PAPER_TIER_COUNTS",
    "REQUEST_STYLES",
    "REQUEST_TYPE_CYCLE",
    "TierShape",
    "paper_config",
    "preset",
    "replace",
    "tiny_config",
]
