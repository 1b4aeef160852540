from __future__ import annotations

import json
import math
import urllib.error
import urllib.request

import pytest

from bemula.llm.embeddings import hashed_embedding
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder


def _post(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_echo_answer_and_word_count_usage() -> None:
    with FakeOpenAIServer() as server:
        status, body = _post(
            server.base_url + "/chat/completions",
            {"model": "m", "messages": [{"role": "system", "content": "be brief"},
                                        {"role": "user", "content": "one two three"}]},
        )
    assert status == 200
    assert body["choices"][0]["message"]["content"] == "echo: one two three"
    # prompt: "be brief" (2) + "one two three" (3); completion: "echo:", one, two, three
    assert body["usage"] == {"prompt_tokens": 5, "completion_tokens": 4, "total_tokens": 9}
    assert server.requests[0][0] == "/v1/chat/completions"


def test_scripted_responder_replays_then_reports_exhaustion() -> None:
    script = ScriptedResponder(["first", Fault("http", status=418)])
    with FakeOpenAIServer(script) as server:
        url = server.base_url + "/chat/completions"
        body = {"model": "m", "messages": [{"role": "user", "content": "x"}]}
        assert _post(url, body)[1]["choices"][0]["message"]["content"] == "first"
        assert _post(url, body)[0] == 418
        status, error = _post(url, body)
        assert status == 500 and "exhausted" in error["error"]["message"]
    assert script.served == 3 and script.remaining == -1


def test_dict_response_gets_usage_filled() -> None:
    completion = {
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "c1", "type": "function",
                            "function": {"name": "search", "arguments": '{"q": "a b"}'}}]}}]
    }
    with FakeOpenAIServer(lambda path, body: completion) as server:
        _, body = _post(server.base_url + "/chat/completions",
                        {"model": "m", "messages": [{"role": "user", "content": "find it"}]})
    # arguments '{"q": "a b"}' split on whitespace: '{"q":', '"a', 'b"}' = 3 words
    assert body["usage"]["prompt_tokens"] == 2 and body["usage"]["completion_tokens"] == 3
    assert body["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "search"


def test_streaming_refused() -> None:
    with FakeOpenAIServer() as server:
        status, _ = _post(server.base_url + "/chat/completions",
                          {"model": "m", "stream": True, "messages": [{"role": "user", "content": "x"}]})
    assert status == 400


def test_embeddings_are_deterministic_unit_vectors() -> None:
    with FakeOpenAIServer(embedding_dim=32) as server:
        _, body = _post(server.base_url + "/embeddings", {"model": "e", "input": ["red apple", "red apple", ""]})
        with urllib.request.urlopen(server.base_url + "/models", timeout=5) as response:
            models = json.loads(response.read())
    first, second, empty = (d["embedding"] for d in body["data"])
    assert first == second and len(first) == 32
    assert math.isclose(sum(v * v for v in first), 1.0)
    assert empty == [0.0] * 32
    assert models["data"][0]["id"] == "fake-model"


def test_hashed_embedding_similarity_follows_shared_words() -> None:
    def cos(a: str, b: str) -> float:
        return sum(x * y for x, y in zip(hashed_embedding(a, 256), hashed_embedding(b, 256)))

    assert cos("my cat is called tom", "what is my cat called") > cos("my cat is called tom", "rainy weather today")


def test_fault_validation() -> None:
    with pytest.raises(ValueError):
        Fault("explode")
    with pytest.raises(ValueError):
        Fault("http")
    assert Fault("http429").http_status == 429
