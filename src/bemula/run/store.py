"""The append-only answer file (``answers.jsonl``) and how a run resumes from it.

Why append-only with an fsync per batch: a run may be killed at any moment (``kill -9``, a
lost machine). Every line already written stays valid; a half-written last line is cut off
when the file is reopened, and the questions it held are simply answered again. The file
is never rewritten, so no finished answer can be lost by a later crash.

A key ``(instance_id, question_id)`` may appear more than once (a question whose backbone
failed is re-attempted on resume): the **last** record of a key is the one that counts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from bemula.run.records import AnswerRecord

ANSWERS_NAME = "answers.jsonl"


class AnswerFileError(ValueError):
    """A line of an answers file is not a valid record; the message names file and line."""


def read_answers(path: Path | str, *, tolerate_partial_tail: bool = True) -> dict[tuple[str, str], AnswerRecord]:
    """All records of an answers file, last record per key wins.

    A last line without its newline is a write cut short by a kill: it is ignored when
    ``tolerate_partial_tail`` (the default). Any other bad line is an error naming
    ``file:line``.
    """
    path = Path(path)
    records: dict[tuple[str, str], AnswerRecord] = {}
    if not path.exists():
        return records
    data = path.read_bytes()
    lines = data.split(b"\n")
    complete = lines[:-1]  # the piece after the last "\n" is "" or a partial line
    tail = lines[-1]
    for number, raw in enumerate(complete, 1):
        if not raw.strip():
            continue
        record = _parse_line(path, number, raw)
        records[record.key] = record
    if tail.strip():
        try:
            record = _parse_line(path, len(complete) + 1, tail)
        except AnswerFileError:
            if not tolerate_partial_tail:
                raise
        else:
            records[record.key] = record
    return records


def _parse_line(path: Path, number: int, raw: bytes) -> AnswerRecord:
    try:
        return AnswerRecord.model_validate(json.loads(raw))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise AnswerFileError(f"{path}:{number}: not a JSON line ({exc})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise AnswerFileError(f"{path}:{number}: {where}: {first['msg']}") from None


def finished_keys(records: dict[tuple[str, str], AnswerRecord]) -> set[tuple[str, str]]:
    """Keys whose latest record has no error: these are skipped on resume."""
    return {key for key, record in records.items() if record.error is None}


class AnswerWriter:
    """Appends records to ``answers.jsonl``; each ``append`` batch is flushed and fsynced."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        _cut_partial_tail(self.path)
        self._file = open(self.path, "ab")  # noqa: SIM115 - held open for the run
        self.written = 0

    def append(self, records: Iterable[AnswerRecord]) -> int:
        payload = b"".join(
            (record.model_dump_json() + "\n").encode("utf-8") for record in records
        )
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

    def __enter__(self) -> AnswerWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cut_partial_tail(path: Path) -> None:
    """Drop a last line that a kill left without its newline, so appends start clean."""
    if not path.exists():
        return
    size = path.stat().st_size
    if size == 0:
        return
    with open(path, "rb+") as f:
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        # scan back for the last newline
        block = 65536
        pos = size
        keep = 0
        while pos > 0:
            start = max(0, pos - block)
            f.seek(start)
            chunk = f.read(pos - start)
            idx = chunk.rfind(b"\n")
            if idx >= 0:
                keep = start + idx + 1
                break
            pos = start
        f.truncate(keep)
        f.flush()
        os.fsync(f.fileno())
