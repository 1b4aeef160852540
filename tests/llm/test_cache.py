"""The request cache: identical second run = zero network calls; keys cover every setting."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

from bemula.llm.cache import RequestCache, default_cache_path, request_key
from bemula.llm.client import LLMClient, LLMConfig
from bemula.testing.fake_server import FakeOpenAIServer, Fault

QUESTIONS = [[{"role": "user", "content": f"question {i}"}] for i in range(5)]


def run_once(base_url: str, cache_path: Path, **config) -> tuple[list[str], dict]:
    cache = RequestCache(cache_path)
    client = LLMClient(LLMConfig(model="m", base_url=base_url, **config), cache)
    answers = [client.chat(q).text for q in QUESTIONS]
    stats = client.stats()
    client.close()
    cache.close()
    return answers, stats


def test_identical_second_run_makes_zero_requests(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with FakeOpenAIServer() as server:
        first, first_stats = run_once(server.base_url, path)
        after_first = len(server.requests)
        second, second_stats = run_once(server.base_url, path)
        assert len(server.requests) == after_first == 5
    assert first == second == [f"echo: question {i}" for i in range(5)]
    assert first_stats["cache_misses"] == 5 and first_stats["cache_hits"] == 0
    assert second_stats["cache_hits"] == 5 and second_stats["cache_misses"] == 0
    assert second_stats["requests"] == 0 and second_stats["prompt_tokens"] == 0
    summary = RequestCache(path).summary()
    assert summary["rows"] == 5 and summary["hits"] == 5


def test_cached_result_keeps_tokens_and_is_flagged(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url), RequestCache(tmp_path / "c.sqlite"))
        fresh = client.chat(QUESTIONS[0])
        again = client.chat(QUESTIONS[0])
    assert not fresh.cached and again.cached
    assert (again.text, again.prompt_tokens, again.completion_tokens) == (
        fresh.text, fresh.prompt_tokens, fresh.completion_tokens)
    assert again.attempts == 0


def test_every_setting_is_part_of_the_key(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        cache = RequestCache(tmp_path / "c.sqlite")
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url), cache)
        other_model = LLMClient(LLMConfig(model="m2", base_url=server.base_url), cache)
        question = QUESTIONS[0]
        client.chat(question)
        client.chat(question, temperature=0.5)
        client.chat(question, max_tokens=10)
        client.chat(question, json_mode=True)
        client.chat(question, json_schema={"type": "object"})
        client.chat([{"role": "system", "content": "x"}, *question])
        other_model.chat(question)
        assert len(server.requests) == 7
        client.chat(question, temperature=0.5)  # repeat of an earlier one
        assert len(server.requests) == 7


def test_request_key_depends_on_endpoint_and_is_order_insensitive_for_dict_keys() -> None:
    a = request_key("http://x/v1", {"model": "m", "messages": [], "temperature": 0})
    b = request_key("http://x/v1", {"temperature": 0, "messages": [], "model": "m"})
    c = request_key("http://y/v1", {"model": "m", "messages": [], "temperature": 0})
    assert a == b != c and len(a) == 64


def test_local_namespace_ignores_the_port(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "c.sqlite")
    with FakeOpenAIServer() as first_server:
        LLMClient(LLMConfig(model="m", base_url=first_server.base_url, cache_namespace="local-gguf:abc"),
                  cache).chat(QUESTIONS[0])
    with FakeOpenAIServer() as second_server:
        result = LLMClient(
            LLMConfig(model="m", base_url=second_server.base_url, cache_namespace="local-gguf:abc"), cache
        ).chat(QUESTIONS[0])
        assert second_server.requests == []
    assert result.cached


def test_threads_share_one_cache(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        cache = RequestCache(tmp_path / "c.sqlite")
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url, concurrency=4), cache)
        errors: list[BaseException] = []

        def work(offset: int) -> None:
            try:
                for i in range(10):
                    client.chat([{"role": "user", "content": f"q{(i + offset) % 10}"}])
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    stats = client.stats()
    assert stats["calls"] == 40 and stats["cache_hits"] + stats["cache_misses"] == 40
    assert cache.summary()["rows"] == 10


def _write_rows(path: str, start: int) -> None:
    cache = RequestCache(path)
    for i in range(start, start + 50):
        cache.put(f"k{i}", model="m", endpoint="e", request={"i": i}, response={"text": str(i)}, latency_s=0.0)
    cache.close()


def test_processes_write_the_same_cache(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    RequestCache(path).close()
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_write_rows, args=(path, k * 50)) for k in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    cache = RequestCache(path)
    assert cache.summary()["rows"] == 150
    assert cache.get("k149").response == {"text": "149"}


def test_default_cache_path_follows_env(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BEMULA_CACHE_DIR", str(tmp_path / "here"))
    assert default_cache_path() == tmp_path / "here" / "llm-cache.sqlite"
    monkeypatch.delenv("BEMULA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_path() == tmp_path / "xdg" / "bemula" / "llm-cache.sqlite"


def test_clear_by_model(tmp_path: Path) -> None:
    cache = RequestCache(tmp_path / "c.sqlite")
    for model in ("a", "a", "b"):
        cache.put(f"{model}{len(cache.rows())}", model=model, endpoint="e", request={}, response={}, latency_s=0)
    assert cache.clear("a") == 2
    assert [row["model"] for row in cache.rows()] == ["b"]


def _slow_echo(path: str, body: dict) -> str:
    import time

    time.sleep(0.3)
    return "echo: " + body["messages"][-1]["content"]


def test_the_same_request_in_flight_twice_is_sent_once(tmp_path: Path) -> None:
    """Two questions of a concurrent run with one prompt: the second waits for the first's
    answer in the cache (one request), and both get it."""
    with FakeOpenAIServer(_slow_echo) as server:
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url, concurrency=4),
                           RequestCache(tmp_path / "c.sqlite"))
        results: list = [None] * 4
        threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, client.chat(QUESTIONS[i % 2])))
                   for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        sent = len(server.chat_requests())
    assert sent == 2
    assert [r.text for r in results] == ["echo: question 0", "echo: question 1"] * 2
    stats = client.stats()
    assert (stats["cache_misses"], stats["cache_hits"], stats["requests"]) == (2, 2, 2)


def test_without_a_cache_every_call_is_sent(tmp_path: Path) -> None:
    with FakeOpenAIServer(_slow_echo) as server:
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url, concurrency=4), None)
        threads = [threading.Thread(target=lambda: client.chat(QUESTIONS[0])) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert len(server.chat_requests()) == 3


def test_a_failed_request_lets_the_waiting_twin_try_itself(tmp_path: Path) -> None:
    calls = {"n": 0}
    lock = threading.Lock()

    def first_fails(path: str, body: dict):
        import time

        with lock:
            calls["n"] += 1
            n = calls["n"]
        time.sleep(0.3)
        return Fault("http", status=400) if n == 1 else "fine"

    with FakeOpenAIServer(first_fails) as server:
        client = LLMClient(LLMConfig(model="m", base_url=server.base_url, concurrency=4, max_retries=0),
                           RequestCache(tmp_path / "c.sqlite"))
        outcomes: list = [None, None]

        def ask(i: int) -> None:
            try:
                outcomes[i] = client.chat(QUESTIONS[0]).text
            except Exception as exc:  # noqa: BLE001 - the test looks at it
                outcomes[i] = type(exc).__name__

        threads = [threading.Thread(target=ask, args=(i,)) for i in range(2)]
        threads[0].start()
        import time

        time.sleep(0.1)
        threads[1].start()
        for t in threads:
            t.join(10)
    assert outcomes[0] != "fine" and outcomes[1] == "fine"  # the twin waited, found no answer, sent its own
    assert calls["n"] == 2
