"""Append-only JSON-lines files and atomic writes: the one implementation every stage uses.

Why append-only with an fsync per batch: a run (or a judging, or an LLM cache) may be killed
at any moment (``kill -9``, a lost machine). Every line already written stays valid; a
half-written last line is cut off when the file is reopened for appending, and ignored when
it is read, so the work it held is simply done again. A bad line anywhere else is not a kill:
it is damage, and reading stops with an error naming ``file:line``.

Whole files that are rewritten (``meta.json``, dumps, summaries) go through
``atomic_write_text``: written beside the target, then renamed over it, so a reader sees the
old file or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class JsonlError(ValueError):
    """A line of a JSON-lines file is not valid; the message names ``file:line``."""


@contextmanager
def ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C that arrives inside the block until the block is done, then raise it.

    Why: pydantic serialises in Rust and turns a ``KeyboardInterrupt`` raised by a Python
    callback into ``PydanticSerializationError("Error serializing to JSON: KeyboardInterrupt")``,
    so a Ctrl-C landing mid-record read as a failed write (exit 2) instead of an interrupt
    (exit 130, resume). Deferring it also keeps a batch whole. Only the main thread receives
    signals; elsewhere (or under a handler someone else installed) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt


def atomic_write_text(path: Path | str, text: str, *, fsync: bool = False) -> None:
    """Replace ``path`` with ``text`` in one rename (``fsync`` first when losing it would cost work)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


@contextmanager
def atomic_open(path: Path | str) -> Iterator[IO[str]]:
    """A text file to stream into; it replaces ``path`` only when the block ends without error."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            yield fh
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def atomic_write_json(path: Path | str, value: Any, *, indent: int | None = 1, fsync: bool = False) -> None:
    """``atomic_write_text`` of ``value`` as JSON (non-JSON values written with ``str``)."""
    atomic_write_text(path, json.dumps(value, indent=indent, ensure_ascii=False, default=str) + "\n", fsync=fsync)


def iter_lines(path: Path | str, *, tolerate_partial_tail: bool = True) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` of every non-blank line of ``path``.

    A last line without its newline that does not parse is a write cut short by a kill: it
    is skipped when ``tolerate_partial_tail``; any other unparseable line raises ``JsonlError``.
    """
    path = Path(path)
    yield from _parse(path, path.read_bytes().split(b"\n"), tolerate_partial_tail)


def _parse(path: Path, lines: list[bytes], tolerate_partial_tail: bool) -> Iterator[tuple[int, Any]]:
    last = len(lines)  # the piece after the last newline: "" or a line a kill cut short
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            yield number, json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            if number == last and tolerate_partial_tail:
                return
            raise JsonlError(f"{path}:{number}: not a JSON line ({exc})") from None


def read_records(
    path: Path | str,
    model: type[M],
    *,
    key: Callable[[M], Any],
    tolerate_partial_tail: bool = True,
) -> dict[Any, M]:
    """Records of an append-only file, validated as ``model``; the **last** record of a key wins
    (a re-attempted question, a re-judged answer). A missing file holds no records."""
    path = Path(path)
    records: dict[Any, M] = {}
    if not path.exists():
        return records
    lines = path.read_bytes().split(b"\n")
    last = len(lines)
    for number, value in _parse(path, lines, tolerate_partial_tail):
        try:
            record = model.model_validate(value)
        except ValidationError as exc:
            if number == last and tolerate_partial_tail:
                continue
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise JsonlError(f"{path}:{number}: {where}: {first['msg']}") from None
        records[key(record)] = record
    return records


def read_objects(path: Path | str) -> list[dict[str, Any]]:
    """Every line of ``path`` as a JSON object (``[]`` when missing); a line that is not an
    object raises ``JsonlError`` naming ``file:line``."""
    path = Path(path)
    if not path.exists():
        return []
    out = []
    for number, value in iter_lines(path):
        if not isinstance(value, dict):
            raise JsonlError(f"{path}:{number}: not a JSON object")
        out.append(value)
    return out


class JsonlAppender(Generic[M]):
    """Appends records to a JSON-lines file; each ``append`` batch is flushed and fsynced.

    Opening cuts off a last line that a kill left without its newline, so appends start on
    a line of their own.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        repair_torn_tail(self.path)
        self._file = open(self.path, "ab")  # noqa: SIM115 - held open while appending
        self.written = 0

    def append(self, records: Iterable[M]) -> int:
        return self.append_json(record.model_dump_json() for record in records)

    def append_json(self, lines: Iterable[str]) -> int:
        """Append records already serialised (one JSON object per string, no newline): a
        worker elsewhere did the work, the writer only writes."""
        with ctrl_c_deferred():
            payload = b"".join((line + "\n").encode("utf-8") for line in lines)
            if not payload:
                return 0
            self._file.write(payload)
            self._file.flush()
            os.fsync(self._file.fileno())
        count = payload.count(b"\n")
        self.written += count
        return count

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> JsonlAppender[M]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def repair_torn_tail(path: Path) -> None:
    """Drop a last line that a kill left without its newline, so appends start clean."""
    if not path.exists():
        return
    size = path.stat().st_size
    if size == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return
        block = 65536
        pos = size
        keep = 0
        while pos > 0:  # scan back for the last newline
            start = max(0, pos - block)
            fh.seek(start)
            chunk = fh.read(pos - start)
            idx = chunk.rfind(b"\n")
            if idx >= 0:
                keep = start + idx + 1
                break
            pos = start
        fh.truncate(keep)
        fh.flush()
        os.fsync(fh.fileno())
