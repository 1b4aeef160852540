"""Corrupt and hostile dataset folders, by kind: the hardening suite and the robustness
table in docs/robustness.md are made from this one list.

Each kind edits a fresh copy of the tiny dataset (``bemula.testing.tiny``) in place.
"Resealed" kinds then recompute every sha256 and the dataset checksum, as a careful attacker
would, so that the only thing wrong is the edit itself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bemula.dataset import MANIFEST_NAME, canonical_json, sha256_bytes

Corruption = Callable[[Path], object]
"""Edits a dataset folder in place; any return value (e.g. a byte count) is ignored."""
KINDS: dict[str, Corruption] = {}


def kind(name: str) -> Callable[[Corruption], Corruption]:
    def register(fn: Corruption) -> Corruption:
        KINDS[name] = fn
        return fn

    return register


def reseal(root: Path) -> None:
    """Recompute every listed file's sha256 and the dataset checksum (raw JSON edit)."""
    manifest = json.loads((root / MANIFEST_NAME).read_bytes())
    for entry in manifest["instances"]:
        path = root / entry["file"]
        if path.is_file() and not path.is_symlink():
            entry["sha256"] = sha256_bytes(path.read_bytes())
    lines = sorted(f"{e['id']} {e['sha256']}" for e in manifest["instances"])
    manifest["checksum"] = sha256_bytes("\n".join(lines).encode("utf-8"))
    (root / MANIFEST_NAME).write_bytes(canonical_json(manifest))


def _manifest(root: Path) -> Path:
    return root / MANIFEST_NAME


def _inst(root: Path) -> Path:
    return root / "instances" / "tiny-a.json"


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    """Load a JSON file, apply ``change`` to it in place, write it back canonically."""
    data = json.loads(path.read_bytes())
    change(data)
    path.write_bytes(canonical_json(data))


def _edit_manifest(change: Callable[[Any], None]) -> Corruption:
    return lambda root: edit_json(_manifest(root), change)


def _edit_instance(change: Callable[[Any], None]) -> Corruption:
    def corrupt(root: Path) -> None:
        edit_json(_inst(root), change)
        reseal(root)

    return corrupt


def _resealed(edit: Corruption) -> Corruption:
    """Apply ``edit`` and then reseal the folder."""

    def corrupt(root: Path) -> None:
        edit(root)
        reseal(root)

    return corrupt


def _replace_file(which: Callable[[Path], Path], make: Callable[[Path], object]) -> Corruption:
    def corrupt(root: Path) -> None:
        path = which(root)
        path.unlink()
        make(path)

    return corrupt


def _write(data: bytes) -> Callable[[Path], object]:
    return lambda path: path.write_bytes(data)


def _truncate(path: Path) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])


# -- the manifest file ------------------------------------------------------------------------
kind("manifest missing")(lambda r: _manifest(r).unlink())
kind("manifest empty")(lambda r: _manifest(r).write_bytes(b""))
kind("manifest not JSON")(lambda r: _manifest(r).write_bytes(b"manifest: yes\n"))
kind("manifest truncated")(lambda r: _truncate(_manifest(r)))
kind("manifest a JSON list")(lambda r: _manifest(r).write_bytes(b"[1, 2, 3]"))
kind("manifest not UTF-8")(lambda r: _manifest(r).write_bytes(b'{"name": "\xff\xfe"}'))
kind("manifest NUL bytes")(lambda r: _manifest(r).write_bytes(b"\x00" * 64))
kind("manifest nested 100,000 deep")(lambda r: _manifest(r).write_bytes(b"[" * 100_000 + b"]" * 100_000))
kind("manifest is a directory")(_replace_file(_manifest, lambda p: p.mkdir()))
kind("manifest is a named pipe")(_replace_file(_manifest, lambda p: os.mkfifo(p)))
kind("manifest symlink loop")(_replace_file(_manifest, lambda p: p.symlink_to(p)))
kind("manifest format version 2.0")(_edit_manifest(lambda m: m.update(format_version="2.0")))
kind("manifest wrong dataset checksum")(_edit_manifest(lambda m: m.update(checksum="0" * 64)))
kind("manifest without instances")(_edit_manifest(lambda m: m.pop("instances")))
kind("manifest unknown key")(_edit_manifest(lambda m: m.update(extra="x")))
kind("manifest 5,000-digit count")(lambda r: _manifest(r).write_bytes(
    _manifest(r).read_bytes().replace(b'"counts": {}', b'"counts": {"turns": ' + b"9" * 5000 + b"}", 1)))
kind("manifest count out of range")(_edit_manifest(lambda m: m["counts"].update(turns=10**12)))

# -- manifest entries -------------------------------------------------------------------------
kind("entry id ../../victim")(_edit_manifest(lambda m: m["instances"][0].update(id="../../victim")))
kind("entry id with a slash")(_edit_manifest(lambda m: m["instances"][0].update(id="a/b")))
kind("entry id hidden (.x)")(_edit_manifest(lambda m: m["instances"][0].update(id=".x")))
kind("entry file absolute path")(_edit_manifest(lambda m: m["instances"][0].update(file="/etc/hostname")))
kind("entry file ../outside.json")(_edit_manifest(lambda m: m["instances"][0].update(file="../outside.json")))


