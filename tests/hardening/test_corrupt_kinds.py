"""Every corrupt or hostile dataset kind of ``bemula.testing.corrupt.KINDS``: ``validate``
reports it (file + location), ``run`` refuses it in one line, nothing hangs, raises a
traceback or writes outside the run folder."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from bemula.dataset import DatasetError
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.testing.corrupt import KINDS
from bemula.validate import validate_dataset

HANG_S = 30


def _snapshot(tmp_path: Path) -> set[str]:
    """Everything under the test's folder except the run folder, and the names beside it
    (where a ``../`` id would land)."""
    inside = {str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if not p.is_relative_to(tmp_path / "run")}
    return inside | {f"../{p.name}" for p in tmp_path.parent.iterdir()}


@pytest.fixture()
def alarm():
    def on_alarm(signum, frame):  # noqa: ARG001
        raise TimeoutError(f"hung for {HANG_S} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HANG_S)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_at_least_fifty_kinds() -> None:
    assert len(KINDS) >= 50


@pytest.mark.parametrize("name", sorted(KINDS))
def test_kind_is_refused_in_one_line(name: str, tiny: Path, tmp_path: Path, alarm: None) -> None:
    KINDS[name](tiny)
    report = validate_dataset(tiny)
    assert report.violations, f"{name}: validate found nothing"
    first = report.violations[0]
    assert first.file and first.location and "\n" not in first.message

    before = _snapshot(tmp_path)
    out = tmp_path / "run"
    with pytest.raises((RunError, DatasetError)) as info:
        run_benchmark(RunConfig(data=tiny, out=out, system="naive-rag"), progress=False)
    message = str(info.value)
    # one summary line naming the dataset, then the validator's own ``file: location: [code]``
    # lines (a file that cannot even be opened is a one-line DatasetError naming it)
    head, *quoted = message.splitlines()
    assert "manifest.json" in head or ".json" in head or str(tiny) in head
    assert all(re.match(r"^  \S.*: \[[a-z0-9-]+\] ", line) or line.startswith("  ... and") for line in quoted), message
    assert not (out / "answers.jsonl").exists()
    after = _snapshot(tmp_path)
    assert after == before, f"{name}: files changed outside the run folder: {sorted(after ^ before)[:5]}"
