"""``meta.json``: what a run folder holds and everything needed to recompute it, as one typed model.

Written when a run folder is created and checked on every resume: a run folder holds the
answers of exactly one (dataset, system, backbone) combination, so resuming with a different
dataset, system, backbone, model, index, system options or embedder is refused rather than
mixed in. A change to the system's *code* is not refused (one edits one's own system and
re-runs): it is reported, and ``bemula run --redo`` answers everything again.

Format versions: ``2`` is this model. ``1`` (bemula 0.1 before the contract) is read and
upgraded in memory; anything else is refused with a message naming its version.

Secrets: API keys come only from the environment and never reach this file. Besides never
putting them in, ``redact_secrets`` replaces any string that contains the value of an
environment variable whose name looks secret (``*KEY*``, ``*TOKEN*``, ``*SECRET*``,
``*PASSWORD*``) — a second line of defence against a ``describe()`` that leaks one.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bemula.runfolder.jsonl import atomic_write_text
from bemula.runfolder.names import META_NAME

META_FORMAT = "2"
#: formats this bemula reads (older ones are upgraded in memory, never rewritten in place)
READABLE_FORMATS = ("1", "2")

#: Fields that must match for a run folder to be resumed.
IDENTITY_FIELDS = ("dataset_checksum", "system", "backbone", "model", "index", "system_options", "inputs")

#: Packages whose versions every run records (plus the system's own package, if any).
RECORDED_PACKAGES = ("bemula", "pydantic", "typer", "rich", "openai", "numpy")

#: Environment variables that change results without a flag (the embedder systems use, the
#: local model's weights): recorded in the identity, so a resume cannot switch them.
RESULT_ENV_VARS = ("BEMULA_EMBEDDER", "BEMULA_EMBED_BASE_URL", "BEMULA_EMBED_MODEL", "BEMULA_EMBED_DIMS", "BEMULA_GGUF")

_SECRET_NAME_PARTS = ("KEY", "TOKEN", "SECRET", "PASSWORD")
REDACTED = "<redacted>"


class RunFolderMismatch(RuntimeError):
    """The run folder was started with other settings; the message says which and what to do."""


class MetaError(ValueError):
    """``meta.json`` cannot be read (broken JSON, an unknown format); the message names the file."""


class _Meta(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunIdentity(_Meta):
    """What must match for answers to belong together in one folder."""

    dataset_checksum: str
    system: str
    backbone: str
    model: str | None = None
    index: str = "bm25"
    system_options: dict[str, Any] = Field(default_factory=dict)
    inputs: dict[str, str] = Field(default_factory=dict, description="result-changing environment (RESULT_ENV_VARS)")


class DatasetInfo(_Meta):
    path: str
    checksum: str
    name: str = ""
    format_version: str = ""
    generator: dict[str, Any] | str | None = None


class SystemInfoMeta(_Meta):
    name: str
    description: str = ""
    version: str = Field(default="", description="the third-party package's version ('' for built-ins)")
    supports_fork: bool = False
    code_version: str = Field(default="", description="hash of the system's source files when its answers were written")


class GitInfo(_Meta):
    commit: str = ""
    dirty: bool = False


class Invocation(_Meta):
    started: str
    config: dict[str, Any]
    dataset_check: dict[str, Any] = Field(default_factory=dict)
    redo: bool = False
    code_version: str = Field(default="", description="the system's code_version during this invocation")


class RunMeta(_Meta):
    """The whole of ``meta.json`` (format 2)."""

    format: str = META_FORMAT
    created: str
    identity: RunIdentity
    config: dict[str, Any]
    seed: int = 0
    dataset: DatasetInfo
    system: SystemInfoMeta
    backbone: dict[str, Any] = Field(default_factory=dict)
    agent_prompt_hash: str = ""
    packages: dict[str, str] = Field(default_factory=dict)
    git: GitInfo | None = None
    invocations: list[Invocation] = Field(default_factory=list)

    @property
    def label(self) -> str:
        """How tables name this run: system (backbone[:model])."""
        backbone = self.identity.backbone
        model = self.identity.model or str(self.backbone.get("model") or "")
        if model and model != backbone:
            backbone = f"{backbone}:{model}" if backbone else model
        return f"{self.identity.system} ({backbone})" if backbone else self.identity.system


def package_versions(extra: tuple[str, ...] = ()) -> dict[str, str]:
    versions: dict[str, str] = {"python": platform.python_version()}
    for name in (*RECORDED_PACKAGES, *extra):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def git_commit(path: Path | None = None) -> GitInfo | None:
    """The commit of the bemula source tree (and whether it had local changes), if it is a
    git checkout; ``None`` otherwise (an installed wheel)."""
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
        return None
    return GitInfo(commit=commit, dirty=bool(dirty))


def result_inputs(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The result-changing environment variables that are set (never a key: none is one)."""
    env = os.environ if environ is None else environ
    return {name: env[name] for name in RESULT_ENV_VARS if env.get(name)}


