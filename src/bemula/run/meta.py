"""``meta.json``: everything needed to know what a run folder holds and to recompute it.

Written when a run folder is created and checked on every resume: a run folder holds the
answers of exactly one (dataset, system, backbone) combination, so resuming with a different
dataset, system, backbone, model or index is refused rather than mixed in.

Secrets: API keys come only from the environment and never reach this file. Besides never
putting them in, ``redact_secrets`` replaces any string that contains the value of an
environment variable whose name looks secret (``*KEY*``, ``*TOKEN*``, ``*SECRET*``,
``*PASSWORD*``) — a second line of defence against a ``describe()`` that leaks one.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

META_NAME = "meta.json"
META_FORMAT = "1"

#: Fields that must match for a run folder to be resumed.
IDENTITY_FIELDS = ("dataset_checksum", "system", "backbone", "model", "index", "system_options")

#: Packages whose versions every run records (plus the system's own package, if any).
RECORDED_PACKAGES = ("bemula", "pydantic", "typer", "rich", "openai", "numpy")

_SECRET_NAME_PARTS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
REDACTED = "<redacted>"


class RunFolderMismatch(RuntimeError):
    """The run folder was started with other settings; the message says which and what to do."""


def package_versions(extra: tuple[str, ...] = ()) -> dict[str, str]:
    versions: dict[str, str] = {"python": platform.python_version()}
    for name in (*RECORDED_PACKAGES, *extra):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit(path: Path | None = None) -> dict[str, Any]:
    """The commit of the bemula source tree (and whether it had local changes), if it is a
    git checkout; ``{}`` otherwise (an installed wheel)."""
    here = path or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=here, capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {}
    return {"commit": commit, "dirty": bool(dirty)}


def secret_values(environ: dict[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    return [
        value
        for name, value in env.items()
        if len(value) >= 8 and any(part in name.upper() for part in _SECRET_NAME_PARTS)
    ]


def redact_secrets(data: Any, secrets: list[str] | None = None) -> Any:
    """A copy of ``data`` with every string containing a secret replaced by ``<redacted>``,
    and every value under a key that names a secret (``api_key``...) dropped to it too."""
    secrets = secret_values() if secrets is None else secrets

    def walk(value: Any, key: str = "") -> Any:
        if _is_secret_key(key) and value not in (None, "", False):
            return REDACTED
        if isinstance(value, dict):
            return {k: walk(v, str(k)) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        if isinstance(value, str) and any(s in value for s in secrets):
            return REDACTED
        return value

    return walk(data)


def _is_secret_key(key: str) -> bool:
    lowered = key.lower().replace("-", "_")
    return lowered in _SECRET_KEYS or lowered.endswith(("_api_key", "_secret", "_password"))


_SECRET_KEYS = frozenset({"api_key", "apikey", "key", "token", "access_token", "secret", "password", "authorization"})


def now_utc() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_meta(out: Path, meta: dict[str, Any]) -> None:
    """Atomically (re)write ``meta.json`` (secrets redacted)."""
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / (META_NAME + ".tmp")
    tmp.write_text(json.dumps(redact_secrets(meta), indent=1, sort_keys=False, default=str) + "\n", encoding="utf-8")
    os.replace(tmp, out / META_NAME)


def read_meta(out: Path) -> dict[str, Any] | None:
    path = out / META_NAME
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunFolderMismatch(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None


def check_identity(out: Path, existing: dict[str, Any], identity: dict[str, Any]) -> None:
    """Refuse to resume into a folder whose identity differs from this command's."""
    old = existing.get("identity", {})
    diffs = [
        f"{name}: folder has {old.get(name)!r}, this command has {identity.get(name)!r}"
        for name in IDENTITY_FIELDS
        if old.get(name) != identity.get(name)
    ]
    if diffs:
        raise RunFolderMismatch(
            f"{out / META_NAME}: cannot resume, the run folder was started with other settings "
            f"({'; '.join(diffs)}); use a new --out folder or the original settings"
        )
