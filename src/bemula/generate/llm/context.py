"""What every stage of one instance shares: config, LLM caller, cache, meters, seeded RNGs."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from bemula.generate.llm.cache import InstanceCache
from bemula.generate.llm.calls import LLMCaller, Meters
from bemula.generate.llm.config import LLMPipelineConfig, TierShape
from bemula.model import Tier


@dataclass
class InstanceContext:
    instance_id: str
    tier: Tier
    index: int
    seed: int
    config: LLMPipelineConfig
    caller: LLMCaller
    cache: InstanceCache
    meters: Meters

    @property
    def shape(self) -> TierShape:
        return self.config.shapes[self.tier]

    def rng(self, *keys: object) -> random.Random:
        """An RNG derived from (seed, instance, keys): independent of call order, so a resumed
        run makes the same random choices as an uninterrupted one."""
        material = "|".join([str(self.seed), self.instance_id, *map(str, keys)])
        return random.Random(int.from_bytes(hashlib.sha256(material.encode()).digest()[:8], "big"))
