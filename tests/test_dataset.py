"""Dataset folder I/O (``bemula.dataset``): round trip, byte-stable files and checksums,
Lite ids, instance selection, and errors that name the file and location."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bemula.dataset import (
    Dataset,
    DatasetError,
    dataset_checksum,
    json_location,
    read_instance_file,
    read_manifest,
    write_dataset,
)
from bemula.model import Tier
from bemula.testing import tiny_instances, write_tiny_dataset


def test_round_trip_gives_back_equal_instances(tmp_path: Path) -> None:
    originals = tiny_instances()
    write_dataset(tmp_path, originals)
    ds = Dataset.open(tmp_path)
    assert ds.ids() == ["tiny-a", "tiny-b"]
    assert list(ds) == originals
    assert ds.load("tiny-b") == originals[1]
    assert ds.path("tiny-a") == tmp_path / "instances" / "tiny-a.json"


def test_manifest_entries_and_counts(tmp_path: Path) -> None:
    manifest = write_tiny_dataset(tmp_path)
    assert read_manifest(tmp_path) == manifest
    a, b = manifest.instances
    assert (a.id, a.tier, a.file, a.turns_per_version, a.questions) == ("tiny-a", Tier.SHORT, "instances/tiny-a.json", 32, 14)
    assert (b.id, b.tier, b.turns_per_version, b.questions) == ("tiny-b", Tier.MEDIUM, 32, 13)
    assert manifest.lite_ids == ["tiny-a", "tiny-b"]


def test_checksums_are_sha256_of_file_bytes_and_sorted_lines(tmp_path: Path) -> None:
    manifest = write_tiny_dataset(tmp_path)
    for entry in manifest.instances:
        assert entry.sha256 == hashlib.sha256((tmp_path / entry.file).read_bytes()).hexdigest()
    lines = sorted(f"{e.id} {e.sha256}" for e in manifest.instances)
    assert manifest.checksum == hashlib.sha256("\n".join(lines).encode()).hexdigest()
    assert dataset_checksum(reversed(manifest.instances)) == manifest.checksum  # order-free


def test_writing_twice_is_byte_identical(tmp_path: Path) -> None:
    first = write_tiny_dataset(tmp_path / "one")
    second = write_tiny_dataset(tmp_path / "two")
    assert first.checksum == second.checksum
    for name in ("manifest.json", "instances/tiny-a.json", "instances/tiny-b.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_files_are_canonical_utf8_with_trailing_newline(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    raw = (tmp_path / "instances" / "tiny-a.json").read_bytes()
    assert raw.endswith(b"}\n") and b"\r" not in raw
    assert "—".encode() in raw  # non-ASCII written as UTF-8, not \\u escapes
    assert list(json.loads(raw)) == ["id", "tier", "profile", "forget", "control", "requests", "questions"]


def test_lite_is_short_and_medium_only(tmp_path: Path) -> None:
    a, b = tiny_instances()
    b.tier = Tier.LONG
    manifest = write_dataset(tmp_path, [a, b])
    assert manifest.lite_ids == ["tiny-a"]
    assert Dataset.open(tmp_path).ids(lite=True) == ["tiny-a"]


def test_select_by_flags(tmp_path: Path) -> None:
    a, b = tiny_instances()
    b.tier = Tier.XLONG
    write_dataset(tmp_path, [a, b])
    ds = Dataset.open(tmp_path)
    assert ds.select() == ["tiny-a", "tiny-b"]
    assert ds.select(lite=True) == ["tiny-a"]
    assert ds.select(instances=["tiny-b"]) == ["tiny-b"]
    assert ds.select(instances=["tiny-b", "tiny-a"]) == ["tiny-a", "tiny-b"]  # manifest order
    assert ds.select(lite=True, instances=["tiny-b"]) == []
    assert ds.select(limit=1) == ["tiny-a"]
    with pytest.raises(KeyError, match="tiny-z"):
        ds.select(instances=["tiny-z"])
    with pytest.raises(KeyError, match="tiny-z"):
        ds.entry("tiny-z")


def test_rewriting_a_folder_removes_stale_instance_files(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    write_dataset(tmp_path, tiny_instances()[:1])
    assert sorted(p.name for p in (tmp_path / "instances").iterdir()) == ["tiny-a.json"]


def test_write_rejects_duplicate_and_unsafe_ids(tmp_path: Path) -> None:
    a, b = tiny_instances()
    b.id = "tiny-a"
    with pytest.raises(ValueError, match="duplicate instance ids: tiny-a"):
        write_dataset(tmp_path, [a, b])
    b.id = "../escape"
    with pytest.raises(ValueError, match="file name"):
        write_dataset(tmp_path, [a, b])


def test_open_missing_folder_and_manifest(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="dataset folder not found"):
        Dataset.open(tmp_path / "nope")
    with pytest.raises(DatasetError, match="manifest.json: file not found"):
        Dataset.open(tmp_path)


def test_malformed_json_error_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{\n "id": "x",\n "tier": short\n}\n')
    with pytest.raises(DatasetError) as err:
        read_instance_file(path)
    assert err.value.file == str(path)
    assert err.value.location == "line 3 column 10"
    assert str(err.value).startswith(f"{path}: line 3 column 10: invalid JSON")


def test_schema_error_names_json_path(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    path = tmp_path / "instances" / "tiny-a.json"
    data = json.loads(path.read_text())
    data["questions"][3]["gold"]["kind"] = "maybe"
    path.write_text(json.dumps(data))
    with pytest.raises(DatasetError) as err:
        Dataset.open(tmp_path).load("tiny-a")
    assert err.value.location == "$.questions[3].gold.kind"
    assert "'value' or 'sentinel'" in err.value.message


def test_json_location_renders_indexes_and_keys() -> None:
    assert json_location(()) == "$"
    assert json_location(("forget", "sessions", 2, "turns", 5, "text")) == "$.forget.sessions[2].turns[5].text"
