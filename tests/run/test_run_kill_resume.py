"""A run killed with SIGKILL mid-way and resumed gives the answers of an uninterrupted run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import bemula_test_slow_system  # noqa: F401 - registers "slow-naive-rag" in this process
import pytest

from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import read_answers

HERE = Path(__file__).resolve().parent
TOTAL = 45  # questions of the tiny dataset, both versions


def _command(data: Path, out: Path, workers: int) -> list[str]:
    return [
        sys.executable, "-c", "from bemula.cli import main; main()",
        "run", "--system", "slow-naive-rag", "--data", str(data), "--out", str(out),
        "--workers", str(workers), "--quiet",
    ]


def _env(slow_s: float) -> dict[str, str]:
    env = dict(os.environ)
    env["BEMULA_SYSTEM_MODULES"] = "bemula_test_slow_system"
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["BEMULA_TEST_SLOW_S"] = str(slow_s)
    return env


def _complete_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_kill_9_then_resume_equals_uninterrupted(tiny_data: Path, tmp_path: Path, workers: int) -> None:
    reference = tmp_path / "reference"
    run_benchmark(RunConfig(data=tiny_data, out=reference, system="slow-naive-rag"), progress=False)
    expected = read_answers(reference / "answers.jsonl")
    assert len(expected) == TOTAL

    out = tmp_path / "killed"
    answers = out / "answers.jsonl"
    proc = subprocess.Popen(
        _command(tiny_data, out, workers), env=_env(0.08), start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while _complete_lines(answers) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()!r}"
    os.killpg(proc.pid, signal.SIGKILL)  # the parent and its workers, no cleanup
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    written = _complete_lines(answers)
    assert 0 < written < TOTAL

    resumed = subprocess.run(
        _command(tiny_data, out, workers), env=_env(0.0), capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"{written} already done" in resumed.stdout

    got = read_answers(answers, tolerate_partial_tail=False)
    assert set(got) == set(expected)
    for key, record in expected.items():
        assert got[key].answer == record.answer, key
        assert [r.id for r in got[key].retrieved] == [r.id for r in record.retrieved], key
    assert _complete_lines(answers) == TOTAL  # no question answered twice


# -- Ctrl-C -----------------------------------------------------------------------------------


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("workers", [1, 2])
def test_one_ctrl_c_stops_everything_and_the_run_resumes(tiny_data: Path, tmp_path: Path, workers: int) -> None:
    out = tmp_path / "run"
    answers = out / "answers.jsonl"
    proc = subprocess.Popen(
        _command(tiny_data, out, workers), env=_env(0.1), start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 90
    while _complete_lines(answers) == 0 and proc.poll() is None and time.monotonic() < deadline:
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
    kept = _complete_lines(answers)
    assert 0 < kept < TOTAL

    resumed = subprocess.run(_command(tiny_data, out, workers), env=_env(0.0), capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{kept} already done" in resumed.stdout
    assert _complete_lines(answers) == TOTAL
