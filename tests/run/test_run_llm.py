"""Runs with an LLM backbone against the scripted fake OpenAI-compatible server."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import read_answers
from bemula.testing.fake_server import FakeOpenAIServer, Fault, ScriptedResponder

SECRET = "sk-test-0123456789abcdefSECRET"


def _config(data: Path, out: Path, server: FakeOpenAIServer, **kw) -> RunConfig:
    return RunConfig(
        data=data, out=out, system=kw.pop("system", "naive-rag"), backbone="openai", model="fake-model",
        base_url=server.base_url, llm_cache=out.parent / "llm-cache.sqlite",
        llm_options={"max_retries": 0}, instances=["tiny-a"], **kw,
    )


def test_api_key_never_reaches_the_run_folder(
    tiny_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BEMULA_API_KEY", SECRET)
    with FakeOpenAIServer(ScriptedResponder([], then="I don't have that information.")) as server:
        run_benchmark(_config(tiny_data, tmp_path / "run", server), progress=False)
    meta_text = (tmp_path / "run" / "meta.json").read_text()
    assert '"api_key_set": true' in meta_text  # the key was used...
    for path in (tmp_path / "run").rglob("*"):
        if path.is_file():
            assert SECRET not in path.read_text(errors="replace"), path  # ...and written nowhere


def test_backbone_errors_are_recorded_then_reattempted_on_resume(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    failing = ScriptedResponder([Fault("http500")] * 5, then="Biscuit.")
    with FakeOpenAIServer(failing) as server:
        first = run_benchmark(_config(tiny_data, out, server), progress=False)
    assert first.errors == 5 and first.questions_answered == 24
    records = read_answers(out / "answers.jsonl")
    errored = [r for r in records.values() if r.error]
    assert len(errored) == 5 and all(r.answer == "" and "500" in r.error for r in errored)

    with FakeOpenAIServer(ScriptedResponder([], then="Biscuit.")) as server:
        second = run_benchmark(_config(tiny_data, out, server), progress=False)
        assert len(server.chat_requests()) == 5  # only the failed questions are asked again
    assert second.questions_answered == 5 and second.errors == 0
    final = read_answers(out / "answers.jsonl")
    assert len(final) == 24 and not any(r.error for r in final.values())


def test_full_context_gives_the_llm_the_whole_history(tiny_data: Path, tmp_path: Path) -> None:
    with FakeOpenAIServer(ScriptedResponder([], then="ok")) as server:
        run_benchmark(
            _config(tiny_data, tmp_path / "run", server, system="full-context", context_window=100_000),
            progress=False,
        )
        prompts = [body["messages"][1]["content"] for body in server.chat_requests()]
    record = read_answers(tmp_path / "run" / "answers.jsonl")[("tiny-a", "Q01")]
    assert record.retrieved_total == 32 and len(record.retrieved) == 20  # recorded items are capped
    assert all(p.startswith("MEMORY (32 items):") for p in prompts)  # the prompt is not
    assert all("[1] 2026-03-02 09:15 (history) user: Morning!" in p for p in prompts)


@pytest.mark.slow  # spawns worker processes that import the openai SDK: seconds each
def test_llm_backbone_in_worker_processes(tiny_data: Path, tmp_path: Path) -> None:
    with FakeOpenAIServer(ScriptedResponder([], then="Biscuit.")) as server:
        config = _config(tiny_data, tmp_path / "run", server, workers=2)
        config.instances = None
        summary = run_benchmark(config, progress=False)
        # identical prompts (a forget question and its control probe retrieving the same
        # items) are answered from the request cache
        assert 0 < len(server.chat_requests()) <= 45
    records = read_answers(tmp_path / "run" / "answers.jsonl")
    assert summary.questions_answered == 45 and summary.errors == 0
    assert {r.answer for r in records.values()} == {"Biscuit."}
    assert {r.backbone for r in records.values()} == {"openai"}


def test_concurrency_overlaps_backbone_calls_and_changes_no_answer(tiny_data: Path, tmp_path: Path) -> None:
    import threading
    import time

    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    def slow(path: str, body: dict) -> str:
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.05)
        with lock:
            state["now"] -= 1
        return "Echo: " + body["messages"][-1]["content"][-40:]

    with FakeOpenAIServer(slow) as server:
        run_benchmark(_config(tiny_data, tmp_path / "one", server), progress=False)
        assert state["most"] == 1
        run_benchmark(_config(tiny_data, tmp_path / "b" / "four", server, concurrency=4), progress=False)  # own cache
    assert state["most"] > 1  # calls were in flight together
    one, four = read_answers(tmp_path / "one" / "answers.jsonl"), read_answers(tmp_path / "b" / "four" / "answers.jsonl")
    assert {k: r.answer for k, r in one.items()} == {k: r.answer for k, r in four.items()}


def test_concurrency_overlaps_calls_across_memory_states_and_instances(tiny_data: Path, tmp_path: Path) -> None:
    """The most questions over one memory state is 13 and over one instance 24: a peak
    above 24 means calls of the next instance were sent while the last ones were in flight."""
    import threading
    import time

    state = {"now": 0, "most": 0}
    lock = threading.Lock()

    def slow(path: str, body: dict) -> str:
        with lock:
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.4)
        with lock:
            state["now"] -= 1
        return "I don't know."

    with FakeOpenAIServer(slow) as server:
        config = RunConfig(data=tiny_data, out=tmp_path / "run", system="naive-rag", backbone="openai",
                           model="fake-model", base_url=server.base_url, llm_cache=tmp_path / "cache.sqlite",
                           llm_options={"max_retries": 0}, concurrency=45)
        summary = run_benchmark(config, progress=False)
    assert summary.questions_answered == 45 and summary.errors == 0 and summary.instances_failed == []
    assert state["most"] > 24


def test_ctrl_c_does_not_wait_for_the_calls_in_flight(tiny_data: Path, tmp_path: Path) -> None:
    """With --concurrency the calls run in threads; Ctrl-C must not wait for them to come
    back (an endpoint may take minutes): the run stops at once, exit 130."""
    import os
    import signal
    import subprocess
    import sys
    import time

    release = threading.Event()

    def stuck(path: str, body: dict) -> str:
        release.wait(60)
        return "I don't know."

    with FakeOpenAIServer(stuck) as server:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from bemula.cli import main; main()", "run", "--system", "naive-rag",
             "--backbone", "openai", "--model", "m", "--base-url", server.base_url, "--data", str(tiny_data),
             "--out", str(tmp_path / "run"), "--concurrency", "4", "--quiet",
             "--llm-cache", str(tmp_path / "cache.sqlite")],
            start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        deadline = time.monotonic() + 60
        while len(server.chat_requests()) < 4 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(server.chat_requests()) == 4, "four calls in flight"
        started = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, stderr = proc.communicate(timeout=15)
        finally:
            release.set()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        assert proc.returncode == 130, stderr
        assert time.monotonic() - started < 10
        assert "re-run the same command to resume" in stderr
