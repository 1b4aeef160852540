"""Each fault is retried (and then answered) or reported as designed — over real HTTP."""

from __future__ import annotations

import threading
import time

import pytest

from bemula.llm.client import LLMClient, LLMConfig, LLMError, LLMUnavailable
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder

USER = [{"role": "user", "content": "how are you"}]


def make_client(base_url: str, sleeps: list[float] | None = None, **config) -> LLMClient:
    config.setdefault("timeout_s", 2.0)
    sleep = sleeps.append if sleeps is not None else (lambda s: None)
    return LLMClient(LLMConfig(model="m", base_url=base_url, **config), sleep=sleep, backoff_base_s=0.01)


def test_429_then_success_honours_retry_after() -> None:
    sleeps: list[float] = []
    with FakeOpenAIServer(ScriptedResponder([Fault("http429", retry_after=7), "fine"])) as server:
        client = make_client(server.base_url, sleeps)
        result = client.chat(USER)
    assert result.text == "fine" and result.attempts == 2
    assert sleeps == [7.0]  # Retry-After beats the 0.01 s backoff
    assert len(server.requests) == 2
    stats = client.stats()
    assert stats["retries"] == 1 and stats["requests"] == 2 and stats["errors"] == 0
    assert stats["prompt_tokens"] == 3 and stats["completion_tokens"] == 1


def test_repeated_500s_give_one_line_error_and_count() -> None:
    sleeps: list[float] = []
    with FakeOpenAIServer(lambda path, body: Fault("http500", message="boom")) as server:
        client = make_client(server.base_url, sleeps, max_retries=3)
        with pytest.raises(LLMError) as info:
            client.chat(USER)
    message = str(info.value)
    assert not isinstance(info.value, LLMUnavailable)
    assert "\n" not in message and "after 4 attempt(s)" in message and "HTTP 500: boom" in message
    assert len(server.requests) == 4
    assert len(sleeps) == 3
    # exponential: caps 0.01, 0.02, 0.04 with jitter in [cap/2, cap]
    for attempt, delay in enumerate(sleeps):
        cap = 0.01 * 2**attempt
        assert cap / 2 <= delay <= cap
    assert client.stats()["errors"] == 1 and client.stats()["retries"] == 3


def test_hang_past_timeout_is_retried() -> None:
    with FakeOpenAIServer(ScriptedResponder([Fault("hang", seconds=5), "awake"])) as server:
        client = make_client(server.base_url, timeout_s=0.5)
        started = time.perf_counter()
        result = client.chat(USER)
        elapsed = time.perf_counter() - started
    assert result.text == "awake" and result.attempts == 2
    assert 0.5 <= elapsed < 4.0


def test_hang_every_time_reports_timeout() -> None:
    with FakeOpenAIServer(lambda path, body: Fault("hang", seconds=5)) as server:
        client = make_client(server.base_url, timeout_s=0.3, max_retries=1)
        with pytest.raises(LLMError, match=r"timed out after 0.3s") as info:
            client.chat(USER)
    assert not isinstance(info.value, LLMUnavailable)


@pytest.mark.parametrize("kind", ["truncated", "non_json", "close"])
def test_garbled_or_dropped_response_is_retried(kind: str) -> None:
    with FakeOpenAIServer(ScriptedResponder([Fault(kind), "recovered"])) as server:
        client = make_client(server.base_url)
        result = client.chat(USER)
    assert result.text == "recovered" and result.attempts == 2
    assert len(server.requests) == 2


def test_non_json_every_time_names_the_problem() -> None:
    with FakeOpenAIServer(lambda path, body: Fault("non_json")) as server:
        client = make_client(server.base_url, max_retries=1)
        with pytest.raises(LLMError, match="not valid JSON"):
            client.chat(USER)


def test_connection_refused_is_unavailable_in_one_line() -> None:
    with FakeOpenAIServer() as server:
        base_url = server.base_url  # a port that was just free and is closed again
    client = make_client(base_url, max_retries=1)
    with pytest.raises(LLMUnavailable) as info:
        client.chat(USER)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"cannot reach LLM endpoint m at {base_url}")
    assert client.stats()["requests"] == 2


@pytest.mark.parametrize("status, hint", [(400, ""), (401, "BEMULA_API_KEY"), (404, "model name")])
def test_client_errors_are_not_retried(status: int, hint: str) -> None:
    with FakeOpenAIServer(lambda path, body: Fault("http", status=status, message="nope")) as server:
        client = make_client(server.base_url)
        with pytest.raises(LLMError) as info:
            client.chat(USER)
    assert len(server.requests) == 1
    assert f"HTTP {status}" in str(info.value) and hint in str(info.value)
    assert client.stats()["retries"] == 0 and client.stats()["errors"] == 1


def test_503_is_retried() -> None:
    with FakeOpenAIServer(ScriptedResponder([Fault("http", status=503), "up"])) as server:
        assert make_client(server.base_url).chat(USER).text == "up"


def test_concurrency_is_bounded_by_semaphore() -> None:
    lock = threading.Lock()
    in_flight = 0
    peak = 0

    def slow(path: str, body: dict) -> str:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.15)
        with lock:
            in_flight -= 1
        return "done"

    with FakeOpenAIServer(slow) as server:
        client = make_client(server.base_url, concurrency=2)
        threads = [
            threading.Thread(target=client.chat, args=([{"role": "user", "content": f"q{i}"}],))
            for i in range(6)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert peak == 2
    assert client.stats()["calls"] == 6 and client.stats()["requests"] == 6


def test_request_carries_settings_and_json_options() -> None:
    with FakeOpenAIServer(ScriptedResponder(['{"a": 1}', '{"b": 2}', "x"])) as server:
        client = make_client(server.base_url, temperature=0.0)
        schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
        value, result = client.chat_json(USER, schema=schema, max_tokens=9)
        assert value == {"a": 1}
        value, _ = client.chat_json(USER)
        assert value == {"b": 2}
        client.chat(USER, temperature=0.7)
        first, second, third = server.chat_requests()
    assert first["temperature"] == 0.0 and first["max_tokens"] == 9
    assert first["response_format"]["type"] == "json_schema"
    assert first["response_format"]["json_schema"]["schema"] == schema
    assert first["response_format"]["json_schema"]["strict"] is False  # optional extras allowed
    assert second["response_format"] == {"type": "json_object"}
    assert third["temperature"] == 0.7 and "response_format" not in third


def test_chat_json_rejects_prose_and_missing_keys() -> None:
    with FakeOpenAIServer(ScriptedResponder(["I think yes", '{"b": 1}'])) as server:
        client = make_client(server.base_url)
        with pytest.raises(LLMError, match="not JSON"):
            client.chat_json(USER)
        with pytest.raises(LLMError, match=r"required key\(s\) \['a'\]"):
            client.chat_json(USER, schema={"type": "object", "required": ["a"]})


def test_tool_calls_come_back_as_dicts() -> None:
    completion = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "c1", "type": "function",
                        "function": {"name": "search", "arguments": '{"q": "cats"}'}}]}}]}
    tools = [{"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}]
    with FakeOpenAIServer(lambda path, body: completion) as server:
        result = make_client(server.base_url).chat(USER, tools=tools)
        assert server.chat_requests()[0]["tools"] == tools
    assert result.text == "" and result.finish_reason == "tool_calls"
    assert result.tool_calls[0]["function"] == {"name": "search", "arguments": '{"q": "cats"}'}
