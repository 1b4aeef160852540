"""Two runs on one run folder: the second is refused (exit 2, naming the holder's pid)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.runfolder.lock import RunFolderBusy, RunFolderLock

_load_commands()


def test_second_lock_is_refused_and_released_after(tmp_path: Path) -> None:
    with RunFolderLock(tmp_path / "run"):
        with pytest.raises(RunFolderBusy, match=f"pid {os.getpid()}"):
            RunFolderLock(tmp_path / "run").acquire()
    with RunFolderLock(tmp_path / "run"):  # released: free again
        pass


def test_run_refused_while_another_process_holds_the_folder(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from bemula.runfolder.lock import RunFolderLock\n"
         f"lock = RunFolderLock({str(out)!r}); lock.acquire(); print('held', flush=True); time.sleep(60)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(RunError, match=f"pid {holder.pid}"):
            run_benchmark(RunConfig(data=tiny, out=out, system="naive-rag"), progress=False)
        result = CliRunner().invoke(
            app, ["run", "--system", "naive-rag", "--data", str(tiny), "--out", str(out), "-q"]
        )
        assert result.exit_code == 2 and f"pid {holder.pid}" in result.output
        assert not (out / "answers.jsonl").exists()
    finally:
        holder.kill()
        holder.wait()
    # a killed holder leaves no stale lock: the kernel dropped it
    deadline = time.monotonic() + 10
    while True:
        try:
            summary = run_benchmark(RunConfig(data=tiny, out=out, system="naive-rag"), progress=False)
            break
        except RunError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    assert summary.questions_answered == 45
