"""answers.jsonl: last record per key wins, a cut last line is tolerated and cut off."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.model import Version
from bemula.runfolder.folder import RunFolderError, finished_keys, read_answers
from bemula.runfolder.jsonl import JsonlAppender
from bemula.runfolder.records import AnswerRecord


def _record(qid: str, answer: str = "a", error: str | None = None) -> AnswerRecord:
    return AnswerRecord(
        instance_id="i1", question_id=qid, version=Version.FORGET, system="s", backbone="probe",
        question="q?", answer=answer, error=error,
    )


def test_last_record_per_key_wins_and_errors_are_not_finished(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    with JsonlAppender(path) as w:
        assert w.append([_record("Q1", error="LLMError: boom"), _record("Q2")]) == 2
        w.append([_record("Q1", answer="fixed")])
    records = read_answers(path)
    assert records[("i1", "Q1")].answer == "fixed"
    assert finished_keys(records) == {("i1", "Q1"), ("i1", "Q2")}
    with JsonlAppender(path) as w:
        w.append([_record("Q2", answer="", error="LLMError: later")])
    assert finished_keys(read_answers(path)) == {("i1", "Q1")}


def test_partial_last_line_is_ignored_then_cut_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    with JsonlAppender(path) as w:
        w.append([_record("Q1")])
    full = path.read_bytes()
    path.write_bytes(full + _record("Q2").model_dump_json().encode()[:25])  # a kill mid-write
    assert set(read_answers(path)) == {("i1", "Q1")}
    with pytest.raises(RunFolderError, match=r"answers.jsonl:2"):
        read_answers(path, tolerate_partial_tail=False)
    with JsonlAppender(path) as w:  # reopening cuts the partial line
        w.append([_record("Q3")])
    assert path.read_bytes().startswith(full)
    assert set(read_answers(path, tolerate_partial_tail=False)) == {("i1", "Q1"), ("i1", "Q3")}


def test_a_bad_line_in_the_middle_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    path.write_text(_record("Q1").model_dump_json() + "\n{not json}\n" + _record("Q2").model_dump_json() + "\n")
    with pytest.raises(RunFolderError, match=r"answers.jsonl:2: not a JSON line"):
        read_answers(path)
    path.write_text('{"instance_id": "i1"}\n')
    with pytest.raises(RunFolderError, match=r"answers.jsonl:1: question_id"):
        read_answers(path)
