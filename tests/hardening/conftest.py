"""Helpers for the hardening suite: a fresh tiny dataset per test, edited into hostile shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bemula.dataset import MANIFEST_NAME, canonical_json, sha256_bytes
from bemula.testing.tiny import write_tiny_dataset


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_tiny_dataset(root)
    return root


def reseal(root: Path) -> None:
    """Recompute every sha256 and the dataset checksum after an edit, so the only thing
    wrong with the folder is the edit itself (a careful attacker does this too)."""
    manifest = json.loads((root / MANIFEST_NAME).read_bytes())
    for entry in manifest["instances"]:
        path = root / entry["file"]
        if path.is_file():
            entry["sha256"] = sha256_bytes(path.read_bytes())
    lines = sorted(f"{e['id']} {e['sha256']}" for e in manifest["instances"])
    manifest["checksum"] = sha256_bytes("\n".join(lines).encode("utf-8"))
    (root / MANIFEST_NAME).write_bytes(canonical_json(manifest))


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_bytes())
    change(data)
    path.write_bytes(canonical_json(data))
