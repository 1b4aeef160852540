"""Pick a backbone and get a ready :class:`LLMClient`: ``local`` or ``openai`` (``endpoint``).

Why one context manager: the local backbone owns a server that must be stopped, the cache
owns SQLite connections that must be closed; callers should not care which they got.

Resolution for ``openai``: explicit arguments first, then ``BEMULA_BASE_URL`` /
``BEMULA_API_KEY`` / ``BEMULA_MODEL``, then ``OPENAI_BASE_URL`` / ``OPENAI_API_KEY``. With a
key but no base URL, OpenAI's own URL is assumed. Nothing is guessed beyond that: missing
settings give one clear :class:`LLMUnavailable` line.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bemula.llm.cache import RequestCache, default_cache_path
from bemula.llm.client import LLMClient, LLMConfig, LLMError, LLMUnavailable

BACKBONES = ("local", "openai", "endpoint")
OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"
LOCAL_TIMEOUT_S = 600.0


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


def endpoint_settings(
    *, model: str | None, base_url: str | None, api_key: str | None
) -> tuple[str, str, str | None]:
    """(model, base_url, api_key) for the ``openai`` backbone from arguments and environment."""
    key = api_key or _env("BEMULA_API_KEY", "OPENAI_API_KEY")
    url = base_url or _env("BEMULA_BASE_URL", "OPENAI_BASE_URL")
    if url is None:
        if key is None:
            raise LLMUnavailable(
                "no LLM endpoint configured: pass --base-url or set BEMULA_BASE_URL "
                "(and BEMULA_API_KEY if it needs one), or use --backbone local"
            )
        url = OPENAI_DEFAULT_BASE_URL
    name = model or _env("BEMULA_MODEL")
    if name is None:
        raise LLMUnavailable("no model name for the endpoint: pass --model or set BEMULA_MODEL")
    return name, url, key


@contextmanager
def open_llm(
    backbone: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    cache_path: Path | None = None,
    use_cache: bool = True,
    gguf: str | Path | None = None,
    **kw: Any,
) -> Iterator[LLMClient]:
    """A client for ``backbone``; stops the local server and closes the cache on exit.

    ``kw`` goes to :class:`LLMConfig` (``timeout_s``, ``max_retries``, ``concurrency``,
    ``temperature``, ``context_window``). For ``local``, ``model`` is ``local-0.5b``
    (default) or ``local-1.5b``; ``gguf`` (or ``$BEMULA_GGUF``) uses any GGUF file instead,
    and ``context_window`` is the context per parallel slot (default 8192).
    """
    kind = backbone.strip().lower()
    if kind not in BACKBONES:
        raise LLMError(f"unknown backbone {backbone!r}; use 'local' or 'openai' (alias 'endpoint')")
    cache = RequestCache(cache_path or default_cache_path()) if use_cache else None
    try:
        if kind == "local":
            with _open_local(model=model, gguf=gguf, cache=cache, **kw) as client:
                yield client
        else:
            name, url, key = endpoint_settings(model=model, base_url=base_url, api_key=api_key)
            config = LLMConfig(model=name, base_url=url, api_key=key, **kw)
            client = LLMClient(config, cache)
            try:
                yield client
            finally:
                client.close()
    finally:
        if cache is not None:
            cache.close()


@contextmanager
def _open_local(
    *, model: str | None, gguf: str | Path | None, cache: RequestCache | None, **kw: Any
) -> Iterator[LLMClient]:
    from bemula.llm.local import DEFAULT_CONTEXT_PER_SLOT, SHARED_SERVERS, ServerSettings
    from bemula.llm.weights import resolve_weights

    weights = resolve_weights(model, gguf)
    # a CPU model on a busy machine can take minutes on a long prompt; a timeout would only
    # resubmit the same work to the same server, so wait longer than for a remote endpoint
    kw.setdefault("timeout_s", LOCAL_TIMEOUT_S)
    context = kw.pop("context_window", None) or DEFAULT_CONTEXT_PER_SLOT
    concurrency = int(kw.get("concurrency", LLMConfig.__dataclass_fields__["concurrency"].default))
    settings = ServerSettings(context_per_slot=context, parallel=concurrency)
    server = SHARED_SERVERS.acquire(weights, settings)
    try:
        if weights.sha256 is not None:
            namespace = f"local-gguf:sha256:{weights.sha256}"
        else:  # a user GGUF: hashing gigabytes per run is too slow; name + size identify it
            namespace = f"local-gguf:{weights.path.name}:{weights.path.stat().st_size}"
        config = LLMConfig(
            model=weights.label,
            base_url=server.base_url,
            context_window=context,
            cache_namespace=namespace,
            **kw,
        )
        client = LLMClient(config, cache)
        try:
            yield client
        finally:
            client.close()
    finally:
        SHARED_SERVERS.release(server)


__all__ = ["BACKBONES", "endpoint_settings", "open_llm"]
