"""Same seed => byte-identical files; a different seed => different content."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
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


def test_cli_generate_lite_matches_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI and the API write the same bytes (on a 2-instance allocation, for speed)."""
    import bemula.generate.offline as offline

    real = offline.allocate
    monkeypatch.setattr(offline, "allocate", lambda seed: [s for s in real(seed) if s.id.endswith("-01")][:2])
    a = generate_benchmark(11, tmp_path / "a", lite=True)
    _load_commands()
    res = CliRunner().invoke(app, ["generate", "--edition", "1", "--seed", "11", "--out", str(tmp_path / "b"), "--lite"])
    assert res.exit_code == 0, res.output
    assert read_manifest(tmp_path / "b").checksum == a.checksum
    assert [e.id for e in a.instances] == ["bemula-short-01", "bemula-medium-01"]


@pytest.mark.slow
def test_generate_benchmark_lite_twice_identical(tmp_path: Path) -> None:
    """The public entry point, end to end on Lite (31 instances, a few seconds)."""
    a = generate_benchmark(5, tmp_path / "a", lite=True)
    _load_commands()
    res = CliRunner().invoke(app, ["generate", "--edition", "1", "--seed", "5", "--out", str(tmp_path / "b"), "--lite"])
    assert res.exit_code == 0, res.output
    b = read_manifest(tmp_path / "b")
    assert a.checksum == b.checksum
    assert len(a.instances) == 31
    assert a.generator["seed"] == "5" and a.generator["name"] == "bemula-offline"
    assert a.counts["questions"] == sum(e.questions for e in a.instances)
    for entry in a.instances:
        assert (tmp_path / "a" / entry.file).read_bytes() == (tmp_path / "b" / entry.file).read_bytes()
    assert read_manifest(tmp_path / "a").lite_ids == [e.id for e in a.instances]
