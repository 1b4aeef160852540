"""The second developed-on hand-written set (``--data handwritten-2``): eight short instances
written on 2026-12-07 by four writers who read no system code, no phrase bank and no other
instance (docs/handwritten.md). It ships compiled, valid and in sync with its sources, with
four requests of every type and no turn shared with the other hand-written sets."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bemula.authoring import compile_dataset, source_files
from bemula.dataset import Dataset, bundled_dataset, resolve_data
from bemula.validate import validate_dataset

ROOT = bundled_dataset("handwritten-2")


def test_name_resolves_to_the_packaged_folder() -> None:
    assert ROOT is not None, "src/bemula/datasets/handwritten-2 is missing its manifest"
    assert resolve_data("handwritten-2") == ROOT
    assert Dataset.open(ROOT).manifest.name == "bemula-handwritten-2"


def test_validates_with_zero_errors() -> None:
    assert ROOT is not None
    report = validate_dataset(ROOT)
    assert report.errors == [], "\n".join(map(str, report.errors[:20]))


def test_compiled_folder_is_in_sync_with_its_sources(tmp_path: Path) -> None:
    assert ROOT is not None
    compile_dataset(source_files([ROOT / "source"]), tmp_path / "hw", name="bemula-handwritten-2")
    assert Dataset.open(tmp_path / "hw").checksum == Dataset.open(ROOT).checksum, (
        "sources changed without recompiling: bemula compile src/bemula/datasets/handwritten-2/source "
        "--out src/bemula/datasets/handwritten-2 --name bemula-handwritten-2")


def test_four_requests_of_each_type_none_shared_with_the_other_sets() -> None:
    assert ROOT is not None
    instances = list(Dataset.open(ROOT))
    assert Counter(r.type.value for inst in instances for r in inst.requests) == Counter(
        {t: 4 for t in ("F1", "F2", "F3", "F4", "F5", "F6")})
    turns = {t.text for inst in instances for _, t in inst.forget.iter_turns()}
    for other in ("handwritten", "handwritten-heldout"):
        folder = bundled_dataset(other)
        assert folder is not None
        assert not turns & {t.text for inst in Dataset.open(folder) for _, t in inst.forget.iter_turns()}
