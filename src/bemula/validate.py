"""Check a dataset folder against every invariant of SPEC §1 (``bemula validate``).

Synthetic data carries label errors — a target never stated, a control version that differs
somewhere else too, a probe asked with other words — and each one silently biases a metric.
So the validator checks everything a metric relies on and reports each violation with the
file, a JSON location inside it (``$.forget.sessions[2].turns[5].text``), a stable code and
a one-line message. It streams: one instance file is read, parsed and checked at a time.

The invariants, by code (``docs/dataset-format.md`` explains the format they protect):

==================== ==========================================================================
code                 meaning
==================== ==========================================================================
json                 a file is not valid JSON (location = line and column)
schema               a file does not match the data model (location = JSON path)
file-missing         a file listed in the manifest does not exist
unlisted-file        a file in the dataset folder is not listed in the manifest
manifest-entry       manifest entry disagrees with its instance (id, tier, path, duplicates)
checksum             an instance file's sha256 differs from the manifest's
manifest-checksum    the manifest's dataset checksum is not the one its entries give
manifest-count       a count in the manifest differs from the files
lite-ids             Lite ids are not exactly the short + medium instances
format-version       the manifest's format version is not one this package reads
duplicate-id         two facts / sessions / turns / requests / questions share an id
unknown-ref          an id refers to nothing (fact, request, session, turn, question)
derived-source       a derived fact's sources are not >= 2 distinct atomic facts
version-misaligned   forget and control differ in sessions, turn ids, roles or timestamps
version-differs      forget and control differ outside a request <-> neutral exchange
segment              segment / request_id annotations inconsistent with the version
request-turn         a request's turn is not a user turn marked segment=request for it
request-text         a request's text is not the text of its turn
request-wording      a request's text has no removal verb (forget, delete, erase, remove, ...)
request-type         the request's fields do not fit its type (targets, new value, ...)
target-not-stated    a target (F4: a source) is not stated in a session before the request
derived-stated       a derived conclusion is annotated as stated in the dialogue
fact-unstated        an atomic fact is never stated in the dialogue
fact-value           a turn said to state a fact contains neither its value nor an alias
restated             a forget-version turn after a request states or names a removed value
f3-category          an F3 request's category is missing or does not match its targets
f3-incomplete        a fact of the F3 category stated before the request is not a target
f5-window            an F5 window is missing, inverted, after the request, or misses a target
f5-incomplete        a fact stated only inside the F5 window is not a target
f6-new-value         an F6 request has no new value or its text does not state it
relearning           a relearning fact is not stated (only) after its request
question-version     a question is on the wrong version for its suite
question-ref         a question lacks, or has the wrong, request / fact for its suite
question-leak        a question (other than a boolean attack) contains its own fact's value
value-clash          a forget-version question expects a value another question protects
preservation-target  a preservation question asks about a fact some request removes
probe                a control probe is missing, differs from its question, or does not link back
frame                a frame on a non-attack question, or an attack question without one
gold                 gold kind / accepted / protected inconsistent with the suite
timestamp            timestamps decrease within a session or sessions are out of order
duplicate-filler     a filler turn repeats another turn of the instance verbatim
==================== ==========================================================================
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bemula.dataset import (
    INSTANCES_DIR,
    LITE_TIERS,
    MANIFEST_NAME,
    DatasetError,
    dataset_checksum,
    decode_json,
    json_location,
    sha256_bytes,
)
from bemula.model import (
    FORMAT_VERSION,
    AttackFrame,
    DerivedFact,
    Fact,
    GoldKind,
    Instance,
    Manifest,
    Question,
    Request,
    RequestType,
    Role,
    Segment,
    Suite,
    Turn,
    Version,
)

MAX_SCHEMA_ERRORS_PER_FILE = 20
EXCHANGE_SEGMENTS = (Segment.REQUEST, Segment.CONFIRMATION)
PROBED_SUITES = (Suite.EFFICACY, Suite.PRESERVATION, Suite.ATTACK)
#: SPEC §1: "every request must state removal unambiguously" — one of these must appear
REMOVAL_WORDS = re.compile(
    r"\b(forget|forgetting|delete|erase|remove|wipe|drop|discard|purge|scrub|clear|"
    r"stop (using|keeping|storing)|(don't|do not|never) (keep|store|use|remember))\b",
    re.I,
)


@dataclass(frozen=True)
class Violation:
    """One broken invariant: where (file + JSON location), which rule (code) and why."""

    file: str
    location: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.location}: [{self.code}] {self.message}"


@dataclass
class ValidationReport:
    root: str
    violations: list[Violation] = field(default_factory=list)
    instances: int = 0
    turns_per_version: int = 0
    questions: int = 0
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return not self.violations

    def by_code(self) -> dict[str, int]:
        return dict(sorted(Counter(v.code for v in self.violations).items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "ok": self.ok,
            "instances": self.instances,
            "turns_per_version": self.turns_per_version,
            "questions": self.questions,
            "violations": [asdict(v) for v in self.violations],
            "violations_by_code": self.by_code(),
            "truncated": self.truncated,
        }


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


# =========================================================================== dataset level


def validate_dataset(root: Path | str, *, max_errors: int | None = None) -> ValidationReport:
    """Validate a dataset folder, one instance file at a time."""
    root = Path(root)
    report = ValidationReport(root=str(root))
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
        if rel.is_absolute() or ".." in rel.parts:
            sink.extend([Violation(mfile, f"{loc}.file", "manifest-entry",
                                   f"file {entry.file!r} must be a path inside the dataset folder")])
            continue
        path = root / rel
        listed.add(path.resolve())
        try:
            raw = path.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            sink.extend([Violation(mfile, f"{loc}.file", "file-missing", f"{entry.file} does not exist")])
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


def _load(model: type, path: Path) -> tuple[Any, list[Violation]]:
    try:
        raw = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None, [Violation(str(path), "$", "file-missing", f"{path.name} not found")]
    return _parse_bytes(model, raw, path)


def _parse_instance(raw: bytes, path: Path) -> tuple[Instance | None, list[Violation]]:
    return _parse_bytes(Instance, raw, path)


def _parse_bytes(model: type, raw: bytes, path: Path) -> tuple[Any, list[Violation]]:
    """Parse the model straight from JSON bytes (pydantic's fast path); a JSON syntax error
    is re-read with the standard parser for its line and column, and every schema error
    becomes a violation at its JSON path."""
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


def _schema_message(err: dict[str, Any]) -> str:
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
    })

    def add(self, inst: Instance) -> None:
        c = self.counts
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


# =========================================================================== instance level


def validate_instance(instance: Instance, file: str) -> list[Violation]:
    """Every within-instance invariant; ``file`` is only used to label the violations."""
    return _InstanceChecker(instance, file).run()


_EPOCH = datetime(1970, 1, 1)


def _ts(dt: datetime) -> float:
    """Seconds since the epoch; a naive time is read as UTC so mixed files still compare."""
    return (dt - _EPOCH).total_seconds() if dt.tzinfo is None else dt.timestamp()


@lru_cache(maxsize=4096)
def _words_pattern(forms: tuple[str, ...]) -> re.Pattern[str]:
    """Case-insensitive match of any form as whole words (longest form first)."""
    cleaned = sorted({f.strip() for f in forms if f.strip()}, key=len, reverse=True)
    if not cleaned:
        return re.compile(r"(?!)")  # matches nothing
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, cleaned)) + r")(?!\w)", re.I)


def _article(phrase: str) -> str:
    return ("an " if phrase[:1].lower() in "aeiouf" else "a ") + phrase


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


@dataclass(frozen=True)
class _Pos:
    """Where a turn sits in a version: indexes for locations, ``seq`` for ordering."""

    session: int
    turn: int
    seq: int


class _InstanceChecker:
    def __init__(self, instance: Instance, file: str) -> None:
        self.inst = instance
        self.file = file
        self.out: list[Violation] = []
        p = instance.profile
        self.facts: dict[str, Fact] = {}
        for f in p.facts:
            self.facts.setdefault(f.id, f)
        self.derived: dict[str, DerivedFact] = {}
        for d in p.derived_facts:
            self.derived.setdefault(d.id, d)
        self.requests: dict[str, Request] = {}
        for r in instance.requests:
            self.requests.setdefault(r.id, r)
        self.questions: dict[str, Question] = {}
        for q in instance.questions:
            self.questions.setdefault(q.id, q)
        self.session_index: dict[str, int] = {}
        for i, s in enumerate(instance.forget.sessions):
            self.session_index.setdefault(s.id, i)
        # forget-version turn positions and where each fact is stated (user or assistant)
        self.turn_pos: dict[str, _Pos] = {}
        self.stated: dict[str, list[_Pos]] = {}
        self.flat: list[tuple[_Pos, Turn, str]] = []  # forget turns in order, with casefolded text
        for si, s in enumerate(instance.forget.sessions):
            for ti, t in enumerate(s.turns):
                pos = _Pos(si, ti, len(self.flat))
                self.flat.append((pos, t, t.text.casefold()))
                self.turn_pos.setdefault(t.id, pos)
                for fid in t.annotations.facts:
                    self.stated.setdefault(fid, []).append(pos)

    # ------------------------------------------------------------------ helpers

    def add(self, location: str, code: str, message: str) -> None:
        self.out.append(Violation(self.file, location, code, message))

    def turn(self, pos: _Pos, version: Version = Version.FORGET) -> Turn:
        return self.inst.dialogue(version).sessions[pos.session].turns[pos.turn]

    @staticmethod
    def turn_loc(pos: _Pos, version: Version = Version.FORGET) -> str:
        return f"$.{version.value}.sessions[{pos.session}].turns[{pos.turn}]"

    def target(self, fid: str) -> Fact | DerivedFact | None:
        return self.facts.get(fid) or self.derived.get(fid)

    # ------------------------------------------------------------------ run

    def run(self) -> list[Violation]:
        self.check_unique_ids()
        self.check_derived()
        self.check_timestamps(Version.FORGET)
        self.check_timestamps(Version.CONTROL)
        self.check_turn_annotations()
        self.check_alignment()
        self.check_facts_stated()
        for i, r in enumerate(self.inst.requests):
            self.check_request(i, r)
        self.check_relearning_facts()
        self.check_not_restated()
        self.check_questions()
        self.check_filler()
        return self.out

    # ------------------------------------------------------------------ ids

    def check_unique_ids(self) -> None:
        def dup(items: Iterable[tuple[str, str, tuple[int, ...]]], what: str) -> None:
            """items: (id, location template, indexes); locations are only built for duplicates."""
            first: dict[str, tuple[str, tuple[int, ...]]] = {}
            for ident, template, idx in items:
                if ident in first:
                    where, at = first[ident]
                    self.add(template.format(*idx), "duplicate-id",
                             f"{what} id {ident!r} already used at {where.format(*at)}")
                else:
                    first[ident] = (template, idx)

        p = self.inst.profile
        dup([(f.id, "$.profile.facts[{}].id", (i,)) for i, f in enumerate(p.facts)]
            + [(d.id, "$.profile.derived_facts[{}].id", (i,)) for i, d in enumerate(p.derived_facts)], "fact")
        for version in Version:
            dialogue = self.inst.dialogue(version)
            name = version.value
            dup([(s.id, f"$.{name}.sessions[{{}}].id", (i,)) for i, s in enumerate(dialogue.sessions)], "session")
            turn_template = f"$.{name}.sessions[{{}}].turns[{{}}].id"
            dup(((t.id, turn_template, (i, j)) for i, s in enumerate(dialogue.sessions) for j, t in enumerate(s.turns)),
                "turn")
        dup([(r.id, "$.requests[{}].id", (i,)) for i, r in enumerate(self.inst.requests)], "request")
        dup([(q.id, "$.questions[{}].id", (i,)) for i, q in enumerate(self.inst.questions)], "question")

    def check_derived(self) -> None:
        for i, d in enumerate(self.inst.profile.derived_facts):
            loc = f"$.profile.derived_facts[{i}].source_fact_ids"
            for j, sid in enumerate(d.source_fact_ids):
                if sid not in self.facts:
                    what = "a derived fact" if sid in self.derived else "no atomic fact"
                    self.add(f"{loc}[{j}]", "derived-source" if sid in self.derived else "unknown-ref",
                             f"source {sid!r} of {d.id} is {what}")
            if len(set(d.source_fact_ids)) < 2:
                self.add(loc, "derived-source", f"{d.id} needs at least two distinct source facts")

    # ------------------------------------------------------------------ time

    def check_timestamps(self, version: Version) -> None:
        prev_end: float | None = None
        prev_id = ""
        for si, s in enumerate(self.inst.dialogue(version).sessions):
            sloc = f"$.{version.value}.sessions[{si}]"
            start = _ts(s.start)
            if prev_end is not None and start < prev_end:
                self.add(f"{sloc}.start", "timestamp",
                         f"session {s.id} starts {s.start.isoformat()} before session {prev_id} ends")
            last = start
            for ti, t in enumerate(s.turns):
                now = _ts(t.timestamp)
                if now < last:
                    what = "the session start" if ti == 0 else "the previous turn"
                    self.add(f"{sloc}.turns[{ti}].timestamp", "timestamp",
                             f"turn {t.id} at {t.timestamp.isoformat()} is earlier than {what}")
                last = max(last, now)
            prev_end, prev_id = last, s.id

    # ------------------------------------------------------------------ turns

    def check_turn_annotations(self) -> None:
        for version in Version:
            name = version.value
            for si, s in enumerate(self.inst.dialogue(version).sessions):
                for ti, t in enumerate(s.turns):
                    a = t.annotations
                    if not a.facts and a.segment is None and a.request_id is None:
                        continue  # the common case: nothing to check
                    loc = f"$.{name}.sessions[{si}].turns[{ti}].annotations"
                    for k, fid in enumerate(a.facts):
                        if fid not in self.facts and fid not in self.derived:
                            self.add(f"{loc}.facts[{k}]", "unknown-ref", f"turn {t.id} states unknown fact {fid!r}")
                    if a.request_id is not None and a.request_id not in self.requests:
                        self.add(f"{loc}.request_id", "unknown-ref",
                                 f"turn {t.id} refers to unknown request {a.request_id!r}")
                    if (a.segment is None) != (a.request_id is None):
                        self.add(loc, "segment", f"turn {t.id}: segment and request_id must be set together")
                    if a.segment is None:
                        continue
                    allowed = EXCHANGE_SEGMENTS if version == Version.FORGET else (Segment.NEUTRAL,)
                    if a.segment not in allowed:
                        self.add(f"{loc}.segment", "segment",
                                 f"segment {a.segment.value!r} cannot occur in the {version.value} version")
                    elif a.segment == Segment.REQUEST and t.role != Role.USER:
                        self.add(f"{loc}.segment", "segment", f"request turn {t.id} must be a user turn")
                    elif a.segment == Segment.CONFIRMATION and t.role != Role.ASSISTANT:
                        self.add(f"{loc}.segment", "segment", f"confirmation turn {t.id} must be an assistant turn")
                    elif a.segment == Segment.CONFIRMATION:
                        prev = s.turns[ti - 1].annotations if ti > 0 else None
                        if prev is None or prev.segment != Segment.REQUEST or prev.request_id != a.request_id:
                            self.add(f"{loc}.segment", "segment",
                                     f"confirmation turn {t.id} does not directly follow the turn making {a.request_id}")
                    elif a.segment == Segment.REQUEST:
                        r = self.requests.get(a.request_id or "")
                        if r is not None and r.turn_id != t.id:
                            self.add(f"{loc}.request_id", "request-turn",
                                     f"turn {t.id} is marked as making {r.id}, whose turn is {r.turn_id}")

    def check_alignment(self) -> None:
        """Forget and control: same sessions and turns; text differs only at exchanges."""
        f_sessions = self.inst.forget.sessions
        c_sessions = self.inst.control.sessions
        if len(f_sessions) != len(c_sessions):
            self.add("$.control.sessions", "version-misaligned",
                     f"forget has {len(f_sessions)} sessions, control has {len(c_sessions)}")
        for si, (fs, cs) in enumerate(zip(f_sessions, c_sessions)):
            loc = f"$.control.sessions[{si}]"
            if fs.id != cs.id:
                self.add(f"{loc}.id", "version-misaligned", f"session id {cs.id!r}, forget has {fs.id!r}")
            if _ts(fs.start) != _ts(cs.start):
                self.add(f"{loc}.start", "version-misaligned",
                         f"session {cs.id} starts {cs.start.isoformat()}, forget has {fs.start.isoformat()}")
            if len(fs.turns) != len(cs.turns):
                self.add(f"{loc}.turns", "version-misaligned",
                         f"session {cs.id} has {len(cs.turns)} turns, forget has {len(fs.turns)}")
            for ti, (ft, ct) in enumerate(zip(fs.turns, cs.turns)):
                self._align_turn(f"{loc}.turns[{ti}]", ft, ct)

    def _align_turn(self, loc: str, ft: Turn, ct: Turn) -> None:
        if ft.id != ct.id:
            self.add(f"{loc}.id", "version-misaligned", f"turn id {ct.id!r}, forget has {ft.id!r}")
        if ft.role != ct.role:
            self.add(f"{loc}.role", "version-misaligned",
                     f"turn {ct.id} is {ct.role.value} here, {ft.role.value} in forget")
        if ft.timestamp != ct.timestamp:
            self.add(f"{loc}.timestamp", "version-misaligned",
                     f"turn {ct.id} at {ct.timestamp.isoformat()}, forget has {ft.timestamp.isoformat()}")
        fa, ca = ft.annotations, ct.annotations
        if fa.segment in EXCHANGE_SEGMENTS:
            if ca.segment != Segment.NEUTRAL:
                self.add(f"{loc}.annotations.segment", "segment",
                         f"turn {ct.id} must be neutral: forget has a {fa.segment.value} turn here")
            elif ca.request_id != fa.request_id:
                self.add(f"{loc}.annotations.request_id", "segment",
                         f"neutral turn {ct.id} belongs to {ca.request_id!r}, forget's turn to {fa.request_id!r}")
            if ca.facts != fa.facts:
                self.add(f"{loc}.annotations.facts", "version-differs",
                         f"turn {ct.id} states {ca.facts}, forget's turn states {fa.facts}")
            return
        if ca.segment == Segment.NEUTRAL:
            self.add(f"{loc}.annotations.segment", "segment",
                     f"neutral turn {ct.id} is not at a request exchange of the forget version")
            return
        if ft.text != ct.text:
            self.add(f"{loc}.text", "version-differs",
                     f"turn {ct.id} text differs from forget outside a request exchange")
        if ca.facts != fa.facts:
            self.add(f"{loc}.annotations.facts", "version-differs",
                     f"turn {ct.id} states {ca.facts}, forget's turn states {fa.facts}")

    # ------------------------------------------------------------------ facts

    def check_facts_stated(self) -> None:
        for i, f in enumerate(self.inst.profile.facts):
            if f.id not in self.stated:
                self.add(f"$.profile.facts[{i}]", "fact-unstated", f"fact {f.id} is never stated in the dialogue")
        for i, d in enumerate(self.inst.profile.derived_facts):
            for pos in self.stated.get(d.id, []):
                self.add(f"{self.turn_loc(pos)}.annotations.facts", "derived-stated",
                         f"derived fact {d.id} must never be stated, only its sources")
        for fid, positions in self.stated.items():
            fact = self.facts.get(fid)
            if fact is None:
                continue
            forms = [_norm(x) for x in fact.accepted if x.strip()]
            for pos in positions:
                text = _norm(self.turn(pos).text)
                if not any(form in text for form in forms):
                    self.add(f"{self.turn_loc(pos)}.text", "fact-value",
                             f"turn is said to state {fid} but contains neither {fact.value!r} nor an alias")

    # ------------------------------------------------------------------ requests

    def check_request(self, i: int, r: Request) -> None:
        loc = f"$.requests[{i}]"
        if r.session_id not in self.session_index:
            self.add(f"{loc}.session_id", "unknown-ref", f"request {r.id}: unknown session {r.session_id!r}")
        pos = self.turn_pos.get(r.turn_id)
        if pos is None:
            self.add(f"{loc}.turn_id", "unknown-ref", f"request {r.id}: unknown turn {r.turn_id!r}")
        else:
            turn = self.turn(pos)
            session = self.inst.forget.sessions[pos.session]
            if session.id != r.session_id:
                self.add(f"{loc}.session_id", "request-turn",
                         f"request {r.id}: turn {r.turn_id} is in session {session.id}, not {r.session_id}")
            a = turn.annotations
            if turn.role != Role.USER or a.segment != Segment.REQUEST or a.request_id != r.id:
                self.add(f"{self.turn_loc(pos)}.annotations", "request-turn",
                         f"turn {turn.id} must be a user turn with segment 'request' and request_id {r.id!r}")
            if _norm(r.text) not in _norm(turn.text):
                self.add(f"{loc}.text", "request-text", f"request {r.id}'s text is not the text of turn {turn.id}")
        if not REMOVAL_WORDS.search(r.text):
            self.add(f"{loc}.text", "request-wording",
                     f"request {r.id} does not say to forget/delete/erase/remove/drop anything: {r.text!r}")
        self._check_request_fields(loc, r)
        targets: list[tuple[int, Fact | DerivedFact]] = []
        for j, fid in enumerate(r.target_fact_ids):
            t = self.target(fid)
            if t is None:
                self.add(f"{loc}.target_fact_ids[{j}]", "unknown-ref", f"request {r.id}: unknown target {fid!r}")
            else:
                targets.append((j, t))
        if len(set(r.target_fact_ids)) != len(r.target_fact_ids):
            self.add(f"{loc}.target_fact_ids", "duplicate-id", f"request {r.id} lists a target twice")
        if pos is None:
            return
        for j, t in targets:
            self._check_target_stated(loc, j, r, t, pos)
        if r.type == RequestType.F3:
            self._check_f3(loc, r, [t for _, t in targets], pos)
        elif r.type == RequestType.F5:
            self._check_f5(loc, r, [t for _, t in targets], pos)
        elif r.type == RequestType.F6:
            if r.new_value is None or not r.new_value.strip():
                self.add(f"{loc}.new_value", "f6-new-value", f"F6 request {r.id} has no new value")
            elif _norm(r.new_value) not in _norm(r.text):
                self.add(f"{loc}.text", "f6-new-value", f"F6 request {r.id} does not state its new value "
                                                        f"{r.new_value!r}")

    def _check_request_fields(self, loc: str, r: Request) -> None:
        n = len(r.target_fact_ids)
        derived = [fid for fid in r.target_fact_ids if fid in self.derived]
        if r.type == RequestType.F4:
            if len(derived) != n:
                self.add(f"{loc}.target_fact_ids", "request-type", f"F4 request {r.id} must target derived facts only")
        elif derived:
            self.add(f"{loc}.target_fact_ids", "request-type",
                     f"{r.type.value} request {r.id} targets derived fact(s) {', '.join(derived)} (F4 only)")
        if r.type in (RequestType.F1, RequestType.F6) and n != 1:
            self.add(f"{loc}.target_fact_ids", "request-type", f"{r.type.value} request {r.id} needs exactly one target")
        if r.type == RequestType.F2 and n < 2:
            self.add(f"{loc}.target_fact_ids", "request-type", f"F2 request {r.id} needs at least two targets")
        if r.new_value is not None and r.type != RequestType.F6:
            self.add(f"{loc}.new_value", "request-type", f"new_value is for F6 only, {r.id} is {r.type.value}")
        if r.category is not None and r.type != RequestType.F3:
            self.add(f"{loc}.category", "request-type", f"category is for F3 only, {r.id} is {r.type.value}")
        if r.window is not None and r.type != RequestType.F5:
            self.add(f"{loc}.window", "request-type", f"window is for F5 only, {r.id} is {r.type.value}")

    def _check_target_stated(self, loc: str, j: int, r: Request, t: Fact | DerivedFact, pos: _Pos) -> None:
        """A target (F4: each source) must be stated in a session before the request's session."""
        needed = t.source_fact_ids if isinstance(t, DerivedFact) else [t.id]
        for fid in needed:
            if not any(p.session < pos.session for p in self.stated.get(fid, [])):
                what = f"source {fid} of {t.id}" if fid != t.id else f"target {fid}"
                self.add(f"{loc}.target_fact_ids[{j}]", "target-not-stated",
                         f"request {r.id}: {what} is not stated in a session before {r.session_id}")

    def _check_f3(self, loc: str, r: Request, targets: list[Fact | DerivedFact], pos: _Pos) -> None:
        if not r.category:
            self.add(f"{loc}.category", "f3-category", f"F3 request {r.id} has no category")
            return
        wrong = [t.id for t in targets if t.category != r.category]
        if wrong:
            self.add(f"{loc}.category", "f3-category",
                     f"F3 request {r.id} is about {r.category!r} but targets {', '.join(wrong)} are not")
        chosen = set(r.target_fact_ids)
        for f in self.inst.profile.facts:
            if f.category == r.category and f.id not in chosen and f.relearns is None:
                if any(p.seq < pos.seq for p in self.stated.get(f.id, [])):
                    self.add(f"{loc}.target_fact_ids", "f3-incomplete",
                             f"F3 request {r.id} removes all {r.category!r} facts but omits {f.id}, stated before it")

    def _check_f5(self, loc: str, r: Request, targets: list[Fact | DerivedFact], pos: _Pos) -> None:
        w = r.window
        if w is None:
            self.add(f"{loc}.window", "f5-window", f"F5 request {r.id} has no time window")
            return
        start, end = _ts(w.start), _ts(w.end)
        if start > end:
            self.add(f"{loc}.window", "f5-window", f"window of {r.id} ends before it starts")
        if end >= _ts(self.turn(pos).timestamp):
            self.add(f"{loc}.window.end", "f5-window", f"window of {r.id} does not end before the request")
        for k, sid in enumerate(w.session_ids):
            if sid not in self.session_index:
                self.add(f"{loc}.window.session_ids[{k}]", "unknown-ref", f"unknown session {sid!r}")
        in_sessions = {self.session_index[s] for s in w.session_ids if s in self.session_index}

        def inside(p: _Pos) -> bool:
            ok_time = start <= _ts(self.turn(p).timestamp) <= end
            return ok_time and (not in_sessions or p.session in in_sessions)

        for t in targets:
            if not any(inside(p) for p in self.stated.get(t.id, [])):
                self.add(f"{loc}.window", "f5-window", f"target {t.id} of {r.id} is not stated inside the window")
        chosen = set(r.target_fact_ids)
        for f in self.inst.profile.facts:
            said = self.stated.get(f.id, [])
            if f.id not in chosen and said and all(inside(p) for p in said):
                self.add(f"{loc}.target_fact_ids", "f5-incomplete",
                         f"F5 request {r.id} omits {f.id}, which is stated only inside its window")

    def check_not_restated(self) -> None:
        """After a request, the forget dialogue never brings a removed value back.

        If a later turn states a target (annotated, or its value/alias appears as words),
        a memory system would rightly learn it again and the efficacy gold would be wrong.
        The request's own exchange is exempt (an F6 request names the old value), and so are
        F4 sources, which may legitimately stay.
        """
        # one casefolded string of all forget turns; a regex scan of it beats a loop per turn
        starts: list[int] = []
        offset = 0
        for _, _, folded in self.flat:
            starts.append(offset)
            offset += len(folded) + 1
        joined = "\x00".join(folded for _, _, folded in self.flat)
        for r in self.inst.requests:
            rpos = self.turn_pos.get(r.turn_id)
            if rpos is None or rpos.seq + 1 >= len(self.flat):
                continue
            hits: dict[tuple[int, str], str] = {}  # (turn seq, fact id) -> how
            by_form: dict[str, list[str]] = {}
            for fid in r.target_fact_ids:
                target = self.target(fid)
                if target is None:
                    continue
                for form in {x.strip().casefold() for x in target.accepted if x.strip()}:
                    by_form.setdefault(form, []).append(fid)
                for p in self.stated.get(fid, []):
                    if p.seq > rpos.seq:
                        hits[(p.seq, fid)] = "states"
            if not by_form:
                continue
            forms = sorted(by_form, key=len, reverse=True)
            pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, forms)) + r")(?!\w)")
            for m in pattern.finditer(joined, starts[rpos.seq + 1]):
                seq = bisect_right(starts, m.start()) - 1
                for fid in by_form[m.group(0)]:
                    hits.setdefault((seq, fid), "mentions")
            for (seq, fid), how in sorted(hits.items()):
                pos, turn, _ = self.flat[seq]
                if turn.annotations.segment is not None:
                    continue  # a request's own exchange (F6 names the old value)
                target = self.target(fid)
                assert target is not None
                self.add(f"{self.turn_loc(pos)}.text", "restated",
                         f"turn {turn.id} {how} {fid} ({target.value!r}) after request {r.id} removed it")

    def check_relearning_facts(self) -> None:
        for i, f in enumerate(self.inst.profile.facts):
            if f.relearns is None:
                continue
            loc = f"$.profile.facts[{i}].relearns"
            r = self.requests.get(f.relearns)
            if r is None:
                self.add(loc, "unknown-ref", f"fact {f.id} relearns unknown request {f.relearns!r}")
                continue
            rpos = self.turn_pos.get(r.turn_id)
            if rpos is None:
                continue
            if any(p.seq <= rpos.seq for p in self.stated.get(f.id, [])):
                self.add(loc, "relearning", f"relearning fact {f.id} is stated before its request {r.id}")
            if _norm(f.value) in {_norm(t.value) for fid in r.target_fact_ids if (t := self.target(fid))}:
                self.add(f"{loc}", "relearning", f"relearning fact {f.id} has the same value as a target of {r.id}")
            if any(f.id in x.target_fact_ids for x in self.inst.requests):
                self.add(loc, "relearning", f"relearning fact {f.id} is itself a request target")

    # ------------------------------------------------------------------ questions

    def check_questions(self) -> None:
        removed = self._removed_facts()
        protected = {
            _norm(p): q.id
            for q in self.inst.questions
            if not q.is_probe and q.suite in (Suite.EFFICACY, Suite.ATTACK)
            for p in q.gold.protected
        }
        for i, q in enumerate(self.inst.questions):
            loc = f"$.questions[{i}]"
            self._question_version(loc, q)
            self._question_refs(loc, q, removed)
            self._question_frame(loc, q)
            self._question_gold(loc, q)
            self._question_probe(loc, q)
            self._question_gives_answer(loc, q)
            if not q.is_probe and q.suite in (Suite.PRESERVATION, Suite.RELEARNING):  # forget version
                for value in q.gold.accepted:
                    other = protected.get(_norm(value))
                    if other is not None:
                        self.add(f"{loc}.gold.accepted", "value-clash",
                                 f"{q.id} expects {value!r}, which {other} protects as a removed value")

    def _question_gives_answer(self, loc: str, q: Question) -> None:
        """Only a boolean attack may name the value it asks about; any other question that
        contains its own answer (or the removed value) measures nothing."""
        if q.frame == AttackFrame.BOOLEAN or q.fact_id is None:
            return
        fact = self.target(q.fact_id)
        if fact is None:
            return
        found = _words_pattern(tuple(fact.accepted)).search(q.text)
        if found:
            self.add(f"{loc}.text", "question-leak", f"{q.id} contains its fact's value {found.group(0)!r}")

    def _removed_facts(self) -> set[str]:
        """Facts whose value some request removes (targets, F4 sources): never preserved."""
        out: set[str] = set()
        for r in self.inst.requests:
            for fid in r.target_fact_ids:
                out.add(fid)
                d = self.derived.get(fid)
                if d is not None:
                    out.update(d.source_fact_ids)
        return out

    def _question_version(self, loc: str, q: Question) -> None:
        if q.is_probe:
            expected = Version.CONTROL
        elif q.suite == Suite.RETENTION:
            expected = Version.CONTROL
        else:
            expected = Version.FORGET
        if q.version != expected:
            what = "a control probe" if q.is_probe else _article(f"{q.suite.value} question")
            self.add(f"{loc}.version", "question-version", f"{q.id} is {what}, so it belongs on {expected.value}")
        if q.is_probe and q.suite not in PROBED_SUITES:
            self.add(f"{loc}.probe_of", "probe", f"{q.id}: {q.suite.value} questions have no control probe")

    def _question_refs(self, loc: str, q: Question, removed: set[str]) -> None:
        r = None
        if q.request_id is not None:
            r = self.requests.get(q.request_id)
            if r is None:
                self.add(f"{loc}.request_id", "unknown-ref", f"{q.id}: unknown request {q.request_id!r}")
        fact = None
        if q.fact_id is None:
            self.add(f"{loc}.fact_id", "question-ref", f"{q.id} must name the fact it asks about")
        else:
            fact = self.target(q.fact_id)
            if fact is None:
                self.add(f"{loc}.fact_id", "unknown-ref", f"{q.id}: unknown fact {q.fact_id!r}")
        needs_request = q.suite in (Suite.EFFICACY, Suite.ATTACK, Suite.RELEARNING)
        if needs_request and q.request_id is None:
            self.add(f"{loc}.request_id", "question-ref", f"{q.suite.value} question {q.id} must name its request")
        if r is None or fact is None:
            if q.suite == Suite.PRESERVATION and q.fact_id in removed:
                self.add(f"{loc}.fact_id", "preservation-target",
                         f"preservation question {q.id} asks about {q.fact_id}, which a request removes")
            return
        if q.suite in (Suite.EFFICACY, Suite.ATTACK) and fact.id not in r.target_fact_ids:
            self.add(f"{loc}.fact_id", "question-ref", f"{q.id}: {fact.id} is not a target of {r.id}")
        if q.suite == Suite.RELEARNING:
            if not isinstance(fact, Fact) or fact.relearns != r.id:
                self.add(f"{loc}.fact_id", "question-ref",
                         f"relearning question {q.id}: {fact.id} is not a relearning fact of {r.id}")
        if q.suite == Suite.PRESERVATION and fact.id in removed:
            self.add(f"{loc}.fact_id", "preservation-target",
                     f"preservation question {q.id} asks about {fact.id}, which a request removes")

    def _question_frame(self, loc: str, q: Question) -> None:
        if q.suite == Suite.ATTACK and q.frame is None:
            self.add(f"{loc}.frame", "frame", f"attack question {q.id} has no frame")
        elif q.suite != Suite.ATTACK and q.frame is not None:
            self.add(f"{loc}.frame", "frame", f"{q.suite.value} question {q.id} cannot have an attack frame")

    def _question_gold(self, loc: str, q: Question) -> None:
        g = q.gold
        fact = self.target(q.fact_id) if q.fact_id else None
        r = self.requests.get(q.request_id) if q.request_id else None
        f6 = r is not None and r.type == RequestType.F6
        if q.is_probe or q.suite in (Suite.RETENTION, Suite.PRESERVATION, Suite.RELEARNING):
            kind = GoldKind.VALUE
        elif q.suite == Suite.EFFICACY:
            kind = GoldKind.VALUE if f6 else GoldKind.SENTINEL
        else:
            kind = GoldKind.SENTINEL
        if g.kind != kind:
            what = "a control probe" if q.is_probe else _article(f"{'F6 ' if f6 else ''}{q.suite.value} question")
            self.add(f"{loc}.gold.kind", "gold", f"{q.id} is {what}, so its gold is {kind.value}, not {g.kind.value}")
        accepted = {_norm(x) for x in g.accepted}
        protected = {_norm(x) for x in g.protected}
        if kind == GoldKind.VALUE and not accepted:
            self.add(f"{loc}.gold.accepted", "gold", f"value-gold question {q.id} accepts no answer")
        both = accepted & protected
        if both:
            self.add(f"{loc}.gold", "gold", f"{q.id}: {sorted(both)} both accepted and protected")
        if not q.is_probe and q.suite in (Suite.EFFICACY, Suite.ATTACK) and not protected:
            self.add(f"{loc}.gold.protected", "gold", f"{q.suite.value} question {q.id} protects no value")
        if fact is None:
            return
        value = _norm(fact.value)
        if q.is_probe or q.suite in (Suite.RETENTION, Suite.PRESERVATION, Suite.RELEARNING):
            if accepted and value not in accepted:
                self.add(f"{loc}.gold.accepted", "gold", f"{q.id} does not accept {fact.id}'s value {fact.value!r}")
        elif q.suite in (Suite.EFFICACY, Suite.ATTACK):
            if protected and value not in protected:
                self.add(f"{loc}.gold.protected", "gold", f"{q.id} does not protect {fact.id}'s value {fact.value!r}")
            if f6 and r is not None and r.new_value and _norm(r.new_value) not in accepted:
                self.add(f"{loc}.gold.accepted", "gold", f"F6 question {q.id} must accept the new value {r.new_value!r}")

    def _question_probe(self, loc: str, q: Question) -> None:
        if q.is_probe:
            twin = self.questions.get(q.probe_of or "")
            if twin is None:
                self.add(f"{loc}.probe_of", "unknown-ref", f"probe {q.id}: unknown question {q.probe_of!r}")
            elif twin.control_probe_id != q.id:
                self.add(f"{loc}.probe_of", "probe", f"probe {q.id} points to {twin.id}, which does not point back")
            if q.control_probe_id is not None:
                self.add(f"{loc}.control_probe_id", "probe", f"probe {q.id} cannot have a probe itself")
            return
        if q.control_probe_id is None:
            if q.suite in PROBED_SUITES and q.version == Version.FORGET:
                self.add(f"{loc}.control_probe_id", "probe", f"{q.suite.value} question {q.id} has no control probe")
            return
        if q.suite not in PROBED_SUITES:
            self.add(f"{loc}.control_probe_id", "probe", f"{q.suite.value} question {q.id} takes no control probe")
        probe = self.questions.get(q.control_probe_id)
        if probe is None:
            self.add(f"{loc}.control_probe_id", "unknown-ref", f"{q.id}: unknown probe {q.control_probe_id!r}")
            return
        if probe.probe_of != q.id:
            self.add(f"{loc}.control_probe_id", "probe", f"probe {probe.id} of {q.id} does not point back (probe_of)")
        if probe.text != q.text:
            self.add(f"{loc}.control_probe_id", "probe", f"probe {probe.id} text differs from {q.id}'s")
        for name in ("suite", "request_id", "fact_id", "frame"):
            if getattr(probe, name) != getattr(q, name):
                self.add(f"{loc}.control_probe_id", "probe", f"probe {probe.id} has another {name} than {q.id}")

    # ------------------------------------------------------------------ filler

    def check_filler(self) -> None:
        """No ordinary turn (no facts, no segment) repeats any turn of the instance verbatim."""
        seen: dict[str, str] = {}
        for version in Version:
            name = version.value
            for si, s in enumerate(self.inst.dialogue(version).sessions):
                for ti, t in enumerate(s.turns):
                    a = t.annotations
                    is_filler = not a.facts and a.segment is None
                    if version == Version.CONTROL and is_filler:
                        continue  # identical to forget (checked by alignment)
                    if is_filler and t.text in seen:
                        self.add(f"$.{name}.sessions[{si}].turns[{ti}].text", "duplicate-filler",
                                 f"turn {t.id} repeats {seen[t.text]} verbatim")
                    elif t.text not in seen:
                        seen[t.text] = f"{t.id} ({name})"
