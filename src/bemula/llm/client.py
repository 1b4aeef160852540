"""One client for any OpenAI-compatible chat endpoint.

Why our own retry loop instead of the SDK's: the SDK's retries are invisible (no count, no
say in which errors repeat, no jitter control, nothing in our stats). We turn them off
(``max_retries=0``) and retry here: exponential backoff with full jitter on 408/409/429/5xx,
timeouts, dropped or refused connections and garbled bodies, honouring ``Retry-After``.
Anything else (400, 401, 404, ...) fails at once — repeating a bad request does not fix it.

Every failure that leaves this module is an :class:`LLMError` (or :class:`LLMUnavailable`
when the endpoint could not be reached at all) whose message is one line, names the endpoint,
and never contains the API key: callers print it as is.

Thread-safe: the runner calls :meth:`LLMClient.chat` from several threads; a semaphore bounds
how many requests are in flight at once (``LLMConfig.concurrency``).
"""

from __future__ import annotations

import email.utils
import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from bemula.llm.cache import RequestCache, request_key

RETRYABLE_STATUS = frozenset({408, 409, 429})
MAX_RETRY_AFTER_S = 120.0


class LLMError(RuntimeError):
    """A call failed for good (after retries, or at once for a bad request). One-line message."""


class LLMUnavailable(LLMError):
    """The endpoint could not be reached, or the local model is not installed."""


class LLMAuthError(LLMError):
    """The endpoint refused the credentials (HTTP 401/403): every later call would fail too,
    so a run stops instead of recording each question as failed."""


def redact_url(url: str) -> str:
    """Drop user:password and the query string from a URL (either can carry a secret)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


#: the shortest piece of a secret that is scrubbed wherever it appears
MIN_SECRET_FRAGMENT = 8


def scrub_secrets(text: str, secrets: list[str], *, min_fragment: int = MIN_SECRET_FRAGMENT) -> str:
    """``text`` with every run of characters that is a substring of a secret and at least
    ``min_fragment`` long replaced by ``***`` (a server may echo "sk-abcd…" or the middle of a
    key). A secret shorter than ``min_fragment`` is scrubbed only whole."""
    if not text or not any(secrets):
        return text
    mask = [False] * len(text)
    for secret in secrets:
        if not secret:
            continue
        if len(secret) < min_fragment:
            start = text.find(secret)
            while start >= 0:
                mask[start:start + len(secret)] = [True] * len(secret)
                start = text.find(secret, start + 1)
            continue
        grams = {secret[i:i + min_fragment] for i in range(len(secret) - min_fragment + 1)}
        for i in range(len(text) - min_fragment + 1):
            if text[i:i + min_fragment] in grams:
                mask[i:i + min_fragment] = [True] * min_fragment
    if not any(mask):
        return text
    out: list[str] = []
    for i, ch in enumerate(text):
        if not mask[i]:
            out.append(ch)
        elif i == 0 or not mask[i - 1]:
            out.append("***")
    return "".join(out)


@dataclass(frozen=True)
class EndpointParts:
    """A base URL split into what may be shown and what must travel as headers/query."""

    base_url: str
    headers: dict[str, str]
    query: dict[str, str]
    secrets: list[str]


def split_credentials(url: str) -> EndpointParts:
    """Take ``user:password@`` out of a base URL (sent as an HTTP Basic ``Authorization``
    header instead) and the query string (sent as default query parameters, so the SDK's
    ``/chat/completions`` path is appended to the path, not to the query)."""
    import base64
    from urllib.parse import parse_qsl

    parts = urlsplit(url)
    headers: dict[str, str] = {}
    secrets: list[str] = []
    if parts.username is not None or parts.password is not None:
        user, password = unquote(parts.username or ""), unquote(parts.password or "")
        token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
        headers["Authorization"] = f"Basic {token}"
        secrets += [password, token, user if password == "" else ""]
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    secrets += [v for v in query.values() if v]
    return EndpointParts(base_url=redact_url(url), headers=headers, query=query, secrets=[s for s in secrets if s])


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to call. ``api_key`` is never shown by ``repr`` nor by :meth:`describe`.

    ``cache_namespace`` replaces the base URL in the cache key when the URL is not a stable
    identity of the model — the embedded local server gets a fresh port every run, so it is
    keyed by the weights' hash instead.
    """

    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0
    max_retries: int = 5
    concurrency: int = 4
    temperature: float = 0.0
    context_window: int | None = None
    cache_namespace: str | None = None

    def __post_init__(self) -> None:
        if not self.model:
            raise ValueError("LLMConfig.model is empty")
        if not self.base_url:
            raise ValueError("LLMConfig.base_url is empty")
        if self.timeout_s <= 0:
            raise ValueError(f"LLMConfig.timeout_s must be > 0, got {self.timeout_s}")
        if self.max_retries < 0:
            raise ValueError(f"LLMConfig.max_retries must be >= 0, got {self.max_retries}")
        if self.concurrency < 1:
            raise ValueError(f"LLMConfig.concurrency must be >= 1, got {self.concurrency}")

    @property
    def endpoint_id(self) -> str:
        """The endpoint's identity for cache keys and metadata (no secrets)."""
        return self.cache_namespace or redact_url(self.base_url)

    def describe(self) -> dict[str, Any]:
        """Settings safe to log and store in run metadata. Never the key, only whether one is set."""
        return {
            "model": self.model,
            "base_url": redact_url(self.base_url),
            "timeout_s": self.timeout_s,
            "max_retries": self.max_retries,
            "concurrency": self.concurrency,
            "temperature": self.temperature,
            "context_window": self.context_window,
            "api_key_set": bool(self.api_key),
            "cache_namespace": self.cache_namespace,
        }


