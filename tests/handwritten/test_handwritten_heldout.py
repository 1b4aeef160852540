"""The held-out hand-written set (``--data handwritten-heldout``): six instances written on
2026-12-07 by authors who read no system code, kept for measuring only (docs/handwritten.md).
It ships compiled, valid and in sync with its sources, with every request type."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bemula.authoring import compile_dataset, source_files
from bemula.dataset import Dataset, bundled_dataset, resolve_data
from bemula.validate import validate_dataset

ROOT = bundled_dataset("handwritten-heldout")


def test_name_resolves_to_the_packaged_folder() -> None:
    assert ROOT is not None, "src/bemula/datasets/handwritten-heldout is missing its manifest"
    assert resolve_data("handwritten-heldout") == ROOT
    assert Dataset.open(ROOT).manifest.name == "bemula-handwritten-heldout"


def test_validates_with_zero_errors() -> None:
    assert ROOT is not None
    report = validate_dataset(ROOT)
    assert report.errors == [], "\n".join(map(str, report.errors[:20]))


def test_compiled_folder_is_in_sync_with_its_sources(tmp_path: Path) -> None:
    assert ROOT is not None
    compile_dataset(source_files([ROOT / "source"]), tmp_path / "hw", name="bemula-handwritten-heldout")
    assert Dataset.open(tmp_path / "hw").checksum == Dataset.open(ROOT).checksum, (
        "sources changed without recompiling: bemula compile src/bemula/datasets/handwritten-heldout/source "
        "--out src/bemula/datasets/handwritten-heldout --name bemula-handwritten-heldout")


def test_three_requests_of_each_type_none_shared_with_the_developed_set() -> None:
    assert ROOT is not None
    instances = list(Dataset.open(ROOT))
    assert Counter(r.type.value for inst in instances for r in inst.requests) == Counter(
        {t: 3 for t in ("F1", "F2", "F3", "F4", "F5", "F6")})
    developed = bundled_dataset("handwritten")
    assert developed is not None
    developed_turns = {t.text for inst in Dataset.open(developed) for _, t in inst.forget.iter_turns()}
    assert not developed_turns & {t.text for inst in instances for _, t in inst.forget.iter_turns()}
