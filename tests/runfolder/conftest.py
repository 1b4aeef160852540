"""The hand-written two-instance dataset, for run folders written by the real runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.testing.tiny import write_tiny_dataset


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tiny") / "data"
    write_tiny_dataset(root)
    return root
