"""End to end on generated data (slow): every question of both versions is answered, and the
audit finds naive-rag's forgotten values (it has no deletion path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.audit import audit_run
from bemula.dataset import Dataset
from bemula.generate.offline import generate_benchmark
from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import read_answers


@pytest.mark.slow
def test_naive_rag_on_generated_lite_data(tmp_path: Path) -> None:
    data = tmp_path / "data"
    generate_benchmark(0, data, lite=True)
    dataset = Dataset.open(data)
    keys = {(i, q.id) for i in dataset.ids() for q in dataset.load(i).questions}
    out = tmp_path / "run"
    summary = run_benchmark(RunConfig(data=data, out=out, system="naive-rag", workers=2), progress=False)
    records = read_answers(out / "answers.jsonl")
    assert set(records) == keys and summary.errors == 0
    assert summary.turns_saved_by_fork > 0

    audit = audit_run(out)
    stated = {t: row for t, row in audit.by_request_type.items() if t != "F4"}
    # every protected value of a request whose target was stated is still in the chunks
    assert stated and all(row["with_residue"] == row["values"] for row in stated.values())
    assert audit.values_with_residue == audit.values_stored_in_control
