"""Reading a run folder for judging, scoring and reporting.

A run folder (written by ``bemula run``) holds ``meta.json`` (system, backbone, dataset path
and checksum), ``answers.jsonl`` and, once judged, ``verdicts-<judge>.jsonl``. Verdict files
are append-only like answer files: the last record of a key counts, and a line cut short by
a kill is ignored, so judging can resume.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bemula.dataset import Dataset
from bemula.run.dumps import RECEIPTS_NAME
from bemula.run.records import AnswerRecord, VerdictRecord

META_NAME = "meta.json"
ANSWERS_NAME = "answers.jsonl"


class RunFolderError(ValueError):
    """A run folder or one of its files cannot be used; the message names the file."""


def verdicts_name(judge: str) -> str:
    return f"verdicts-{judge}.jsonl"


def _read_jsonl(path: Path, model: type, *, tolerate_partial_tail: bool = True) -> dict[tuple[str, str], Any]:
    """Records of an append-only JSON-lines file, last record per key wins."""
    records: dict[tuple[str, str], Any] = {}
    if not path.exists():
        return records
    data = path.read_bytes()
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        is_tail = number == len(lines)  # no newline after it: possibly cut short by a kill
        try:
            record = model.model_validate(json.loads(raw))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            if is_tail and tolerate_partial_tail:
                continue
            raise RunFolderError(f"{path}:{number}: not a JSON line ({exc})") from None
        except ValidationError as exc:
            if is_tail and tolerate_partial_tail:
                continue
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise RunFolderError(f"{path}:{number}: {where}: {first['msg']}") from None
        records[record.key] = record
    return records


@dataclass
class RunFolder:
    """One run folder opened for reading. ``data`` overrides the dataset path in meta.json."""

    path: Path
    meta: dict[str, Any]
    data_override: Path | None = None
    _verdicts: dict[str, dict[tuple[str, str], VerdictRecord]] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, path: Path | str, *, data: Path | str | None = None) -> RunFolder:
        path = Path(path)
        if not path.is_dir():
            raise RunFolderError(f"{path}: run folder not found")
        meta_path = path / META_NAME
        if not meta_path.exists():
            raise RunFolderError(f"{meta_path}: file not found (is {path} a run folder written by `bemula run`?)")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise RunFolderError(f"{meta_path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
        if not isinstance(meta, dict):
            raise RunFolderError(f"{meta_path}: not a JSON object")
        return cls(path=path, meta=meta, data_override=Path(data) if data else None)

    # -- identity --------------------------------------------------------------------------
    # meta.json written by the runner keeps the run's identity under "identity" (strings) and
    # richer records under "system"/"backbone"/"dataset"; hand-made folders may use plain
    # top-level strings. Both are read.
    def _meta_value(self, name: str) -> Any:
        identity = self.meta.get("identity") or {}
        if identity.get(name) not in (None, ""):
            return identity[name]
        value = self.meta.get(name)
        if isinstance(value, dict):
            return value.get("name") or value.get("model") or value.get("kind")
        return value

    @property
    def system(self) -> str:
        return str(self._meta_value("system") or self.path.name)

    @property
    def backbone(self) -> str:
        return str(self._meta_value("backbone") or "")

    @property
    def model(self) -> str:
        return str(self._meta_value("model") or "")

    @property
    def label(self) -> str:
        """How tables name this run: system (backbone[:model])."""
        backbone = self.backbone
        if self.model and self.model != backbone:
            backbone = f"{backbone}:{self.model}" if backbone else self.model
        return f"{self.system} ({backbone})" if backbone else self.system

    @property
    def dataset_checksum(self) -> str:
        dataset = self.meta.get("dataset")
        nested = dataset.get("checksum") if isinstance(dataset, dict) else None
        return str(self._meta_value("dataset_checksum") or nested or "")

    @property
    def data_path(self) -> Path:
        if self.data_override is not None:
            return self.data_override
        dataset = self.meta.get("dataset")
        config = self.meta.get("config")
        value = (
            (self.meta.get("data") if isinstance(self.meta.get("data"), str) else None)
            or (dataset.get("path") if isinstance(dataset, dict) else None)
            or (config.get("data") if isinstance(config, dict) else None)
        )
        if not value:
            raise RunFolderError(f"{self.path / META_NAME}: no dataset path; pass --data DIR")
        path = Path(value)
        if not path.is_absolute() and not path.exists() and (self.path / path).exists():
            path = self.path / path
        return path

    # -- contents --------------------------------------------------------------------------
    @cached_property
    def dataset(self) -> Dataset:
        try:
            dataset = Dataset.open(self.data_path)
        except Exception as exc:  # DatasetError names the file already
            raise RunFolderError(f"{self.path / META_NAME}: dataset: {exc}") from None
        expected = self.dataset_checksum
        if expected and dataset.checksum != expected:
            raise RunFolderError(
                f"{self.path / META_NAME}: dataset_checksum {expected[:12]}… does not match "
                f"{self.data_path} ({dataset.checksum[:12]}…): the answers belong to other data"
            )
        return dataset

    def planned_ids(self) -> list[str]:
        """The instances this run was asked to answer (every invocation's ``--lite`` /
        ``--instances`` / ``--limit``), in dataset order, so that an instance with no answer
        at all is reported instead of silently missing from the scores."""
        configs = [self.meta.get("config")] + [
            inv.get("config") for inv in self.meta.get("invocations", []) if isinstance(inv, dict)
        ]
        wanted: set[str] = set()
        for config in configs:
            if not isinstance(config, dict):
                continue
            try:
                wanted.update(self.dataset.select(
                    lite=bool(config.get("lite")), instances=config.get("instances"), limit=config.get("limit"),
                ))
            except (KeyError, TypeError):
                continue
        wanted.update(iid for iid, _ in self.answers)
        return [iid for iid in self.dataset.ids() if iid in wanted]

    @cached_property
    def answers(self) -> dict[tuple[str, str], AnswerRecord]:
        path = self.path / ANSWERS_NAME
        if not path.exists():
            raise RunFolderError(f"{path}: file not found (the run has not answered anything yet)")
        return _read_jsonl(path, AnswerRecord)

    def verdicts_path(self, judge: str) -> Path:
        return self.path / verdicts_name(judge)

    def verdicts(self, judge: str, *, required: bool = True) -> dict[tuple[str, str], VerdictRecord]:
        if judge not in self._verdicts:
            path = self.verdicts_path(judge)
            if required and not path.exists():
                raise RunFolderError(f"{path}: file not found (run `bemula judge {self.path} --judge {judge}` first)")
            self._verdicts[judge] = _read_jsonl(path, VerdictRecord)
        return self._verdicts[judge]

    def forget_cached_verdicts(self) -> None:
        self._verdicts.clear()

    def receipts(self) -> list[dict[str, Any]]:
        """Deletion receipts a system wrote (``receipts.jsonl``), as plain dicts; [] if none."""
        path = self.path / RECEIPTS_NAME
        if not path.exists():
            return []
        out = []
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise RunFolderError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
            if not isinstance(value, dict):
                raise RunFolderError(f"{path}:{number}: not a JSON object")
            out.append(value)
        return out

    def judges(self) -> list[str]:
        """Judges whose verdict files exist in this folder."""
        return sorted(p.name[len("verdicts-") : -len(".jsonl")] for p in self.path.glob("verdicts-*.jsonl"))
