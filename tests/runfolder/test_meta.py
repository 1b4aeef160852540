"""meta.json as a typed, versioned model: older formats read, unknown ones refused, every
result-changing input in the identity, and a changed system noticed (``--redo`` re-answers)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from bemula.run.runner import RunConfig, run_benchmark
from bemula.runfolder.folder import RunFolder, RunFolderError, read_answers
from bemula.runfolder.meta import META_FORMAT, MetaError, RunFolderMismatch, read_meta
from bemula.runfolder.names import ANSWERS_NAME, META_NAME
from bemula.systems.base import SYSTEMS


def _run(data: Path, out: Path, **kw) -> RunConfig:
    note = kw.pop("note", None)
    config = RunConfig(data=data, out=out, system=kw.pop("system", "naive-rag"), instances=["tiny-a"], **kw)
    run_benchmark(config, progress=False, note=note)
    return config


def test_a_run_writes_format_2_with_its_inputs_and_code_version(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(tiny_data, out)
    raw = json.loads((out / META_NAME).read_text())
    assert raw["format"] == META_FORMAT == "2"
    meta = read_meta(out)
    assert meta is not None and meta.identity.system == "naive-rag" and meta.identity.inputs == {}
    assert len(meta.system.code_version) == 16 and meta.invocations[0].code_version == meta.system.code_version
    assert RunFolder.open(out).label == "naive-rag (probe)"
    record = next(iter(read_answers(out / ANSWERS_NAME).values()))
    assert record.answer_kind == "memory" and len(record.gold_hash) == 16 and record.prompt_hash == ""


def test_format_1_is_read_and_upgraded_in_memory(tiny_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    _run(tiny_data, out)
    raw = json.loads((out / META_NAME).read_text())
    # what bemula wrote before the contract: no inputs, git {} outside a checkout, no redo flags
    raw["format"] = "1"
    raw["git"] = {}
    del raw["identity"]["inputs"]
    for inv in raw["invocations"]:
        del inv["redo"], inv["code_version"]
    (out / META_NAME).write_text(json.dumps(raw))
    meta = read_meta(out)
    assert meta is not None and meta.format == "2" and meta.git is None and meta.identity.inputs == {}
    # and answers written before answer_kind: the probe's are memory text
    lines = [json.loads(line) for line in (out / ANSWERS_NAME).read_text().splitlines()]
    for line in lines:
        del line["answer_kind"]
    (out / ANSWERS_NAME).write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert {r.answer_kind for r in read_answers(out / ANSWERS_NAME).values()} == {"memory"}
    _run(tiny_data, out)  # resumes into it
    assert json.loads((out / META_NAME).read_text())["format"] == "2"


@pytest.mark.parametrize(
    ("format_", "message"),
    [("3", r"run-folder format 3, this bemula reads formats 1, 2 — written by a newer bemula"),
     (None, r"no format version")],
)
def test_an_unknown_format_is_refused_naming_it(tiny_data: Path, tmp_path: Path, format_, message) -> None:
    out = tmp_path / "run"
    _run(tiny_data, out)
    raw = json.loads((out / META_NAME).read_text())
    if format_ is None:
        del raw["format"]
    else:
        raw["format"] = format_
    (out / META_NAME).write_text(json.dumps(raw))
    with pytest.raises(MetaError, match=message):
        read_meta(out)
    with pytest.raises(RunFolderError, match=message):
        RunFolder.open(out)


def test_the_embedder_chosen_by_environment_is_part_of_the_identity(
    tiny_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    monkeypatch.setenv("BEMULA_EMBED_MODEL", "model-a")
    _run(tiny_data, out)
    assert read_meta(out).identity.inputs == {"BEMULA_EMBED_MODEL": "model-a"}
    monkeypatch.setenv("BEMULA_EMBED_MODEL", "model-b")
    with pytest.raises(RunFolderMismatch, match=r"inputs: folder has \{'BEMULA_EMBED_MODEL': 'model-a'\}"):
        _run(tiny_data, out)


SYSTEM_SOURCE = '''
from bemula.systems.base import register
from bemula.systems.naive_rag import NaiveRAG


@register
class EditedRAG(NaiveRAG):
    name = "edited-rag"
    description = "naive-rag under another name, for the changed-code test"
'''


def test_changed_system_code_is_noticed_and_redo_answers_again(tiny_data: Path, tmp_path: Path) -> None:
    module = tmp_path / "edited_rag_module.py"
    module.write_text(SYSTEM_SOURCE)
    spec = importlib.util.spec_from_file_location("edited_rag_module", module)
    loaded = importlib.util.module_from_spec(spec)
    sys.modules["edited_rag_module"] = loaded
    try:
        spec.loader.exec_module(loaded)
        out = tmp_path / "run"
        _run(tiny_data, out, system="edited-rag")
        first = len((out / ANSWERS_NAME).read_text().splitlines())
        notes: list[str] = []
        _run(tiny_data, out, system="edited-rag", note=notes.append)
        assert notes == []  # same code: nothing to say, nothing re-answered
        module.write_text(SYSTEM_SOURCE + "\n# a change to the system\n")
        _run(tiny_data, out, system="edited-rag", note=notes.append)
        assert len(notes) == 1 and "other code of 'edited-rag'" in notes[0] and "--redo" in notes[0]
        assert len((out / ANSWERS_NAME).read_text().splitlines()) == first  # kept, not redone
        _run(tiny_data, out, system="edited-rag", redo=True)
        assert len((out / ANSWERS_NAME).read_text().splitlines()) == 2 * first  # every question again
        meta = read_meta(out)
        assert meta.invocations[-1].redo and meta.system.code_version == meta.invocations[-1].code_version
        notes.clear()
        _run(tiny_data, out, system="edited-rag", note=notes.append)
        assert notes == []  # the redo brought the folder up to the code
    finally:
        sys.modules.pop("edited_rag_module", None)
        SYSTEMS.remove("edited-rag")
