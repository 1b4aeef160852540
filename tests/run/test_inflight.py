"""``AnswersInFlight``: calls of many instances in flight, each instance finished once."""

from __future__ import annotations

import threading

import pytest

from bemula.model import Version
from bemula.run.inflight import AnswersInFlight
from bemula.run.instance import InstanceResult
from bemula.runfolder.records import AnswerRecord


def _record(instance_id: str, question_id: str, error: str | None = None) -> AnswerRecord:
    return AnswerRecord(instance_id=instance_id, question_id=question_id, version=Version.FORGET,
                        system="s", backbone="b", question="?", answer="" if error else "a", error=error)


@pytest.mark.parametrize("concurrency", [1, 4])
def test_every_record_is_written_once_and_each_instance_finishes_once(concurrency: int) -> None:
    written: list[AnswerRecord] = []
    answers = AnswersInFlight(concurrency, written.extend)
    trackers = []
    for name, count in (("a", 3), ("b", 0), ("c", 2)):
        tracker = answers.track(InstanceResult(name))
        for i in range(count):
            answers.submit(tracker, lambda name=name, i=i: _record(name, f"q{i}", error="down" if i == 1 else None))
        answers.seal(tracker)
        trackers.append(tracker)
    answers.wait()
    finished = answers.finished()
    answers.close()
    assert sorted(r.key for r in written) == [("a", "q0"), ("a", "q1"), ("a", "q2"), ("c", "q0"), ("c", "q1")]
    assert sorted(t.instance_id for t in finished) == ["a", "b", "c"]
    assert answers.finished() == []  # told once
    a, b, c = (t.result for t in trackers)
    assert (a.answered, a.errors, b.answered, c.answered, c.errors) == (3, 1, 0, 2, 1)


def test_a_job_that_raises_fails_its_instance_only() -> None:
    written: list[AnswerRecord] = []
    answers = AnswersInFlight(3, written.extend)
    bad, good = answers.track(InstanceResult("bad")), answers.track(InstanceResult("good"))

    def broken() -> AnswerRecord:
        raise RuntimeError("the backbone broke")

    answers.submit(bad, lambda: _record("bad", "q0"))
    answers.submit(bad, broken)
    answers.submit(good, lambda: _record("good", "q0"))
    answers.seal(bad)
    answers.seal(good)
    answers.wait()
    by_id = {t.instance_id: t for t in answers.finished()}
    answers.close()
    assert isinstance(by_id["bad"].error, RuntimeError) and "the backbone broke" in by_id["bad"].error_trace
    assert by_id["good"].error is None
    assert sorted(r.key for r in written) == [("bad", "q0"), ("good", "q0")]  # the finished answer is kept


def test_an_abandoned_instance_keeps_its_answers_but_never_finishes() -> None:
    written: list[AnswerRecord] = []
    answers = AnswersInFlight(2, written.extend)
    tracker = answers.track(InstanceResult("x"))
    answers.submit(tracker, lambda: _record("x", "q0"))
    answers.abandon(tracker)  # ingest failed after the first question was submitted
    answers.wait()
    assert answers.finished() == []
    answers.close()
    assert [r.key for r in written] == [("x", "q0")]


def test_the_backlog_bounds_calls_submitted_and_not_finished() -> None:
    release = threading.Event()
    running = {"most": 0, "now": 0}
    lock = threading.Lock()
    written: list[AnswerRecord] = []
    answers = AnswersInFlight(2, written.extend, backlog=3)
    tracker = answers.track(InstanceResult("x"))

    def job(i: int) -> AnswerRecord:
        with lock:
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
        release.wait(5)
        with lock:
            running["now"] -= 1
        return _record("x", f"q{i}")

    submitter = threading.Thread(target=lambda: [answers.submit(tracker, lambda i=i: job(i)) for i in range(6)])
    submitter.start()
    submitter.join(0.5)
    assert submitter.is_alive()  # blocked: 3 submitted, none finished
    assert tracker.pending == 3 and running["most"] == 2
    release.set()
    submitter.join(5)
    answers.seal(tracker)
    answers.wait()
    answers.close()
    assert len(written) == 6 and tracker.result.answered == 6
