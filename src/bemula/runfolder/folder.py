"""One run folder opened for reading: what judge, audit, score and report all read through.

A run folder (written by ``bemula run``) holds ``meta.json`` (``RunMeta``), ``answers.jsonl``
and, once judged, ``verdicts-<judge>.jsonl``; the audit adds ``residues.jsonl``. Verdict
files are append-only like answer files: the last record of a key counts, and a line cut
short by a kill is ignored, so judging can resume.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from bemula.dataset import Dataset
from bemula.runfolder.jsonl import JsonlError, read_objects, read_records
from bemula.runfolder.meta import MetaError, RunMeta, read_meta
from bemula.runfolder.names import (
    ANSWERS_NAME,
    META_NAME,
    RECEIPTS_NAME,
    RESIDUES_NAME,
    VERDICTS_PREFIX,
    verdicts_name,
)
from bemula.runfolder.records import AnswerRecord, ReceiptRecord, ResidueRecord, VerdictRecord

Key = tuple[str, str]
M = TypeVar("M", bound=BaseModel)


class RunFolderError(ValueError):
    """A run folder or one of its files cannot be used; the message names the file."""


def read_answers(path: Path | str, *, tolerate_partial_tail: bool = True) -> dict[Key, AnswerRecord]:
    """All records of an answers file, last record per key wins (a missing file: none)."""
    try:
        return read_records(path, AnswerRecord, key=lambda r: r.key, tolerate_partial_tail=tolerate_partial_tail)
    except JsonlError as exc:
        raise RunFolderError(str(exc)) from None


def read_verdicts(path: Path | str) -> dict[Key, VerdictRecord]:
    try:
        return read_records(path, VerdictRecord, key=lambda r: r.key)
    except JsonlError as exc:
        raise RunFolderError(str(exc)) from None


def finished_keys(records: dict[Key, AnswerRecord]) -> set[Key]:
    """Keys whose latest record has no error: these are skipped on resume."""
    return {key for key, record in records.items() if record.error is None}


@dataclass
class RunFolder:
    """One run folder opened for reading. ``data`` overrides the dataset path in meta.json."""

    path: Path
    meta: RunMeta
    data_override: Path | None = None
    _verdicts: dict[str, dict[Key, VerdictRecord]] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, path: Path | str, *, data: Path | str | None = None) -> RunFolder:
        path = Path(path)
        if not path.is_dir():
            raise RunFolderError(f"{path}: run folder not found")
        try:
            meta = read_meta(path)
        except MetaError as exc:
            raise RunFolderError(str(exc)) from None
        if meta is None:
            raise RunFolderError(f"{path}: no {META_NAME} — not a run folder written by `bemula run`")
        return cls(path=path, meta=meta, data_override=Path(data) if data else None)

    # -- identity --------------------------------------------------------------------------
    @property
    def system(self) -> str:
        return self.meta.identity.system

    @property
    def backbone(self) -> str:
        return self.meta.identity.backbone

    @property
    def model(self) -> str:
        return self.meta.identity.model or ""

    @property
    def label(self) -> str:
        """How tables name this run: system (backbone[:model])."""
        return self.meta.label

    @property
    def dataset_checksum(self) -> str:
        return self.meta.identity.dataset_checksum

    @property
    def data_path(self) -> Path:
        if self.data_override is not None:
            return self.data_override
        path = Path(self.meta.dataset.path or str(self.meta.config.get("data") or ""))
        if not str(path) or str(path) == ".":
            raise RunFolderError(f"{self.path / META_NAME}: no dataset path; pass --data DIR")
        if not path.is_absolute() and not path.exists() and (self.path / path).exists():
            path = self.path / path
        return path

    # -- contents --------------------------------------------------------------------------
    @cached_property
    def dataset(self) -> Dataset:
        try:
            dataset = Dataset.open(self.data_path)
        except Exception as exc:  # noqa: BLE001 - DatasetError names the file already
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
        configs = [self.meta.config] + [inv.config for inv in self.meta.invocations]
        wanted: set[str] = set()
        for config in configs:
            try:
                wanted.update(self.dataset.select(
                    lite=bool(config.get("lite")), instances=config.get("instances"), limit=config.get("limit"),
                ))
            except (KeyError, TypeError):
                continue
        wanted.update(iid for iid, _ in self.answers)
        return [iid for iid in self.dataset.ids() if iid in wanted]

    @cached_property
    def answers(self) -> dict[Key, AnswerRecord]:
        path = self.path / ANSWERS_NAME
        if not path.exists():
            raise RunFolderError(f"{path}: file not found (the run has not answered anything yet)")
        return read_answers(path)

    def verdicts_path(self, judge: str) -> Path:
        return self.path / verdicts_name(judge)

    def verdicts(self, judge: str, *, required: bool = True) -> dict[Key, VerdictRecord]:
        if judge not in self._verdicts:
            path = self.verdicts_path(judge)
            if required and not path.exists():
                raise RunFolderError(f"{path}: file not found (run `bemula judge {self.path} --judge {judge}` first)")
            self._verdicts[judge] = read_verdicts(path)
        return self._verdicts[judge]

    def forget_cached_verdicts(self) -> None:
        self._verdicts.clear()

    def receipts(self) -> list[ReceiptRecord]:
        """Deletion receipts a system wrote (``receipts.jsonl``); [] if none."""
        return self._read_list(RECEIPTS_NAME, ReceiptRecord)

    def residues(self) -> list[ResidueRecord]:
        """What the residue audit found (``residues.jsonl``); [] before ``bemula audit``."""
        return self._read_list(RESIDUES_NAME, ResidueRecord)

    def _read_list(self, name: str, model: type[M]) -> list[M]:
        path = self.path / name
        out: list[M] = []
        try:
            for number, value in enumerate(read_objects(path), 1):
                try:
                    out.append(model.model_validate(value))
                except ValidationError as exc:
                    first = exc.errors()[0]
                    where = ".".join(str(p) for p in first["loc"]) or "record"
                    raise RunFolderError(f"{path}: record {number}: {where}: {first['msg']}") from None
        except JsonlError as exc:
            raise RunFolderError(str(exc)) from None
        return out

    def judges(self) -> list[str]:
        """Judges whose verdict files exist in this folder."""
        return sorted(p.name[len(VERDICTS_PREFIX) : -len(".jsonl")] for p in self.path.glob(f"{VERDICTS_PREFIX}*.jsonl"))
