"""An exclusive lock on a run folder, so two ``bemula run``s never share one ``--out``.

Two runs on one folder would both do all the work, append duplicate answers and race on
``meta.json``. The lock is ``fcntl.flock`` on ``<out>/.lock``: the kernel drops it when the
holder exits, however it exits (``kill -9`` included), so a crashed run never leaves a
stale lock behind. The holder's pid is written into the file for the message the second
run prints.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from bemula.runfolder.names import LOCK_NAME


class RunFolderBusy(RuntimeError):
    """Another process holds the run folder's lock; the message names its pid."""


class RunFolderLock:
    """``with RunFolderLock(out):`` holds ``<out>/.lock`` exclusively or raises ``RunFolderBusy``."""

    def __init__(self, out: Path | str) -> None:
        self.path = Path(out) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise RunFolderBusy(
                f"{self.path.parent}: another run (pid {holder}) is using this folder; "
                "wait for it to finish or use another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RunFolderLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
