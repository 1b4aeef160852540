"""Read and write a dataset folder (format: docs/dataset-format.md).

A dataset folder is::

    DIR/manifest.json            Manifest: counts, checksums, Lite ids
    DIR/instances/<id>.json      one Instance per file

Instance files are written canonically (fixed key order, UTF-8, ``\\n`` line ends), so the
same content always has the same sha256 and a seeded generator is byte-reproducible.
Loading never needs the generator: any folder in this format works.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from bemula.model import SAFE_ID_PATTERN, Instance, InstanceEntry, Manifest, Profile, Question, Request, Tier, Version
from bemula.safeio import UnsafePath, confined, read_regular

MANIFEST_NAME = "manifest.json"
INSTANCES_DIR = "instances"
# hidden working folders of write_dataset inside the dataset folder (removed by the next write)
STAGING_PREFIX = ".writing-"
RETIRED_PREFIX = ".retired-"
LITE_TIERS = (Tier.SHORT, Tier.MEDIUM)

_M = TypeVar("_M", bound=BaseModel)


class DatasetError(Exception):
    """A dataset file could not be read; the message names the file and the JSON location."""

    def __init__(self, file: Path | str, location: str, message: str) -> None:
        self.file = str(file)
        self.location = location
        self.message = message
        super().__init__(f"{self.file}: {location}: {message}" if location else f"{self.file}: {message}")


def json_location(loc: Iterable[Any]) -> str:
    """Render a pydantic error location as a JSON path, e.g. ``$.questions[3].gold.kind``."""
    out = "$"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def canonical_json(data: Any) -> bytes:
    """The one serialisation used for every dataset file (stable bytes => stable sha256)."""
    return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def instance_bytes(instance: Instance) -> bytes:
    return canonical_json(instance.model_dump(mode="json"))


def dataset_checksum(entries: Iterable[InstanceEntry]) -> str:
    lines = sorted(f"{e.id} {e.sha256}" for e in entries)
    return sha256_bytes("\n".join(lines).encode("utf-8"))


UTF8_BOM = b"\xef\xbb\xbf"


def read_file(path: Path | str) -> bytes:
    """A dataset file's bytes (regular files only); any problem is a one-line ``DatasetError``."""
    try:
        return read_regular(path)
    except FileNotFoundError:
        raise DatasetError(path, "", "file not found") from None
    except UnsafePath as exc:
        raise DatasetError(path, "", str(exc).removeprefix(f"{path}: ")) from None


def json_bytes(raw: bytes) -> bytes:
    """The JSON text of a file: a leading UTF-8 byte-order mark (editors on Windows add one)
    is dropped, so the validator and the runner read exactly the same thing."""
    return raw[len(UTF8_BOM):] if raw.startswith(UTF8_BOM) else raw


def _read_json(path: Path) -> Any:
    return decode_json(read_file(path), path)


