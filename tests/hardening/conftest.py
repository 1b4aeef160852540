"""Helpers for the hardening suite: a fresh tiny dataset per test, edited into hostile shapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bemula.dataset import canonical_json
from bemula.testing.corrupt import reseal as reseal  # noqa: PLC0414 - re-exported for the tests
from bemula.testing.tiny import write_tiny_dataset


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_tiny_dataset(root)
    return root


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_bytes())
    change(data)
    path.write_bytes(canonical_json(data))
