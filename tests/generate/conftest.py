"""One full offline benchmark per test session (about 12 s of CPU), shared by the shape and
invariant tests, so the expensive generation runs once."""

from __future__ import annotations

import pytest

from bemula.generate.offline import generate_instances
from bemula.model import Instance


@pytest.fixture(scope="session")
def benchmark_seed0() -> list[Instance]:
    return generate_instances(0)
