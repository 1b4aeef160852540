"""Store dumps and system counters written during a run (``dumps/<instance>/``).

Right after a version is ingested (before any question is asked), the runner writes the
system's ``dump()`` — every record of every store, as text — to ``<version>.jsonl``, so the
residue audit can scan exactly the state the questions were answered from, without
re-ingesting; and the system's ``stats()`` to ``<version>.stats.json``. Both are written to
a temporary file and renamed, so a file on disk is always complete.

``receipts.jsonl`` at the top of the run folder gathers the deletion receipts a system put
in its forget-version ``stats()["receipts"]`` (one line per request, with its instance id);
the report shows them. It is rebuilt from the per-instance stats files at the end of every
``bemula run`` invocation, so a resumed run's receipts are complete.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bemula.model import Version
from bemula.runfolder.jsonl import JsonlError, atomic_write_text, iter_lines
from bemula.runfolder.names import DUMPS_DIR, RECEIPTS_NAME
from bemula.safeio import confined
from bemula.systems.base import StoreRecord


def dump_path(out: Path, instance_id: str, version: Version | str) -> Path:
    return confined(out / DUMPS_DIR, instance_id) / f"{Version(version).value}.jsonl"


def dump_text(records: list[StoreRecord]) -> str:
    """A dump's file content: one JSON line per record. Encoded where the dump was made (a
    Ray worker), so the one writer only writes it (``write_dump_text``)."""
    return "".join(
        json.dumps({"store": r.store, "id": r.id, "text": r.text}, ensure_ascii=False) + "\n" for r in records
    )


def write_dump_text(out: Path, instance_id: str, version: Version | str, text: str) -> Path:
    path = dump_path(out, instance_id, version)
    atomic_write_text(path, text)  # no fsync: a dump can always be rebuilt by re-ingesting
    return path


def write_dump(out: Path, instance_id: str, version: Version | str, records: list[StoreRecord]) -> Path:
    return write_dump_text(out, instance_id, version, dump_text(records))


def read_dump(path: Path) -> list[StoreRecord]:
    records = []
    try:
        for number, data in iter_lines(path, tolerate_partial_tail=False):
            try:
                records.append(StoreRecord(store=str(data["store"]), id=str(data["id"]), text=str(data["text"])))
            except (KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a store record ({exc!r})") from None
    except JsonlError as exc:
        raise ValueError(str(exc)) from None
    return records


def stats_path(out: Path, instance_id: str, version: Version | str) -> Path:
    return confined(out / DUMPS_DIR, instance_id) / f"{Version(version).value}.stats.json"


def write_stats(out: Path, instance_id: str, version: Version | str, stats: dict[str, Any]) -> Path:
    """The system's ``stats()`` for one ingested version (non-JSON values as strings)."""
    path = stats_path(out, instance_id, version)
    atomic_write_text(path, json.dumps(stats, ensure_ascii=False, sort_keys=True, default=str) + "\n")
    return path


def write_receipts(out: Path) -> int:
    """Gather every instance's forget-version receipts into ``receipts.jsonl``; returns how
    many were written (none: the file is removed, so a system without receipts leaves none).
    An unreadable stats file is an error naming it — receipts are never silently dropped."""
    lines: list[str] = []
    root = out / DUMPS_DIR
    for path in sorted(root.glob(f"*/{Version.FORGET.value}.stats.json")) if root.is_dir() else []:
        try:
            stats = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"{path}: not a stats file ({exc})") from None
        receipts = stats.get("receipts") if isinstance(stats, dict) else None
        for receipt in receipts or []:
            record = {"instance_id": path.parent.name, **receipt} if isinstance(receipt, dict) else {
                "instance_id": path.parent.name, "receipt": receipt}
            lines.append(json.dumps(record, ensure_ascii=False, sort_keys=False, default=str))
    target = out / RECEIPTS_NAME
    if not lines:
        target.unlink(missing_ok=True)
        return 0
    atomic_write_text(target, "\n".join(lines) + "\n")
    return len(lines)
