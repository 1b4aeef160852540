"""The runner on the hand-written two-instance dataset (24 + 21 questions, probes included)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bemula.model import Version
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.runfolder.dumps import dump_path, read_dump
from bemula.runfolder.folder import read_answers
from bemula.runfolder.meta import RunFolderMismatch
from bemula.systems.base import register
from bemula.systems.naive_rag import NaiveRAG
from bemula.testing.tiny import tiny_instances

N_QUESTIONS = {"tiny-a": 24, "tiny-b": 21}
TURNS = {"tiny-a": 32, "tiny-b": 32}  # per version
PREFIX_TURNS = {"tiny-a": 18, "tiny-b": 20}  # before the first request


def _config(data: Path, out: Path, **kw) -> RunConfig:
    return RunConfig(data=data, out=out, system=kw.pop("system", "naive-rag"), **kw)


def test_run_answers_every_question_of_both_versions(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = run_benchmark(_config(tiny_data, out), progress=False)
    records = read_answers(out / "answers.jsonl")
    assert len(records) == sum(N_QUESTIONS.values()) == summary.questions_answered == 45
    for inst in tiny_instances():
        assert assert_versions(inst, records)
        for version in Version:
            assert dump_path(out, inst.id, version).exists()
    # fork: both prefixes ingested once -> 38 turns saved of 128
    assert sum(TURNS.values()) * 2 == 128
    assert summary.turns_saved_by_fork == 38
    assert summary.turns_ingested == 128 - 38
    assert summary.share_saved == pytest.approx(38 / 128)
    assert (out / ".work").exists() is False or not any((out / ".work").iterdir())
    # the dump is the store right after ingestion: one chunk per turn
    assert len(read_dump(dump_path(out, "tiny-a", Version.FORGET))) == 32


def assert_versions(inst, records) -> bool:
    for q in inst.questions:
        record = records[(inst.id, q.id)]
        assert record.version == q.version
        assert record.question == q.text
        assert record.system == "naive-rag" and record.backbone == "probe"
        assert record.error is None and record.answer
    return True


def test_resume_skips_finished_questions(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(_config(tiny_data, out, instances=["tiny-a"]), progress=False)
    again = run_benchmark(_config(tiny_data, out), progress=False)
    assert again.questions_skipped == 24
    assert again.questions_answered == 21
    assert again.instances_skipped == 1
    third = run_benchmark(_config(tiny_data, out), progress=False)
    assert third.questions_answered == 0 and third.turns_ingested == 0
    lines = (out / "answers.jsonl").read_text().splitlines()
    assert len(lines) == 45  # nothing answered twice


def test_only_missing_version_is_ingested_on_resume(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(_config(tiny_data, out, instances=["tiny-a"]), progress=False)
    answers = out / "answers.jsonl"
    kept = [line for line in answers.read_text().splitlines() if '"version":"control"' not in line]
    answers.write_text("\n".join(kept) + "\n")
    summary = run_benchmark(_config(tiny_data, out, instances=["tiny-a"]), progress=False)
    assert summary.questions_answered == 13  # 3 retention + 10 probes on control
    assert summary.turns_ingested == 32 and summary.turns_saved_by_fork == 0


def test_resume_with_other_settings_is_refused(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(_config(tiny_data, out, limit=1), progress=False)
    with pytest.raises(RunFolderMismatch, match=r"system: folder has 'naive-rag', this command has 'full-context'"):
        run_benchmark(_config(tiny_data, out, system="full-context"), progress=False)
    with pytest.raises(RunFolderMismatch, match="system_options"):
        run_benchmark(_config(tiny_data, out, system_options={"top_k": 3}), progress=False)


def test_meta_records_config_checksum_versions(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(_config(tiny_data, out, limit=1, seed=7), progress=False)
    meta = json.loads((out / "meta.json").read_text())
    from bemula.dataset import Dataset

    assert meta["identity"]["dataset_checksum"] == Dataset.open(tiny_data).checksum
    assert meta["seed"] == 7 and meta["config"]["limit"] == 1
    assert meta["backbone"]["name"] == "probe"
    assert {"python", "bemula", "pydantic"} <= set(meta["packages"])
    assert "git" in meta and "agent_prompt_hash" in meta
    assert meta["system"]["supports_fork"] is True


def test_selection_flags(tiny_data: Path, tmp_path: Path) -> None:
    s = run_benchmark(_config(tiny_data, tmp_path / "a", instances=["tiny-b"]), progress=False)
    assert s.questions_answered == 21
    s = run_benchmark(_config(tiny_data, tmp_path / "b", lite=True, limit=1), progress=False)
    assert s.questions_answered == 24
    with pytest.raises(RunError, match="unknown instance ids: nope"):
        run_benchmark(_config(tiny_data, tmp_path / "c", instances=["nope"]), progress=False)
    with pytest.raises(RunError, match="unknown system 'nope'"):
        run_benchmark(_config(tiny_data, tmp_path / "d", system="nope"), progress=False)


def test_full_context_with_the_probe(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(_config(tiny_data, out, system="full-context"), progress=False)
    records = read_answers(out / "answers.jsonl")
    # control keeps the allergy; the probe finds it among every turn
    assert "penicillin" in records[("tiny-a", "Q04-P")].answer
    # the recorded items are capped and the total is kept
    assert all(len(r.retrieved) <= 20 for r in records.values())


@register
class _BrokenOnDaniel(NaiveRAG):
    name = "test-broken-on-b"
    description = "fails while ingesting tiny-b (tests only)"

    def ingest(self, turn) -> None:  # noqa: ANN001
        if "Croix-Rousse" in turn.text:
            raise RuntimeError("simulated crash")
        super().ingest(turn)


def test_a_failing_instance_is_reported_and_others_kept(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    with pytest.raises(RunError, match=r"1 instance\(s\) failed: tiny-b"):
        run_benchmark(_config(tiny_data, out, system="test-broken-on-b"), progress=False)
    assert len(read_answers(out / "answers.jsonl")) == 24
    assert "simulated crash" in (out / "failures.log").read_text()
    summary = json.loads((out / "run-summary.json").read_text())
    assert summary["instances_failed"] == ["tiny-b"]


def test_two_workers_give_the_same_answers(tiny_data: Path, tmp_path: Path) -> None:
    run_benchmark(_config(tiny_data, tmp_path / "one"), progress=False)
    summary = run_benchmark(_config(tiny_data, tmp_path / "two", workers=2), progress=False)
    one = read_answers(tmp_path / "one" / "answers.jsonl")
    two = read_answers(tmp_path / "two" / "answers.jsonl")
    assert set(one) == set(two)
    assert all(one[k].answer == two[k].answer for k in one)
    assert summary.turns_saved_by_fork == 38


def test_system_stats_and_receipts_reach_the_run_folder(tiny_data: Path, tmp_path: Path) -> None:
    """erasemem's deletion receipts (one per request: tiny-a F1+F6, tiny-b F4+F3) are gathered
    into receipts.jsonl with their instance; rebuilt on resume; naive-rag writes none."""
    from bemula.runfolder.dumps import RECEIPTS_NAME, stats_path

    out = tmp_path / "erasemem"
    run_benchmark(_config(tiny_data, out, system="erasemem"), progress=False)
    stats = json.loads(stats_path(out, "tiny-a", Version.FORGET).read_text(encoding="utf-8"))
    assert stats["requests_detected"] == 2 and len(stats["receipts"]) == 2
    control = json.loads(stats_path(out, "tiny-a", Version.CONTROL).read_text(encoding="utf-8"))
    assert control["receipts"] == []  # the control version has no forget request
    receipts = [json.loads(line) for line in (out / RECEIPTS_NAME).read_text(encoding="utf-8").splitlines()]
    assert [(r["instance_id"], r["request_kind"]) for r in receipts] == [
        ("tiny-a", "F1"), ("tiny-a", "F6"), ("tiny-b", "F4"), ("tiny-b", "F3")
    ]
    (out / RECEIPTS_NAME).unlink()
    run_benchmark(_config(tiny_data, out, system="erasemem"), progress=False)  # nothing left to answer
    assert len((out / RECEIPTS_NAME).read_text(encoding="utf-8").splitlines()) == 4

    plain = tmp_path / "naive"
    run_benchmark(_config(tiny_data, plain), progress=False)
    assert stats_path(plain, "tiny-a", Version.FORGET).exists()
    assert not (plain / RECEIPTS_NAME).exists()
