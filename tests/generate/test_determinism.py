"""Same seed => byte-identical files; a different seed => different content."""

from __future__ import annotations

from pathlib import Path

from bemula.dataset import instance_bytes, read_manifest
from bemula.generate.offline import allocate, build_instance, generate_benchmark
from bemula.model import Tier


def _few(seed: int) -> list[bytes]:
    shapes = allocate(seed)
    picked = [next(s for s in shapes if s.tier == t) for t in (Tier.SHORT, Tier.MEDIUM)]
    return [instance_bytes(build_instance(seed, s)) for s in picked]


def test_same_seed_same_bytes() -> None:
    assert _few(7) == _few(7)


def test_other_seed_other_content() -> None:
    assert _few(7) != _few(8)


def test_allocation_is_deterministic() -> None:
    assert allocate(3) == allocate(3)


def test_generate_benchmark_lite_twice_identical(tmp_path: Path) -> None:
    """The public entry point, end to end on Lite (31 instances, a few seconds)."""
    a = generate_benchmark(5, tmp_path / "a", lite=True)
    b = generate_benchmark(5, tmp_path / "b", lite=True)
    assert a.checksum == b.checksum
    assert len(a.instances) == 31
    assert a.generator["seed"] == "5" and a.generator["name"] == "bemula-offline"
    assert a.counts["questions"] == sum(e.questions for e in a.instances)
    for entry in a.instances:
        assert (tmp_path / "a" / entry.file).read_bytes() == (tmp_path / "b" / entry.file).read_bytes()
    assert read_manifest(tmp_path / "a").lite_ids == [e.id for e in a.instances]
