"""One Ctrl-C stops the run and its workers, says what was kept and how to resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

RUN_TESTS = Path(__file__).resolve().parent.parent / "run"  # bemula_test_slow_system lives there
TOTAL = 45


def _command(data: Path, out: Path, workers: int) -> list[str]:
    return [
        sys.executable, "-c", "from bemula.cli import main; main()",
        "run", "--system", "slow-naive-rag", "--data", str(data), "--out", str(out),
        "--workers", str(workers), "--quiet",
    ]


def _env(slow_s: float) -> dict[str, str]:
    env = dict(os.environ)
    env["BEMULA_SYSTEM_MODULES"] = "bemula_test_slow_system"
    env["PYTHONPATH"] = os.pathsep.join([str(RUN_TESTS), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["BEMULA_TEST_SLOW_S"] = str(slow_s)
    return env


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("workers", [1, 2])
def test_one_ctrl_c_stops_everything_and_the_run_resumes(tiny: Path, tmp_path: Path, workers: int) -> None:
    out = tmp_path / "run"
    answers = out / "answers.jsonl"
    proc = subprocess.Popen(
        _command(tiny, out, workers), env=_env(0.1), start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 90
    while _lines(answers) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    os.killpg(proc.pid, signal.SIGINT)  # what the terminal does: the whole foreground group
    try:
        _, stderr = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("Ctrl-C did not stop the run within 30 s") from None
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "re-run the same command to resume" in stderr
    deadline = time.monotonic() + 10
    while _group_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _group_alive(proc.pid), "worker processes outlived the run"
    kept = _lines(answers)
    assert 0 < kept < TOTAL

    resumed = subprocess.run(_command(tiny, out, workers), env=_env(0.0), capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} already done" in resumed.stdout
    assert _lines(answers) == TOTAL
