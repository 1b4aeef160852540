"""The offline generator's two editions behind one call.

Edition 2 (default) renders the plan from hand-written phrase banks through personas
(:mod:`bemula.generate.natural`); edition 1 is the original template generator
(:mod:`bemula.generate.offline`), kept for comparison (docs/generator.md).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bemula.model import Manifest

EDITIONS = (1, 2)
DEFAULT_EDITION = 2


def default_data_dir(edition: int) -> Path:
    """Where `bemula eval` keeps each edition's default benchmark (so they never mix)."""
    return Path("data/bemula") if edition == DEFAULT_EDITION else Path(f"data/bemula-e{edition}")


def manifest_edition(generator: dict[str, str] | None) -> int | None:
    """The offline edition a manifest's generator record names (edition 1 wrote none)."""
    if not generator or generator.get("name") != "bemula-offline":
        return None
    return int(generator.get("edition", "1"))


def generate(seed: int, out: Path, *, edition: int = DEFAULT_EDITION, split: str = "test", lite: bool = False,
             progress: Callable[[str], None] | None = None) -> Manifest:
    if edition == 1:
        if split != "test":
            raise ValueError("edition 1 has one phrase set; --split is for edition 2")
        from bemula.generate.offline import generate_benchmark

        return generate_benchmark(seed, out, lite=lite, progress=progress)
    if edition == 2:
        from bemula.generate.natural.build import generate_natural_benchmark

        return generate_natural_benchmark(seed, out, split=split, lite=lite, progress=progress)
    raise ValueError(f"unknown edition {edition}; use one of {', '.join(map(str, EDITIONS))}")