def decode_json(raw: bytes, path: Path | str) -> Any:
    """Parse a file's bytes as JSON; a failure is a ``DatasetError`` naming line and column
    (or saying what limit a hostile file broke: nesting depth, integer size)."""
    try:
        return json.loads(json_bytes(raw))
    except json.JSONDecodeError as exc:
        raise DatasetError(path, f"line {exc.lineno} column {exc.colno}", f"invalid JSON: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise DatasetError(path, f"byte {exc.start}", "not UTF-8") from None
    except RecursionError:
        raise DatasetError(path, "", "invalid JSON: nested too deeply") from None
    except ValueError as exc:  # e.g. an integer literal longer than Python's digit limit
        raise DatasetError(path, "", f"invalid JSON: {exc}") from None


def parse_model(model: type[_M], data: Any, path: Path) -> _M:
    """``model`` validated from ``data``; the first error names the file and JSON path."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        more = f" (and {exc.error_count() - 1} more errors)" if exc.error_count() > 1 else ""
        raise DatasetError(path, json_location(first["loc"]), first["msg"] + more) from None


def read_manifest(root: Path | str) -> Manifest:
    path = Path(root) / MANIFEST_NAME
    return parse_model(Manifest, _read_json(path), path)


def read_instance_file(path: Path | str) -> Instance:
    path = Path(path)
    return parse_model(Instance, _read_json(path), path)


class InstanceView(BaseModel):
    """An instance without its dialogues — what planning a run, judging, scoring and the
    audit need. A long instance has tens of thousands of turns: validating them is most of
    the time of reading it, and none of these stages looks at them."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    id: str
    tier: Tier
    profile: Profile
    requests: list[Request]
    questions: list[Question]
    #: turns per version (from the manifest)
    n_turns: int = 0

    def questions_for(self, version: Version) -> list[Question]:
        return [q for q in self.questions if q.version == version]


#: views already read, per (dataset folder, checksum): instance files never change under a
#: checksum, so judging and reporting several runs on one dataset read each file once
_VIEWS: dict[tuple[str, str], dict[str, InstanceView]] = {}


@dataclass
class Dataset:
    """A dataset folder opened for reading; instances are loaded lazily, one file each."""

    root: Path
    manifest: Manifest

    @classmethod
    def open(cls, root: Path | str) -> Dataset:
        root = Path(root)
        if not root.is_dir():
            raise DatasetError(root, "", "dataset folder not found")
        return cls(root=root, manifest=read_manifest(root))

    @property
    def checksum(self) -> str:
        return self.manifest.checksum

    def ids(self, *, lite: bool = False) -> list[str]:
        if lite:
            return list(self.manifest.lite_ids)
        return [e.id for e in self.manifest.instances]

    def entry(self, instance_id: str) -> InstanceEntry:
        for e in self.manifest.instances:
            if e.id == instance_id:
                return e
        raise KeyError(f"instance {instance_id!r} is not in {self.root / MANIFEST_NAME}")

    def path(self, instance_id: str) -> Path:
        """The instance's file, refused (``DatasetError``) if the manifest points outside
        the dataset folder."""
        return self.entry_path(self.entry(instance_id))

    def entry_path(self, entry: InstanceEntry) -> Path:
        try:
            return confined(self.root, entry.file)
        except UnsafePath:
            raise DatasetError(self.root / MANIFEST_NAME, "", f"instance file {entry.file!r} is outside the dataset folder") from None

    def read_bytes(self, instance_id: str) -> bytes:
        """The instance file's JSON bytes (regular file inside the folder, BOM dropped),
        refused unless they have the manifest's sha256 -- so a file swapped after the run's
        up-front validation is caught when it is read."""
        entry = self.entry(instance_id)
        path = self.entry_path(entry)
        raw = read_file(path)
        digest = sha256_bytes(raw)
        if digest != entry.sha256:
            raise DatasetError(path, "", f"sha256 {digest[:12]}… differs from the manifest's {entry.sha256[:12]}…")
        return json_bytes(raw)

    def load(self, instance_id: str) -> Instance:
        return read_instance_file(self.path(instance_id))

    def view(self, instance_id: str) -> InstanceView:
        """The instance without its dialogues (``InstanceView``), its file's checksum checked;
        a file that does not fit raises the ``DatasetError`` of a full load, naming file and
        location."""
        cache = _VIEWS.setdefault((str(self.root.resolve()), self.checksum), {})
        if instance_id not in cache:
            entry = self.entry(instance_id)
            try:
                view = InstanceView.model_validate_json(self.read_bytes(instance_id))
            except (ValidationError, OSError):
                self.load(instance_id)  # raises the DatasetError naming file and location
                raise
            cache[instance_id] = view.model_copy(update={"n_turns": entry.turns_per_version})
        return cache[instance_id]

    def views(self, ids: Iterable[str]) -> dict[str, InstanceView]:
        """``ids`` (in the given order) as views."""
        return {iid: self.view(iid) for iid in ids}

    def __iter__(self) -> Iterator[Instance]:
        for entry in self.manifest.instances:
            yield read_instance_file(self.entry_path(entry))

    def select(
        self, *, lite: bool = False, instances: Iterable[str] | None = None, limit: int | None = None
    ) -> list[str]:
        """Instance ids chosen by the common CLI flags, in manifest order."""
        ids = self.ids(lite=lite)
        if instances:
            wanted = list(instances)
            unknown = [i for i in wanted if i not in set(self.ids())]
            if unknown:
                raise KeyError(f"unknown instance ids: {', '.join(unknown)}")
            ids = [i for i in ids if i in set(wanted)]
        if limit is not None:
            ids = ids[:limit]
        return ids


def write_dataset(
    root: Path | str,
    instances: list[Instance],
    *,
    generator: dict[str, str] | None = None,
    counts: dict[str, Any] | None = None,
    name: str = "bemula",
) -> Manifest:
    """Write instances and a manifest; Lite = every short and medium instance.

    Instance files a previous write left in ``instances/`` and that this one does not write
    are removed, so rewriting a folder never leaves files the manifest does not list.

    Everything is written into a staging folder inside ``root`` first and then swapped in by
    renames (``_swap_in``), so a write killed at any point never leaves new instance files
    under an old manifest that still verifies: at worst the folder fails its checksum check
    (which every run makes) until the write is repeated. Other files in ``root`` (an LLM
    pipeline's cache) are left alone.
    """
    root = Path(root)
    ids = [inst.id for inst in instances]
    for inst_id in ids:
        if not re.match(SAFE_ID_PATTERN, inst_id):
            raise ValueError(f"instance id {inst_id!r} cannot be used as a file name")
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise ValueError(f"duplicate instance ids: {', '.join(duplicates)}")
    root.mkdir(parents=True, exist_ok=True)
    for leftover in [*root.glob(f"{STAGING_PREFIX}*"), *root.glob(f"{RETIRED_PREFIX}*")]:
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover)  # an earlier write killed half-way
    staging = root / f"{STAGING_PREFIX}{os.getpid()}"
    (staging / INSTANCES_DIR).mkdir(parents=True)
    entries: list[InstanceEntry] = []
    for inst in instances:
        data = instance_bytes(inst)
        rel = f"{INSTANCES_DIR}/{inst.id}.json"
        (staging / rel).write_bytes(data)
        entries.append(
            InstanceEntry(
                id=inst.id,
                tier=inst.tier,
                file=rel,
                sha256=sha256_bytes(data),
                turns_per_version=inst.forget.n_turns,
                questions=sum(1 for q in inst.questions if not q.is_probe),
            )
        )
    manifest = Manifest(
        name=name,
        generator=generator or {},
        checksum=dataset_checksum(entries),
        counts=counts or {},
        lite_ids=[i.id for i in instances if i.tier in LITE_TIERS],
        instances=entries,
    )
    (staging / MANIFEST_NAME).write_bytes(canonical_json(manifest.model_dump(mode="json")))
    _swap_in(root, staging)
    return manifest


