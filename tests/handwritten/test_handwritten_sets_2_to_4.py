"""The hand-written sets added on 2026-12-07 (seventh and eighth sessions): ``handwritten-2``,
``handwritten-3`` and ``handwritten-4`` (developed on) and ``handwritten-heldout-2`` and
``handwritten-heldout-3`` (measured only), each eight or more short instances by writers who
read no system code, no phrase bank and no other instance (docs/handwritten.md).
Each ships compiled, valid and in sync with its sources, with as many requests of every
type, and no turn shared with any other hand-written set."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bemula.authoring import compile_dataset, source_files
from bemula.dataset import BUNDLED_DATASETS, Dataset, bundled_dataset, resolve_data
from bemula.validate import validate_dataset

SETS = ["handwritten-2", "handwritten-heldout-2", "handwritten-3", "handwritten-heldout-3", "handwritten-4"]


def _root(name: str) -> Path:
    root = bundled_dataset(name)
    assert root is not None, f"src/bemula/datasets/{name} is missing its manifest"
    return root


@pytest.mark.parametrize("name", SETS)
def test_name_resolves_to_the_packaged_folder(name: str) -> None:
    assert resolve_data(name) == _root(name)
    assert Dataset.open(_root(name)).manifest.name == f"bemula-{name}"


@pytest.mark.parametrize("name", SETS)
def test_validates_with_zero_errors(name: str) -> None:
    report = validate_dataset(_root(name))
    assert report.errors == [], "\n".join(map(str, report.errors[:20]))


@pytest.mark.parametrize("name", SETS)
def test_compiled_folder_is_in_sync_with_its_sources(name: str, tmp_path: Path) -> None:
    root = _root(name)
    compile_dataset(source_files([root / "source"]), tmp_path / "hw", name=f"bemula-{name}")
    assert Dataset.open(tmp_path / "hw").checksum == Dataset.open(root).checksum, (
        f"sources changed without recompiling: bemula compile src/bemula/datasets/{name}/source "
        f"--out src/bemula/datasets/{name} --name bemula-{name}")


@pytest.mark.parametrize("name", SETS)
def test_every_request_type_as_often_and_no_turn_shared_with_another_set(name: str) -> None:
    instances = list(Dataset.open(_root(name)))
    types = Counter(r.type.value for inst in instances for r in inst.requests)
    assert set(types) == {"F1", "F2", "F3", "F4", "F5", "F6"} and len(set(types.values())) == 1, types
    turns = {t.text for inst in instances for _, t in inst.forget.iter_turns()}
    for other in (o for o in BUNDLED_DATASETS if o.startswith("handwritten") and o != name):
        shared = turns & {t.text for inst in Dataset.open(_root(other)) for _, t in inst.forget.iter_turns()}
        assert not shared, (other, sorted(shared)[:3])
