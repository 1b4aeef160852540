"""Per-instance, per-stage output cache, so a crashed generation resumes where it stopped.

One append-only JSON-lines file per instance: a header line with the instance's
*fingerprint* (model, prompt hashes, configuration, seed), then one ``{"key", "data"}`` line
per finished unit of work: a whole stage (``stage:profile``) or a step inside one
(``sim:S02:07`` = an accepted turn). Appending one line per unit keeps resume exact (no
accepted LLM output is ever requested twice) without rewriting a file after every item.
A torn last line from a crash is ignored. A different fingerprint means the instance is
regenerated from scratch: the old file is moved aside, never mixed in.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T", bound=BaseModel)


class InstanceCache:
    """Key → JSON value store for one instance, persisted as it is written."""

    def __init__(
        self, root: Path | str | None, instance_id: str, fingerprint: str, salts: dict[str, str] | None = None
    ) -> None:
        """``salts`` maps a key prefix to the hash of what produced it (its stage's prompts and
        every earlier stage's): a changed prompt re-runs that stage and the ones after it,
        while the earlier stages' entries stay valid."""
        self.instance_id = instance_id
        self.fingerprint = fingerprint
        self.salts = dict(salts or {})
        self._data: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.path: Path | None = None
        if root is None:
            return
        self.path = Path(root) / f"{instance_id}.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            self._load()
        if not self.path.exists():
            self._append({"fingerprint": fingerprint})

    def _load(self) -> None:
        assert self.path is not None
        lines = self.path.read_text(encoding="utf-8").splitlines()
        header = _parse_line(lines[0]) if lines else None
        if not header or header.get("fingerprint") != self.fingerprint:
            self.path.replace(self.path.with_suffix(".jsonl.stale"))
            return
        for line in lines[1:]:
            record = _parse_line(line)
            if record is not None and "key" in record:
                self._data[record["key"]] = record.get("data")

    def _append(self, record: dict[str, Any]) -> None:
        assert self.path is not None
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            fh.flush()

    def _salted(self, key: str) -> str:
        for prefix, salt in self.salts.items():
            if key.startswith(prefix):
                return f"{key}@{salt}"
        return key

    def __contains__(self, key: str) -> bool:
        return self._salted(key) in self._data

    def get(self, key: str, model: type[T]) -> T | None:
        key = self._salted(key)
        with self._lock:
            if key not in self._data:
                return None
            self.hits += 1
            return model.model_validate(self._data[key])

    def put(self, key: str, value: BaseModel) -> None:
        key = self._salted(key)
        data = value.model_dump(mode="json")
        with self._lock:
            self._data[key] = data
            if self.path is not None:
                self._append({"key": key, "data": data})

    def keys(self) -> list[str]:
        return list(self._data)


def _parse_line(line: str) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return None
    return record if isinstance(record, dict) else None
