"""Receipts and residues are read back as typed records, like answers and verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.audit import audit_run
from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import RunFolder, RunFolderError
from bemula.runfolder.names import RECEIPTS_NAME


def test_receipts_and_residues_are_typed_records(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_benchmark(RunConfig(data=tiny_data, out=out, system="erasemem"), progress=False)
    audit = audit_run(out)
    folder = RunFolder.open(out)
    receipts = folder.receipts()
    assert receipts and {r.instance_id for r in receipts} <= {"tiny-a", "tiny-b"}
    assert "instance_id" in receipts[0].as_dict() and len(receipts[0].as_dict()) > 1  # the system's own fields kept
    residues = folder.residues()
    assert len(residues) == audit.residues
    assert all(r.match in ("exact", "alias", "partial") for r in residues)
    (out / RECEIPTS_NAME).write_text('{"request": "R1"}\n')  # no instance id
    with pytest.raises(RunFolderError, match=r"receipts.jsonl: record 1: instance_id: Field required"):
        folder.receipts()