def _swap_in(root: Path, staging: Path) -> None:
    """Replace ``root``'s instances folder and manifest with the staged ones: the old
    instances folder is renamed away, the new one renamed in, then the manifest replaced
    (``os.replace`` is atomic), then the old folder removed."""
    retired = root / f"{RETIRED_PREFIX}{os.getpid()}"
    current = root / INSTANCES_DIR
    if current.is_symlink() or current.is_file():
        current.unlink()
    elif current.exists():
        current.rename(retired)
    (staging / INSTANCES_DIR).rename(current)
    os.replace(staging / MANIFEST_NAME, root / MANIFEST_NAME)
    staging.rmdir()
    if retired.exists():
        shutil.rmtree(retired)


#: datasets that ship inside the package, by the name any ``--data`` option accepts
#: (``handwritten-heldout``, ``handwritten-heldout-2`` and ``handwritten-heldout-3`` are measured only, never developed on:
#: docs/handwritten.md)
BUNDLED_DATASETS: dict[str, str] = {"handwritten": "handwritten", "handwritten-2": "handwritten-2",
                                     "handwritten-heldout": "handwritten-heldout",
                                     "handwritten-heldout-2": "handwritten-heldout-2",
                                     "handwritten-3": "handwritten-3", "handwritten-heldout-3": "handwritten-heldout-3",
                                     "handwritten-4": "handwritten-4"}


def bundled_dataset(name: str) -> Path | None:
    """The folder of a dataset shipped with the package (``datasets/<name>`` in the
    repository, ``bemula/datasets/<name>`` when installed), or None."""
    folder = BUNDLED_DATASETS.get(name)
    if folder is None:
        return None
    from importlib.resources import files

    path = Path(str(files("bemula"))) / "datasets" / folder
    return path if (path / MANIFEST_NAME).is_file() else None


def resolve_data(path: Path | str) -> Path:
    """What a ``--data`` value names: an existing folder as given; otherwise a bundled
    dataset's name (``--data handwritten``); otherwise the path unchanged (commands then
    report it missing, or generate into it)."""
    path = Path(path)
    if path.exists():
        return path
    return bundled_dataset(str(path)) or path