def code_version(cls: type) -> str:
    """A hash of the source a class's behaviour comes from: its module, or the whole package
    when the module lives in one of its own (erasemem is a package of a dozen modules).

    Editing one's system changes it, so a re-run can say that the stored answers came from
    other code. ``""`` when the source cannot be found (a class built at run time).
    """
    module = sys.modules.get(cls.__module__)
    try:
        source = Path(inspect.getfile(cls)).resolve()
    except (TypeError, OSError):
        return ""
    files = [source]
    package = getattr(module, "__package__", "") or ""
    shared = {"bemula.systems", "bemula.systems.adapters", ""}
    if package not in shared and (source.parent / "__init__.py").exists():
        files = sorted(source.parent.rglob("*.py"))
    digest = hashlib.sha256()
    for path in files:
        try:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        except OSError:
            continue
    return digest.hexdigest()[:16]


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
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_meta(out: Path, meta: RunMeta) -> None:
    """Atomically (re)write ``meta.json`` (secrets redacted)."""
    data = redact_secrets(meta.model_dump(mode="json"))
    atomic_write_text(out / META_NAME, json.dumps(data, indent=1, default=str) + "\n")


def read_meta(out: Path) -> RunMeta | None:
    """``out/meta.json`` as a ``RunMeta`` (a format-1 file upgraded in memory); ``None`` when
    the folder has none. Broken JSON or an unknown format raises ``MetaError`` naming the file."""
    path = out / META_NAME
    if not path.exists():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        line = getattr(exc, "lineno", "?")
        raise MetaError(f"{path}: line {line}: not valid JSON ({getattr(exc, 'msg', exc)})") from None
    return parse_meta(raw, path)


def parse_meta(raw: Any, path: Path | str) -> RunMeta:
    if not isinstance(raw, dict):
        raise MetaError(f"{path}: not a JSON object")
    found = str(raw.get("format", "")) or None
    if found is None:
        raise MetaError(
            f"{path}: no format version (meta.json written by hand or by a bemula before 0.1?); "
            f"this bemula reads formats {', '.join(READABLE_FORMATS)} — re-run the run into a new folder"
        )
    if found not in READABLE_FORMATS:
        raise MetaError(
            f"{path}: run-folder format {found}, this bemula reads formats {', '.join(READABLE_FORMATS)}"
            + (" — written by a newer bemula; upgrade bemula" if found > META_FORMAT else "")
        )
    if found == "1":
        raw = _upgrade_from_1(raw)
    try:
        return RunMeta.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise MetaError(f"{path}: format {found}: {where}: {first['msg']}") from None


def _upgrade_from_1(raw: dict[str, Any]) -> dict[str, Any]:
    """Format 1 had the same shape, untyped: the git entry could be ``{}``, the identity had
    no ``inputs`` (the embedder was not recorded: an unset environment is assumed)."""
    data = dict(raw)
    data["format"] = META_FORMAT
    data["git"] = data.get("git") or None
    identity = dict(data.get("identity") or {})
    identity.setdefault("inputs", {})
    data["identity"] = identity
    data["invocations"] = [
        {k: v for k, v in inv.items() if k in Invocation.model_fields}
        for inv in data.get("invocations") or [] if isinstance(inv, dict)
    ]
    return data


def check_identity(out: Path, existing: RunMeta, identity: RunIdentity) -> None:
    """Refuse to resume into a folder whose identity differs from this command's."""
    old = existing.identity.model_dump()
    new = identity.model_dump()
    diffs = [
        f"{name}: folder has {old.get(name)!r}, this command has {new.get(name)!r}"
        for name in IDENTITY_FIELDS
        if old.get(name) != new.get(name)
    ]
    if diffs:
        raise RunFolderMismatch(
            f"{out / META_NAME}: cannot resume, the run folder was started with other settings "
            f"({'; '.join(diffs)}); use a new --out folder or the original settings"
        )
