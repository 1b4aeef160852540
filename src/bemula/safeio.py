"""Reading untrusted files and building paths from untrusted names, safely.

A dataset is input from anyone: its manifest names files and its instance ids name folders
the runner creates and removes. Every path built from such a name goes through
``confined`` (it must stay inside its base folder once resolved, symlinks included), and
every dataset file is read through ``read_regular`` (a regular file only: a named pipe would
hang the reader, a directory or a symlink loop would raise a traceback).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

# No dataset file comes near this; a bound keeps a hostile file from exhausting memory.
MAX_FILE_BYTES = 512 * 1024 * 1024


class UnsafePath(ValueError):
    """A name would lead outside its folder, or a file is not a readable regular file."""


class UnresolvablePath(UnsafePath):
    """A path cannot be resolved at all (a symlink loop on the way)."""


def confined(base: Path | str, *parts: str) -> Path:
    """``base / parts...``, resolved, refused unless it stays strictly inside ``base``."""
    root = Path(base).resolve()
    try:
        target = root.joinpath(*parts).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop on the way
        raise UnresolvablePath(f"{Path(base).joinpath(*parts)}: symlink loop ({exc})") from None
    if target == root or not target.is_relative_to(root):
        raise UnsafePath(f"{'/'.join(parts)!r} leads outside {Path(base)}")
    return target


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def read_regular(path: Path | str, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file; ``FileNotFoundError`` if it is missing, else
    ``UnsafePath`` with a one-line reason (directory, pipe, device, symlink loop, too big).

    Opened with ``O_NONBLOCK`` so that a named pipe put in place after any check cannot
    block; the type is checked on the open descriptor, not on the name.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except IsADirectoryError:
        raise UnsafePath(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafePath(f"{path}: symlink loop") from None
        if exc.errno == errno.ENOTDIR:
            raise FileNotFoundError(str(path)) from None
        raise UnsafePath(f"{path}: cannot be opened ({exc.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafePath(f"{path}: is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > max_bytes:
            raise UnsafePath(f"{path}: {info.st_size} bytes, more than the {max_bytes} a dataset file may have")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = -1
            data = fh.read(max_bytes + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > max_bytes:
        raise UnsafePath(f"{path}: more than the {max_bytes} bytes a dataset file may have")
    return data
