"""``validate_dataset``: the folder-level checks (manifest, checksums, counts, Lite ids,
unlisted files), streaming one instance file at a time through ``validate_instance``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from bemula.dataset import (
    INSTANCES_DIR,
    LITE_TIERS,
    MANIFEST_NAME,
    DatasetError,
    dataset_checksum,
    decode_json,
    json_bytes,
    json_location,
    read_file,
    sha256_bytes,
)
from bemula.model import FORMAT_VERSION, Instance, Manifest
from bemula.safeio import UnresolvablePath, UnsafePath, confined
from bemula.validate.instance import validate_instance
from bemula.validate.report import ValidationReport, Violation

MAX_SCHEMA_ERRORS_PER_FILE = 20

_M = TypeVar("_M", bound=BaseModel)


class _TooMany(Exception):
    """Raised internally once ``max_errors`` violations were collected."""


class _Sink:
    """Collects violations, stopping the run once the cap is reached."""

    def __init__(self, max_errors: int | None) -> None:
        self.items: list[Violation] = []
        self.max_errors = max_errors

    def extend(self, items: Iterable[Violation]) -> None:
        for v in items:
            self.items.append(v)
            if self.max_errors is not None and len(self.items) >= self.max_errors:
                raise _TooMany


def validate_dataset(root: Path | str, *, max_errors: int | None = None, strict: bool = False) -> ValidationReport:
    """Validate a dataset folder, one instance file at a time (``strict``: warnings fail too)."""
    root = Path(root)
    report = ValidationReport(root=str(root), strict=strict)
    sink = _Sink(max_errors)
    try:
        _validate_folder(root, report, sink)
    except _TooMany:
        report.truncated = True
    report.violations = sink.items
    return report


def _validate_folder(root: Path, report: ValidationReport, sink: _Sink) -> None:
    manifest_path = root / MANIFEST_NAME
    if not root.is_dir():
        sink.extend([Violation(str(root), "$", "file-missing", "dataset folder not found")])
        return
    manifest, errors = _load(Manifest, manifest_path)
    sink.extend(errors)
    if manifest is None:
        return
    mfile = str(manifest_path)
    if manifest.format_version.split(".")[0] != FORMAT_VERSION.split(".")[0]:
        sink.extend([Violation(mfile, "$.format_version", "format-version",
                               f"format {manifest.format_version!r} is not readable by this package "
                               f"(reads {FORMAT_VERSION})")])
    sink.extend(_manifest_self_checks(manifest, mfile))

    totals = _Totals()
    listed: set[Path] = set()
    seen_ids: set[str] = set()
    for i, entry in enumerate(manifest.instances):
        loc = f"$.instances[{i}]"
        rel = Path(entry.file)
        try:
            inside = not rel.is_absolute() and ".." not in rel.parts and bool(confined(root, entry.file))
        except UnresolvablePath:
            sink.extend([Violation(mfile, f"{loc}.file", "file-type", f"{entry.file}: symlink loop")])
            continue
        except UnsafePath:
            inside = False
        if not inside:
            sink.extend([Violation(mfile, f"{loc}.file", "manifest-entry",
                                   f"file {entry.file!r} must be a path inside the dataset folder")])
            continue
        path = root / rel
        listed.add(path.resolve())
        try:
            raw = read_file(path)
        except DatasetError as exc:
            code = "file-missing" if exc.message == "file not found" else "file-type"
            text = f"{entry.file} does not exist" if code == "file-missing" else f"{entry.file}: {exc.message}"
            sink.extend([Violation(mfile, f"{loc}.file", code, text)])
            continue
        digest = sha256_bytes(raw)
        if digest != entry.sha256:
            sink.extend([Violation(mfile, f"{loc}.sha256", "checksum",
                                   f"{entry.file} has sha256 {digest}, manifest says {entry.sha256}")])
        instance, errors = _parse_instance(raw, path)
        sink.extend(errors)
        if instance is None:
            continue
        report.instances += 1
        report.turns_per_version += instance.forget.n_turns
        report.questions += sum(1 for q in instance.questions if not q.is_probe)
        totals.add(instance)
        sink.extend(_entry_checks(entry, instance, mfile, loc))
        if instance.id in seen_ids:
            sink.extend([Violation(str(path), "$.id", "duplicate-id",
                                   f"instance id {instance.id!r} is used by another file")])
        seen_ids.add(instance.id)
        sink.extend(validate_instance(instance, str(path)))
        del instance  # stream: only one instance in memory at a time

    sink.extend(_unlisted_files(root, listed))
    if report.instances == len(manifest.instances):
        sink.extend(_count_checks(manifest, totals, mfile))


def _load(model: type[_M], path: Path) -> tuple[_M | None, list[Violation]]:
    try:
        raw = read_file(path)
    except DatasetError as exc:
        if exc.message == "file not found":
            return None, [Violation(str(path), "$", "file-missing", f"{path.name} not found")]
        return None, [Violation(str(path), "$", "file-type", exc.message)]
    return _parse_bytes(model, raw, path)


def _parse_instance(raw: bytes, path: Path) -> tuple[Instance | None, list[Violation]]:
    return _parse_bytes(Instance, raw, path)


def _parse_bytes(model: type[_M], raw: bytes, path: Path) -> tuple[_M | None, list[Violation]]:
    """Parse the model straight from JSON bytes (pydantic's fast path); a JSON syntax error
    is re-read with the standard parser for its line and column, and every schema error
    becomes a violation at its JSON path."""
    raw = json_bytes(raw)
    try:
        return model.model_validate_json(raw), []
    except ValidationError as exc:
        errors = exc.errors()
        if any(err["type"] == "json_invalid" for err in errors):
            try:
                decode_json(raw, path)
            except DatasetError as bad:
                return None, [Violation(str(path), bad.location or "$", "json", bad.message)]
            return None, [Violation(str(path), "$", "json", str(errors[0]["msg"]))]
        out = [
            Violation(str(path), json_location(err["loc"]), "schema", _schema_message(err))
            for err in errors[:MAX_SCHEMA_ERRORS_PER_FILE]
        ]
        if len(errors) > MAX_SCHEMA_ERRORS_PER_FILE:
            out.append(Violation(str(path), "$", "schema",
                                 f"{len(errors) - MAX_SCHEMA_ERRORS_PER_FILE} more schema errors not shown"))
        return None, out


def _schema_message(err: ErrorDetails) -> str:
    msg = str(err["msg"])
    if err.get("type") not in ("missing", "extra_forbidden") and "input" in err:
        shown = repr(err["input"])
        if len(shown) <= 60:
            msg += f" (got {shown})"
    return msg


def _manifest_self_checks(manifest: Manifest, mfile: str) -> Iterator[Violation]:
    expected = dataset_checksum(manifest.instances)
    if manifest.checksum != expected:
        yield Violation(mfile, "$.checksum", "manifest-checksum",
                        f"checksum {manifest.checksum} is not the sha256 of the entries' "
                        f"'<id> <sha256>' lines ({expected})")
    seen_ids: dict[str, int] = {}
    seen_files: dict[str, int] = {}
    for i, e in enumerate(manifest.instances):
        if e.id in seen_ids:
            yield Violation(mfile, f"$.instances[{i}].id", "duplicate-id",
                            f"instance id {e.id!r} already listed at $.instances[{seen_ids[e.id]}]")
        seen_ids.setdefault(e.id, i)
        norm = str(Path(e.file))
        if norm in seen_files:
            yield Violation(mfile, f"$.instances[{i}].file", "manifest-entry",
                            f"file {e.file!r} already listed at $.instances[{seen_files[norm]}]")
        seen_files.setdefault(norm, i)
    lite_expected = [e.id for e in manifest.instances if e.tier in LITE_TIERS]
    for j, lid in enumerate(manifest.lite_ids):
        if lid not in seen_ids:
            yield Violation(mfile, f"$.lite_ids[{j}]", "lite-ids", f"Lite id {lid!r} is not a listed instance")
        elif manifest.instances[seen_ids[lid]].tier not in LITE_TIERS:
            yield Violation(mfile, f"$.lite_ids[{j}]", "lite-ids",
                            f"Lite id {lid!r} is a {manifest.instances[seen_ids[lid]].tier} instance "
                            "(Lite = short + medium)")
    dup = [lid for lid, n in Counter(manifest.lite_ids).items() if n > 1]
    if dup:
        yield Violation(mfile, "$.lite_ids", "lite-ids", f"Lite ids listed twice: {', '.join(dup)}")
    missing = [lid for lid in lite_expected if lid not in set(manifest.lite_ids)]
    if missing:
        yield Violation(mfile, "$.lite_ids", "lite-ids",
                        f"short/medium instances missing from Lite: {', '.join(missing)}")


def _entry_checks(entry: Any, instance: Instance, mfile: str, loc: str) -> Iterator[Violation]:
    if entry.id != instance.id:
        yield Violation(mfile, f"{loc}.id", "manifest-entry",
                        f"entry id {entry.id!r} but {entry.file} holds instance {instance.id!r}")
    if entry.tier != instance.tier:
        yield Violation(mfile, f"{loc}.tier", "manifest-entry",
                        f"entry tier {entry.tier} but the instance's tier is {instance.tier}")
    turns = instance.forget.n_turns
    if entry.turns_per_version != turns:
        yield Violation(mfile, f"{loc}.turns_per_version", "manifest-count",
                        f"entry says {entry.turns_per_version} turns, {entry.file} has {turns} per version")
    questions = sum(1 for q in instance.questions if not q.is_probe)
    if entry.questions != questions:
        yield Violation(mfile, f"{loc}.questions", "manifest-count",
                        f"entry says {entry.questions} questions, {entry.file} has {questions} (probes excluded)")


def _unlisted_files(root: Path, listed: set[Path]) -> Iterator[Violation]:
    """Instance-like files the manifest does not list: they would be silently ignored."""
    manifest = (root / MANIFEST_NAME).resolve()
    candidates = list((root / INSTANCES_DIR).rglob("*")) if (root / INSTANCES_DIR).is_dir() else []
    candidates += list(root.glob("*.json"))
    for path in sorted(candidates):
        if not path.is_file() or path.name.startswith("."):
            continue
        resolved = path.resolve()
        if resolved != manifest and resolved not in listed:
            yield Violation(str(path), "$", "unlisted-file", "file is not listed in manifest.json")


@dataclass
class _Totals:
    """Corpus-wide counts accumulated while streaming, compared with ``manifest.counts``."""

    counts: dict[str, Any] = field(default_factory=lambda: {
        "instances": 0,
        "tiers": Counter(),
        "sessions": 0,
        "turns_per_version": 0,
        "atomic_facts": 0,
        "derived_facts": 0,
        "sensitive_facts": 0,
        "requests": 0,
        "requests_by_type": Counter(),
        "targeted_facts": 0,
        "questions": 0,
        "questions_by_suite": Counter(),
        "questions_by_frame": Counter(),
        "probes": 0,
        "control_probes": 0,
        "lite_instances": 0,
        "lite_questions": 0,
    })

    def add(self, inst: Instance) -> None:
        c = self.counts
        questions = sum(1 for q in inst.questions if not q.is_probe)
        if inst.tier in LITE_TIERS:
            c["lite_instances"] += 1
            c["lite_questions"] += questions
        c["instances"] += 1
        c["tiers"][inst.tier.value] += 1
        c["sessions"] += len(inst.forget.sessions)
        c["turns_per_version"] += inst.forget.n_turns
        c["atomic_facts"] += len(inst.profile.facts)
        c["derived_facts"] += len(inst.profile.derived_facts)
        # SPEC/issue #2: "2,993 atomic facts with 1,056 medium/high sensitivity" -> atomic only
        c["sensitive_facts"] += sum(1 for f in inst.profile.facts if f.sensitivity.value != "low")
        c["requests"] += len(inst.requests)
        for r in inst.requests:
            c["requests_by_type"][r.type.value] += 1
        c["targeted_facts"] += sum(len(r.target_fact_ids) for r in inst.requests)
        for q in inst.questions:
            if q.is_probe:
                c["probes"] += 1
                c["control_probes"] += 1  # the same figure under the generator's name
                continue
            c["questions"] += 1
            c["questions_by_suite"][q.suite.value] += 1
            if q.frame is not None:
                c["questions_by_frame"][q.frame.value] += 1


def _count_checks(manifest: Manifest, totals: _Totals, mfile: str) -> Iterator[Violation]:
    """Compare every count the manifest declares that this package knows how to recompute."""
    actual = totals.counts
    for key, declared in manifest.counts.items():
        if key not in actual:
            continue  # a count we cannot recompute (e.g. a generator-specific figure)
        real = actual[key]
        if isinstance(real, Counter):
            if not isinstance(declared, dict):
                yield Violation(mfile, f"$.counts.{key}", "manifest-count", f"expected an object, got {declared!r}")
                continue
            for sub in sorted(set(declared) | set(real)):
                if declared.get(sub, 0) != real.get(sub, 0):
                    yield Violation(mfile, f"$.counts.{key}.{sub}", "manifest-count",
                                    f"manifest says {declared.get(sub, 0)}, the files have {real.get(sub, 0)}")
        elif declared != real:
            yield Violation(mfile, f"$.counts.{key}", "manifest-count",
                            f"manifest says {declared}, the files have {real}")
