"""Store dumps written during a run (``dumps/<instance>/<version>.jsonl``).

Right after a version is ingested (before any question is asked), the runner writes the
system's ``dump()`` — every record of every store, as text — so the residue audit can scan
exactly the state the questions were answered from, without re-ingesting. Written to a
temporary file and renamed, so a dump on disk is always complete.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from bemula.model import Version
from bemula.systems.base import StoreRecord

DUMPS_DIR = "dumps"


def dump_path(out: Path, instance_id: str, version: Version | str) -> Path:
    return out / DUMPS_DIR / instance_id / f"{Version(version).value}.jsonl"


def write_dump(out: Path, instance_id: str, version: Version | str, records: list[StoreRecord]) -> Path:
    path = dump_path(out, instance_id, version)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".jsonl.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps({"store": r.store, "id": r.id, "text": r.text}, ensure_ascii=False) + "\n")
    os.replace(tmp, path)  # no fsync: a dump can always be rebuilt by re-ingesting
    return path


def read_dump(path: Path) -> list[StoreRecord]:
    records = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                records.append(StoreRecord(store=str(data["store"]), id=str(data["id"]), text=str(data["text"])))
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a store record ({exc})") from None
    return records
