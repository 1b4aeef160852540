"""Helpers for the hardening suite: a fresh tiny dataset per test, edited into hostile shapes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.testing.corrupt import edit_json as edit_json  # noqa: PLC0414 - re-exported for the tests
from bemula.testing.corrupt import reseal as reseal  # noqa: PLC0414
from bemula.testing.tiny import write_tiny_dataset


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_tiny_dataset(root)
    return root