@dataclass
class ChatResult:
    text: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cached: bool
    model: str
    tool_calls: list[dict] = field(default_factory=list)
    finish_reason: str | None = None
    attempts: int = 1


@dataclass
class _Stats:
    calls: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    requests: int = 0
    retries: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    network_latency_s: float = 0.0


class _Retryable(Exception):
    """Internal: one attempt failed in a way worth repeating."""

    def __init__(self, reason: str, *, retry_after: float | None = None, unreachable: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after
        self.unreachable = unreachable


def _parse_retry_after(headers: Any) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    if headers is None:
        return None
    try:
        ms = headers.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000.0)
        value = headers.get("retry-after")
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _exception_chain(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        chain.append(current)
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return chain


def _is_connect_failure(exc: BaseException) -> bool:
    """True when no connection was ever made (refused, DNS failure, no route)."""
    for link in _exception_chain(exc):
        if type(link).__name__ in ("ConnectError", "ConnectTimeout"):
            return True
        if isinstance(link, (ConnectionRefusedError, socket.gaierror)):
            return True
    return False


def _one_line(text: str, limit: int = 300) -> str:
    text = re.sub(r"\s+", " ", str(text)).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LLMClient:
    """Chat with an OpenAI-compatible endpoint: retries, timeout, JSON, cache, accounting."""

    def __init__(
        self,
        config: LLMConfig,
        cache: RequestCache | None = None,
        *,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        import openai  # imported here so `import bemula.llm` stays cheap

        self.config = config
        self.cache = cache
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._rng_lock = threading.Lock()
        self._semaphore = threading.BoundedSemaphore(config.concurrency)
        self._in_flight: dict[str, threading.Event] = {}  # cache keys being sent now
        self._in_flight_lock = threading.Lock()
        self._stats = _Stats()
        self._stats_lock = threading.Lock()
        self._openai = openai
        endpoint = split_credentials(config.base_url)
        self._secrets = [s for s in (config.api_key, *endpoint.secrets) if s]
        self._sdk = openai.OpenAI(
            base_url=endpoint.base_url,
            # llama.cpp, vLLM and Ollama ignore the key; the SDK insists on one.
            api_key=config.api_key or "no-key",
            timeout=config.timeout_s,
            max_retries=0,
            default_headers=endpoint.headers or None,
            default_query=endpoint.query or None,
        )

    # -- public API ----------------------------------------------------------------------
    def chat(
        self,
        messages: list[dict],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        json_schema: dict | None = None,
        json_mode: bool = False,
        tools: list[dict] | None = None,
    ) -> ChatResult:
        """One chat completion (from the cache when this exact request was answered before)."""
        request = self._build_request(
            messages,
            max_tokens=max_tokens,
            temperature=temperature,
            json_schema=json_schema,
            json_mode=json_mode,
            tools=tools,
        )
        key = request_key(self.config.endpoint_id, request)
        with self._stats_lock:
            self._stats.calls += 1
        started = time.perf_counter()
        if self.cache is None:
            return self._send(key, request)
        while True:
            hit = self.cache.get(key)
            if hit is not None:
                with self._stats_lock:
                    self._stats.cache_hits += 1
                return self._result_from_stored(
                    hit.response, latency_s=time.perf_counter() - started, cached=True, attempts=0
                )
            # the same request already on its way (two questions of a concurrent run with the
            # same prompt): wait for its answer in the cache instead of paying for it twice
            with self._in_flight_lock:
                sent = self._in_flight.get(key)
                if sent is None:
                    self._in_flight[key] = threading.Event()
            if sent is None:
                break
            sent.wait()  # then look again: a hit, or (it failed) this call sends it itself
        with self._stats_lock:
            self._stats.cache_misses += 1
        try:
            return self._send(key, request)
        finally:
            with self._in_flight_lock:
                self._in_flight.pop(key).set()

    def _send(self, key: str, request: dict[str, Any]) -> ChatResult:
        """Send ``request`` (with retries) and store the answer in the cache."""
        try:
            stored, latency, attempts = self._call_with_retries(request)
        except LLMError:
            with self._stats_lock:
                self._stats.errors += 1
            raise
        if self.cache is not None:
            self.cache.put(
                key,
                model=self.config.model,
                endpoint=self.config.endpoint_id,
                request=request,
                response=stored,
                latency_s=latency,
            )
        return self._result_from_stored(stored, latency_s=latency, cached=False, attempts=attempts)

    def chat_json(
        self, messages: list[dict], *, schema: dict | None = None, **kw: Any
    ) -> tuple[Any, ChatResult]:
        """Chat asking for JSON (schema-constrained when ``schema`` is given); parsed value + result.

        Raises :class:`LLMError` when the answer is not JSON, or lacks a required top-level key.
        """
        if schema is not None:
            result = self.chat(messages, json_schema=schema, **kw)
        else:
            kw.setdefault("json_mode", True)
            result = self.chat(messages, **kw)
        value = parse_json_text(result.text)
        if value is _NOT_JSON:
            cut = " (cut off at max_tokens)" if result.finish_reason == "length" else ""
            raise LLMError(
                f"{self.config.model} at {self.config.endpoint_id} answered text that is not JSON"
                f"{cut}: {_one_line(result.text, 120)!r}"
            )
        if schema is not None and isinstance(value, dict):
            missing = [k for k in schema.get("required", []) if k not in value]
            if missing:
                raise LLMError(
                    f"{self.config.model} at {self.config.endpoint_id} answered JSON without "
                    f"required key(s) {missing}: {_one_line(result.text, 120)!r}"
                )
        return value, result

    def stats(self) -> dict[str, Any]:
        """Counters since this client was made: calls, cache hits/misses, HTTP requests, retries,
        errors, tokens spent over the network (cached answers spend none) and network seconds."""
        with self._stats_lock:
            s = self._stats
            return {
                "calls": s.calls,
                "cache_hits": s.cache_hits,
                "cache_misses": s.cache_misses,
                "requests": s.requests,
                "retries": s.retries,
                "errors": s.errors,
                "prompt_tokens": s.prompt_tokens,
                "completion_tokens": s.completion_tokens,
                "network_latency_s": round(s.network_latency_s, 6),
            }

    def describe(self) -> dict[str, Any]:
        """Config (no key) plus where the cache lives."""
        info = self.config.describe()
        info["cache"] = str(self.cache.path) if self.cache is not None else None
        return info

    def close(self) -> None:
        self._sdk.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------------
    def _build_request(
        self,
        messages: list[dict],
        *,
        max_tokens: int | None,
        temperature: float | None,
        json_schema: dict | None,
        json_mode: bool,
        tools: list[dict] | None,
    ) -> dict[str, Any]:
        if not messages:
            raise ValueError("chat() needs at least one message")
        request: dict[str, Any] = {
            "model": self.config.model,
            "messages": [dict(m) for m in messages],
            "temperature": self.config.temperature if temperature is None else temperature,
        }
        if max_tokens is not None:
            request["max_tokens"] = max_tokens
        if json_schema is not None:
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": "response",
                    "schema": json_schema,
                    "strict": strict_schema_ok(json_schema),
                },
            }
        elif json_mode:
            request["response_format"] = {"type": "json_object"}
        if tools:
            request["tools"] = tools
        return request

    def _scrub(self, text: str) -> str:
        """Remove the key and URL credentials from any text that may leave this module
        (servers echo keys back, whole or in part)."""
        return _one_line(scrub_secrets(text, self._secrets))

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        cap = min(self.backoff_max_s, self.backoff_base_s * (2**attempt))
        with self._rng_lock:
            delay = self._rng.uniform(cap / 2, cap)  # "equal jitter": never zero, spread out
        if retry_after is not None:
            delay = max(delay, min(retry_after, MAX_RETRY_AFTER_S))
        return delay

    def _call_with_retries(self, request: dict[str, Any]) -> tuple[dict[str, Any], float, int]:
        where = f"{self.config.model} at {redact_url(self.config.base_url)}"
        attempts = self.config.max_retries + 1
        last: _Retryable | None = None
        for attempt in range(attempts):
            try:
                stored, latency = self._attempt(request)
                return stored, latency, attempt + 1
            except _Retryable as failure:
                last = failure
                if attempt + 1 >= attempts:
                    break
                with self._stats_lock:
                    self._stats.retries += 1
                self._sleep(self._backoff(attempt, failure.retry_after))
        assert last is not None
        reason = self._scrub(last.reason)
        if last.unreachable:
            raise LLMUnavailable(
                f"cannot reach LLM endpoint {where} ({reason}) after {attempts} attempt(s); "
                "check --base-url / BEMULA_BASE_URL"
            )
        raise LLMError(f"LLM call to {where} failed after {attempts} attempt(s): {reason}")

    def _attempt(self, request: dict[str, Any]) -> tuple[dict[str, Any], float]:
        openai = self._openai
        where = f"{self.config.model} at {redact_url(self.config.base_url)}"
        with self._semaphore:
            with self._stats_lock:
                self._stats.requests += 1
            started = time.perf_counter()
            try:
                completion = self._sdk.chat.completions.create(**request)
            except openai.APITimeoutError as exc:
                raise _Retryable(f"timed out after {self.config.timeout_s:g}s") from exc
            except openai.APIConnectionError as exc:
                cause = exc.__cause__ or exc.__context__
                detail = _one_line(str(cause)) if cause is not None else "connection error"
                unreachable = _is_connect_failure(exc)
                kind = "connection refused or host unreachable" if unreachable else "connection dropped"
                raise _Retryable(f"{kind}: {detail}", unreachable=unreachable) from exc
            except openai.APIStatusError as exc:
                status = exc.status_code
                message = _status_message(exc)
                if status in RETRYABLE_STATUS or status >= 500:
                    raise _Retryable(
                        f"HTTP {status}: {message}",
                        retry_after=_parse_retry_after(getattr(exc.response, "headers", None)),
                    ) from exc
                hint = ""
                if status in (401, 403):
                    hint = " (check BEMULA_API_KEY / OPENAI_API_KEY)"
                elif status == 404:
                    hint = " (check the model name and --base-url)"
                error = LLMAuthError if status in (401, 403) else LLMError
                raise error(
                    f"LLM endpoint {where} rejected the request: HTTP {status}{hint}: "
                    f"{self._scrub(message)}"
                ) from None
            except (ValueError, openai.APIResponseValidationError) as exc:
                raise _Retryable(f"the endpoint answered a body that is not valid JSON ({exc})") from exc
            latency = time.perf_counter() - started
        stored = _stored_from_completion(completion)
        if stored is None:
            raise _Retryable(
                f"the endpoint answered something that is not a chat completion: "
                f"{_one_line(repr(completion), 120)}"
            )
        # a server that echoes the request's headers must not put the key into answers,
        # verdicts, the cache or the report
        stored["text"] = scrub_secrets(stored["text"], self._secrets)
        if not stored["text"].strip() and not stored["tool_calls"]:
            # an empty reply is a fault (overloaded servers return them), not an answer: retried,
            # then raised, and never cached, so a later run asks again
            raise _Retryable(f"empty completion (finish_reason {stored['finish_reason']!r})")
        with self._stats_lock:
            self._stats.prompt_tokens += stored["prompt_tokens"]
            self._stats.completion_tokens += stored["completion_tokens"]
            self._stats.network_latency_s += latency
        return stored, latency

    def _result_from_stored(
        self, stored: dict[str, Any], *, latency_s: float, cached: bool, attempts: int
    ) -> ChatResult:
        return ChatResult(
            text=stored["text"],
            prompt_tokens=int(stored["prompt_tokens"]),
            completion_tokens=int(stored["completion_tokens"]),
            latency_s=latency_s,
            cached=cached,
            model=stored.get("model") or self.config.model,
            tool_calls=list(stored.get("tool_calls") or []),
            finish_reason=stored.get("finish_reason"),
            attempts=attempts,
        )


