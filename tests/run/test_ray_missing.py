"""Without Ray installed, ``--executor ray`` says how to get it, before anything is written."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bemula.run.runner import RunConfig, RunError, run_benchmark


def test_executor_ray_without_ray_says_how_to_install_it(tiny_data: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(RunError, match=r"pip install 'bemula\[ray\]'"):
        run_benchmark(RunConfig(data=tiny_data, out=tmp_path / "run", system="naive-rag", executor="ray"))
    assert not (tmp_path / "run").exists()
