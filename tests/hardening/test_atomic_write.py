"""Rewriting a dataset folder: killed half-way, it never verifies as a mix of old and new."""

from __future__ import annotations

from pathlib import Path

import pytest

import bemula.dataset as dataset_mod
from bemula.dataset import Dataset, write_dataset
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.testing.tiny import tiny_instances
from bemula.validate import validate_dataset


def _changed_instances():
    instances = tiny_instances()
    first = instances[0].forget.sessions[0].turns[0]
    first.text = first.text + " (rewritten)"
    instances[0].control.sessions[0].turns[0].text = first.text
    return instances


@pytest.mark.parametrize("kill_at", ["rename", "replace"])
def test_write_killed_mid_swap_is_refused_then_repaired(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kill_at: str) -> None:
    old_checksum = Dataset.open(tiny).checksum
    calls = {"n": 0}
    real_rename, real_replace = Path.rename, dataset_mod.os.replace

    def killed_rename(self: Path, target):
        calls["n"] += 1
        if kill_at == "rename" and calls["n"] == 2:  # old folder moved away, new one not yet in
            raise KeyboardInterrupt
        return real_rename(self, target)

    def killed_replace(src, dst):
        if kill_at == "replace":
            raise KeyboardInterrupt
        return real_replace(src, dst)

    monkeypatch.setattr(Path, "rename", killed_rename)
    monkeypatch.setattr(dataset_mod.os, "replace", killed_replace)
    with pytest.raises(KeyboardInterrupt):
        write_dataset(tiny, _changed_instances(), name="bemula-tiny")
    monkeypatch.undo()

    report = validate_dataset(tiny)
    assert {v.code for v in report.violations} & {"checksum", "file-missing"}
    with pytest.raises(RunError):
        run_benchmark(RunConfig(data=tiny, out=tmp_path / "run", system="naive-rag"), progress=False)
    assert not (tmp_path / "run" / "answers.jsonl").exists()

    manifest = write_dataset(tiny, _changed_instances(), name="bemula-tiny")
    assert not {v.code for v in validate_dataset(tiny).violations} & {"checksum", "file-missing", "manifest-checksum"}
    assert manifest.checksum != old_checksum
    assert not [p for p in tiny.iterdir() if p.name.startswith(".")]  # staging and retired folders gone


def test_rewrite_keeps_other_files_in_the_folder(tiny: Path) -> None:
    (tiny / "cache").mkdir()
    (tiny / "cache" / "stage.json").write_text("{}")
    write_dataset(tiny, tiny_instances()[:1], name="bemula-tiny")
    assert (tiny / "cache" / "stage.json").read_text() == "{}"
    assert sorted(p.name for p in (tiny / "instances").iterdir()) == ["tiny-a.json"]