def _status_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and error.get("message"):
            return _one_line(str(error["message"]))
        if isinstance(error, str):
            return _one_line(error)
    return _one_line(getattr(exc, "message", "") or str(exc))


def _stored_from_completion(completion: Any) -> dict[str, Any] | None:
    """What we keep of a completion: text, tool calls, tokens, finish reason, model."""
    choices = getattr(completion, "choices", None)
    if not choices:
        return None
    choice = choices[0]
    message = getattr(choice, "message", None)
    if message is None:
        return None
    tool_calls = [
        call.model_dump(exclude_none=True) if hasattr(call, "model_dump") else dict(call)
        for call in (getattr(message, "tool_calls", None) or [])
    ]
    usage = getattr(completion, "usage", None)
    return {
        "text": getattr(message, "content", None) or "",
        "tool_calls": tool_calls,
        "finish_reason": getattr(choice, "finish_reason", None),
        "prompt_tokens": int(getattr(usage, "prompt_tokens", 0) or 0),
        "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0),
        "model": getattr(completion, "model", None),
    }


def strict_schema_ok(schema: Any) -> bool:
    """Whether OpenAI's strict structured-output mode accepts ``schema``.

    Strict mode rejects (HTTP 400) any object schema that allows extra properties or leaves a
    property optional; llama.cpp and vLLM constrain decoding either way. So ask for strict only
    when the schema already meets those rules.
    """
    if isinstance(schema, list):
        return all(strict_schema_ok(item) for item in schema)
    if not isinstance(schema, dict):
        return True
    properties = schema.get("properties")
    if schema.get("type") == "object" or properties is not None:
        if schema.get("additionalProperties", True) is not False:
            return False
        if set(schema.get("required") or []) != set(properties or {}):
            return False
    children: list[Any] = list((properties or {}).values())
    for key in ("items", "anyOf", "allOf", "oneOf", "prefixItems"):
        if key in schema:
            children.append(schema[key])
    for key in ("$defs", "definitions"):
        children.extend((schema.get(key) or {}).values())
    return all(strict_schema_ok(child) for child in children)


_NOT_JSON = object()
_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


def parse_json_text(text: str) -> Any:
    """JSON from a model's answer: plain, inside a ``` fence, or the outermost {...}/[...] span.

    Returns the sentinel ``_NOT_JSON`` when nothing parses (``None`` is valid JSON).
    """
    candidates = [text.strip()]
    fenced = _FENCE.match(text)
    if fenced:
        candidates.append(fenced.group(1).strip())
    for opener, closer in (("{", "}"), ("[", "]")):
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            candidates.append(text[start : end + 1])
    for candidate in candidates:
        if not candidate:
            continue
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            continue
    return _NOT_JSON


__all__ = [
    "ChatResult",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "LLMUnavailable",
    "parse_json_text",
    "redact_url",
]