@kind("entry file symlink out of the folder")
def _symlink_out(root: Path) -> None:
    outside = root.parent / "outside.json"
    outside.write_bytes(_inst(root).read_bytes())
    (root / "instances" / "link.json").symlink_to(outside)
    edit_json(_manifest(root), lambda m: m["instances"][0].update(file="instances/link.json"))
    reseal(root)


kind("entry sha256 mismatch")(_edit_manifest(lambda m: m["instances"][0].update(sha256="f" * 64)))
kind("entry duplicate id")(_resealed(lambda r: edit_json(_manifest(r), lambda m: m["instances"][1].update(id="tiny-a"))))
kind("entry id differs from its file")(_resealed(lambda r: edit_json(_manifest(r), lambda m: m["instances"][0].update(id="tiny-z"))))
kind("entry tier wrong")(_edit_manifest(lambda m: m["instances"][0].update(tier="long")))
kind("entry tier unknown")(_edit_manifest(lambda m: m["instances"][0].update(tier="huge")))
kind("entry turns_per_version wrong")(_edit_manifest(lambda m: m["instances"][0].update(turns_per_version=7)))
kind("entry questions negative")(_edit_manifest(lambda m: m["instances"][0].update(questions=-1)))
kind("entry file missing")(lambda r: _inst(r).unlink())
kind("lite ids name an unknown instance")(_edit_manifest(lambda m: m["lite_ids"].append("tiny-q")))
kind("lite ids with a traversal id")(_edit_manifest(lambda m: m["lite_ids"].append("../x")))

# -- instance files ---------------------------------------------------------------------------
kind("instance empty")(lambda r: _inst(r).write_bytes(b""))
kind("instance not JSON")(lambda r: _inst(r).write_bytes(b"<html>not json</html>"))
kind("instance truncated")(_resealed(lambda r: _truncate(_inst(r))))
kind("instance not UTF-8")(_resealed(lambda r: _inst(r).write_bytes(_inst(r).read_bytes().replace(b"Maya", b"M\xffya", 1))))
kind("instance is a directory")(_replace_file(_inst, lambda p: p.mkdir()))
kind("instance is a named pipe")(_replace_file(_inst, lambda p: os.mkfifo(p)))
kind("instance symlink loop")(_replace_file(_inst, lambda p: p.symlink_to(p)))
kind("instance nested 100,000 deep")(_resealed(lambda r: _inst(r).write_bytes(b"[" * 100_000 + b"]" * 100_000)))
kind("instance 5,000-digit integer")(_resealed(lambda r: _inst(r).write_bytes(
    _inst(r).read_bytes().replace(b'"tier": "short"', b'"tier": ' + b"7" * 5000, 1))))


@kind("instance id ../../victim (resealed)")
def _instance_id_traversal(root: Path) -> None:
    edit_json(_inst(root), lambda d: d.update(id="../../victim"))
    edit_json(_manifest(root), lambda m: m["instances"][0].update(id="../../victim"))
    reseal(root)


kind("instance id differs from its entry (resealed)")(_edit_instance(lambda d: d.update(id="tiny-c")))
kind("instance without questions (resealed)")(_edit_instance(lambda d: d.pop("questions")))
kind("instance unknown field (resealed)")(_edit_instance(lambda d: d.update(notes="x")))
kind("instance tier unknown (resealed)")(_edit_instance(lambda d: d.update(tier="enormous")))
kind("turn role unknown (resealed)")(_edit_instance(lambda d: d["forget"]["sessions"][0]["turns"][0].update(role="narrator")))
kind("turn timestamp malformed (resealed)")(_edit_instance(
    lambda d: d["forget"]["sessions"][0]["turns"][0].update(timestamp="yesterday-ish")))
kind("session without turns (resealed)")(_edit_instance(lambda d: d["forget"]["sessions"][0].update(turns=[])))
kind("duplicate turn id (resealed)")(_edit_instance(
    lambda d: d["forget"]["sessions"][0]["turns"][1].update(id=d["forget"]["sessions"][0]["turns"][0]["id"])))
kind("duplicate question id (resealed)")(_edit_instance(lambda d: d["questions"][1].update(id=d["questions"][0]["id"])))
kind("question about an unknown fact (resealed)")(_edit_instance(lambda d: d["questions"][0].update(fact_id="A999")))
kind("request on an unknown turn (resealed)")(_edit_instance(lambda d: d["requests"][0].update(turn_id="S99-T999")))
kind("request targets an unknown fact (resealed)")(_edit_instance(lambda d: d["requests"][0].update(target_fact_ids=["A999"])))
kind("control version misses a turn (resealed)")(_edit_instance(lambda d: d["control"]["sessions"][0]["turns"].pop()))
kind("control probe points nowhere (resealed)")(_edit_instance(
    lambda d: next(q for q in d["questions"] if q.get("control_probe_id")).update(control_probe_id="Q999")))
