"""``--executor ray``: the same answers as the local executor, and a run killed under either
executor resumes under either (local Ray on 2 CPUs; the driver is the one writer)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.runfolder.folder import read_answers

pytest.importorskip("ray")
pytestmark = pytest.mark.slow  # each run starts a local Ray (seconds)

HERE = Path(__file__).resolve().parent
TOTAL = 45  # questions of the tiny dataset, both versions


def _command(data: Path, out: Path, executor: str) -> list[str]:
    return [
        sys.executable, "-c", "from bemula.cli import main; main()",
        "run", "--system", "slow-naive-rag", "--data", str(data), "--out", str(out),
        "--workers", "2", "--executor", executor, "--quiet",
    ]


def _env(slow_s: float, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["BEMULA_SYSTEM_MODULES"] = "bemula_test_slow_system"
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["BEMULA_TEST_SLOW_S"] = str(slow_s)
    env.update(extra)
    return env


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _session_processes(sid: int) -> list[str]:
    """Processes still in the killed run's session (Ray workers notice their raylet is gone
    and leave by themselves; they never write to the run folder either way)."""
    ps = subprocess.run(["ps", "-eo", "pid=,sid=,comm="], capture_output=True, text=True).stdout
    return [line for line in ps.splitlines() if line.split()[1:2] == [str(sid)]]


@pytest.fixture(scope="module")
def reference(tiny_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("reference") / "run"
    run_benchmark(RunConfig(data=tiny_data, out=out, system="naive-rag"), progress=False)
    answers = read_answers(out / "answers.jsonl")
    assert len(answers) == TOTAL
    return {"answers": answers, "out": out}


def _same_answers(out: Path, reference: dict) -> None:
    got = read_answers(out / "answers.jsonl", tolerate_partial_tail=False)
    expected = reference["answers"]
    assert set(got) == set(expected)
    for key, record in expected.items():
        assert got[key].answer == record.answer, key
        assert [r.id for r in got[key].retrieved] == [r.id for r in record.retrieved], key
    assert _lines(out / "answers.jsonl") == TOTAL  # nothing answered twice


def test_a_ray_run_writes_what_a_local_run_writes(tiny_data: Path, tmp_path: Path, reference: dict) -> None:
    out = tmp_path / "ray"
    done = subprocess.run(_command(tiny_data, out, "ray"), env=_env(0.0), capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    _same_answers(out, reference)
    for dump in sorted((reference["out"] / "dumps").rglob("*.jsonl")):  # the dumps came back to the driver
        assert (out / dump.relative_to(reference["out"])).read_text() == dump.read_text()
    assert (out / "receipts.jsonl").exists() == (reference["out"] / "receipts.jsonl").exists()


@pytest.mark.parametrize(("first", "then"), [("ray", "local"), ("local", "ray"), ("ray", "ray")])
def test_kill_9_under_one_executor_then_resume_under_another(
    tiny_data: Path, tmp_path: Path, reference: dict, first: str, then: str
) -> None:
    out = tmp_path / "run"
    answers = out / "answers.jsonl"
    proc = subprocess.Popen(_command(tiny_data, out, first), env=_env(0.1), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while _lines(answers) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, f"the run ended before it could be killed: {proc.stderr.read()!r}"
    os.killpg(proc.pid, signal.SIGKILL)  # the driver and whatever shares its group, no cleanup
    proc.wait(timeout=30)
    written = _lines(answers)
    assert 0 < written < TOTAL
    deadline = time.monotonic() + 60
    while _session_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _session_processes(proc.pid), "processes of the killed run are still alive"

    resumed = subprocess.run(_command(tiny_data, out, then), env=_env(0.0), capture_output=True, text=True,
                             timeout=180)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{written} already done" in resumed.stdout
    _same_answers(out, reference)


def test_a_ray_worker_killed_mid_task_is_retried_and_nothing_is_written_twice(
    tiny_data: Path, tmp_path: Path, reference: dict
) -> None:
    out = tmp_path / "run"
    answers = out / "answers.jsonl"
    proc = subprocess.Popen(_command(tiny_data, out, "ray"), env=_env(0.1), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _lines(answers) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    workers = [int(line.split()[0]) for line in _session_processes(proc.pid) if "instance_task" in line
               or "ray::instance" in line]
    if not workers:  # the command name may be cut; Ray names its task workers after the task
        ps = subprocess.run(["ps", "-eo", "pid=,sid=,args="], capture_output=True, text=True).stdout
        workers = [int(line.split()[0]) for line in ps.splitlines()
                   if line.split()[1:2] == [str(proc.pid)] and "instance_task" in line]
    assert workers, "no Ray task worker found"
    os.kill(workers[0], signal.SIGKILL)  # one worker dies with answers already sent
    stdout, stderr = proc.communicate(timeout=180)
    assert proc.returncode == 0, stderr
    _same_answers(out, reference)


def test_a_retried_task_that_hands_its_answers_on_in_other_bundles_loses_none(
    tiny_data: Path, tmp_path: Path, reference: dict
) -> None:
    """The first attempt yields small bundles for seconds and dies; the second is fast and
    yields one large bundle. Ray's own replay would keep only the items past those already
    consumed, losing answers (or failing the task); the driver's retry asks for what is left."""
    out = tmp_path / "run"
    mark = tmp_path / "died"
    done = subprocess.run(_command(tiny_data, out, "ray"), capture_output=True, text=True, timeout=180, env=_env(
        0.0, BEMULA_TEST_DIE_INSTANCE="tiny-b", BEMULA_TEST_DIE_AFTER="12", BEMULA_TEST_DIE_MARK=str(mark)))
    assert mark.exists(), "the worker never died"
    assert done.returncode == 0, done.stderr
    assert not (out / "failures.log").exists()
    _same_answers(out, reference)


def test_an_exception_in_the_system_is_recorded_not_retried(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = subprocess.run(_command(tiny_data, out, "ray"), env=_env(0.0, BEMULA_TEST_FAIL_INSTANCE="tiny-b"),
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 3, done.stderr  # finished, one instance failed
    assert "tiny-b" in done.stderr and "the test system breaks on this instance" in (out / "failures.log").read_text()
    assert {key[0] for key in read_answers(out / "answers.jsonl")} == {"tiny-a"}


def test_ray_options_are_checked_before_anything_starts(tiny_data: Path, tmp_path: Path) -> None:
    with pytest.raises(RunError, match="--ray-address needs --executor ray"):
        run_benchmark(RunConfig(data=tiny_data, out=tmp_path / "a", system="naive-rag", ray_address="ray://x:1"))
    with pytest.raises(RunError, match="unknown executor 'dask'"):
        run_benchmark(RunConfig(data=tiny_data, out=tmp_path / "b", system="naive-rag", executor="dask"))
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()
