"""Per-instance, per-stage output cache, so a crashed generation resumes where it stopped.

One append-only JSON-lines file per instance: a header line with the instance's
*fingerprint* (model, prompt hashes, configuration, seed), then one ``{"key", "data"}`` line
per finished unit of work: a whole stage (``stage:profile``) or a step inside one
(``sim:S02:07`` = an accepted turn). Appending one line per unit keeps resume exact (no
accepted LLM output is ever requested twice) without rewriting a file after every item.
A torn last line from a crash is ignored and cut off before the next append (the JSON-lines
rules of ``bemula.runfolder.jsonl``). A different fingerprint, or a damaged line elsewhere,
means the instance is regenerated from scratch: the old file is moved aside, never mixed in.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from bemula.runfolder.jsonl import JsonlError, iter_lines, repair_torn_tail

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
        if self.path.exists():
            repair_torn_tail(self.path)  # the next line must not be glued to a torn one
        else:
            self._append({"fingerprint": fingerprint})

    def _load(self) -> None:
        assert self.path is not None
        try:
            records = [value for _, value in iter_lines(self.path)]
        except JsonlError:
            records = []  # damaged, not just torn: start this instance again
        header = records[0] if records and isinstance(records[0], dict) else None
        if not header or header.get("fingerprint") != self.fingerprint:
            self.path.replace(self.path.with_suffix(".jsonl.stale"))
            return
        for record in records[1:]:
            if isinstance(record, dict) and "key" in record:
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
