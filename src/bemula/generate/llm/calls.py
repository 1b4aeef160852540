"""The pipeline's one door to the LLM: structured calls, validation, retries, accounting.

Every stage calls ``LLMCaller.json`` (a JSON-schema call whose answer is validated by a
pydantic model) or ``LLMCaller.text`` (a free-text dialogue turn). A malformed answer is
retried with the validation error fed back (so the retry is a *different* request — a
request cache would otherwise replay the same bad answer); after the last attempt the
caller gets ``None`` and the stage applies its deterministic fallback. Transport failures
(``LLMError``: endpoint down, retries exhausted) are not swallowed: they stop the run, and
the per-instance cache lets the next run resume.

Per stage, ``StageMeter`` counts calls, tokens, LLM seconds, cache hits, invalid outputs,
and named events (regenerations, drops, repairs) for the report and the benchmark script.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from bemula.generate.llm.prompts import Prompt

T = TypeVar("T", bound=BaseModel)


class ChatClient(Protocol):
    """The subset of ``bemula.llm.client.LLMClient`` the pipeline uses."""

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        max_tokens: int | None = ...,
        temperature: float | None = ...,
        json_schema: dict[str, Any] | None = ...,
    ) -> Any: ...


@dataclass
class StageMeter:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_s: float = 0.0
    wall_s: float = 0.0
    cached_calls: int = 0
    invalid_outputs: int = 0
    events: dict[str, int] = field(default_factory=dict)

    def count(self, event: str, n: int = 1) -> None:
        self.events[event] = self.events.get(event, 0) + n

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "llm_s": round(self.llm_s, 3),
            "wall_s": round(self.wall_s, 3),
            "cached_calls": self.cached_calls,
            "invalid_outputs": self.invalid_outputs,
            **{f"events.{k}": v for k, v in sorted(self.events.items())},
        }


class Meters:
    """One ``StageMeter`` per stage, safe to update from worker threads."""

    def __init__(self, stages: tuple[str, ...]) -> None:
        self.stages = {name: StageMeter() for name in stages}
        self.lock = threading.Lock()

    def __getitem__(self, stage: str) -> StageMeter:
        return self.stages[stage]

    def count(self, stage: str, event: str, n: int = 1) -> None:
        with self.lock:
            self.stages[stage].count(event, n)

    def add_wall(self, stage: str, seconds: float) -> None:
        with self.lock:
            self.stages[stage].wall_s += seconds

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {name: m.as_dict() for name, m in self.stages.items()}


_DROPPED_KEYWORDS = frozenset(
    {"title", "description", "default", "minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"}
)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


def parse_json_object(text: str) -> Any:
    """Parse the JSON object in ``text``, tolerating code fences and chatter around it."""
    cleaned = _FENCE.sub("", text.strip()).strip()
    try:
        return json.loads(cleaned)
    except json.JSONDecodeError:
        start, end = cleaned.find("{"), cleaned.rfind("}")
        if start >= 0 and end > start:
            return json.loads(cleaned[start : end + 1])
        raise


def json_schema_for(model: type[BaseModel]) -> dict[str, Any]:
    """A flat JSON schema (no ``$ref``) that grammar-constrained servers handle well."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return inline(defs[node["$ref"].split("/")[-1]])
            out = {k: inline(v) for k, v in node.items() if k not in _DROPPED_KEYWORDS}
            if out.get("type") == "object" and "properties" in out:
                # strict mode (OpenAI) wants every property required and nothing extra;
                # pydantic still applies defaults and bounds when it validates the answer
                out["required"] = list(out["properties"])
                out["additionalProperties"] = False
            return out
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(schema)


class _RawAnswer(BaseModel):
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0


class LLMCaller:
    """Structured calls with validation and retries, metered per stage.

    With a ``memo`` (the instance's :class:`~bemula.generate.llm.cache.InstanceCache`) every
    answer is recorded the moment it arrives, keyed by a hash of the exact request, so a run
    that crashed mid-turn (say between a user turn and its verifier call) repeats no call
    when it resumes. Memo hits are counted apart from calls.
    """

    def __init__(self, client: ChatClient, meters: Meters, *, attempts: int = 3, memo: Any = None) -> None:
        self.client = client
        self.meters = meters
        self.attempts = attempts
        self.memo = memo

    def for_instance(self, memo: Any) -> LLMCaller:
        return LLMCaller(self.client, self.meters, attempts=self.attempts, memo=memo)

    def _chat(self, stage: str, messages: list[dict[str, str]], **kwargs: Any) -> str:
        key = None
        if self.memo is not None:
            material = json.dumps({"messages": messages, **kwargs}, sort_keys=True, default=str)
            key = "call:" + hashlib.sha256(material.encode()).hexdigest()
            hit = self.memo.get(key, _RawAnswer)
            if hit is not None:
                self.meters.count(stage, "memo_hits")
                return hit.text
        result = self.client.chat(messages, **kwargs)
        self._record(stage, result)
        text = str(result.text or "")
        if key is not None:
            self.memo.put(key, _RawAnswer(text=text, prompt_tokens=int(result.prompt_tokens or 0),
                                          completion_tokens=int(result.completion_tokens or 0)))
        return text

    def _record(self, stage: str, result: Any) -> None:
        with self.meters.lock:
            meter = self.meters[stage]
            meter.calls += 1
            meter.prompt_tokens += int(getattr(result, "prompt_tokens", 0) or 0)
            meter.completion_tokens += int(getattr(result, "completion_tokens", 0) or 0)
            meter.llm_s += float(getattr(result, "latency_s", 0.0) or 0.0)
            if getattr(result, "cached", False):
                meter.cached_calls += 1

    def json(
        self,
        stage: str,
        prompt: Prompt,
        model: type[T],
        *,
        max_tokens: int = 200,
        temperature: float = 0.0,
        check: Any = None,
        **fields: object,
    ) -> T | None:
        """One structured call; ``check(parsed) -> str | None`` adds a semantic test (None = ok)."""
        messages = prompt.render(**fields)
        schema = json_schema_for(model)
        for attempt in range(self.attempts):
            text = self._chat(
                stage,
                messages,
                max_tokens=max_tokens,
                temperature=temperature,
                json_schema=schema,
            )
            problem: str | None
            try:
                parsed = model.model_validate(parse_json_object(text))
                problem = check(parsed) if check else None
            except (json.JSONDecodeError, ValidationError) as exc:
                parsed, problem = None, _short_error(exc)
            if problem is None and parsed is not None:
                return parsed
            with self.meters.lock:
                self.meters[stage].invalid_outputs += 1
            if attempt + 1 < self.attempts:
                messages = [
                    *messages,
                    {"role": "assistant", "content": text[:800]},
                    {"role": "user", "content": f"That answer was rejected: {problem}. Try again; answer only with JSON."},
                ]
        return None

    def text(
        self,
        stage: str,
        messages: list[dict[str, str]],
        *,
        max_tokens: int = 120,
        temperature: float = 0.8,
    ) -> str:
        return self._chat(stage, messages, max_tokens=max_tokens, temperature=temperature)


def _short_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        return f"invalid JSON fields ({loc}: {first['msg']})"
    return "the answer was not valid JSON"
