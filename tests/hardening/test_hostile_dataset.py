"""Hostile and broken dataset folders: refused in one line, nothing touched outside the run.

Each case failed before the hardening (a traversal id deleted a folder outside the run; the
runner used data the validator rejects; pipes hung, loops and deep JSON raised tracebacks).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.dataset import Dataset, DatasetError, decode_json
from bemula.run.runner import RunConfig, RunError, run_benchmark
from bemula.safeio import UnsafePath, confined, read_regular
from bemula.validate import validate_dataset

from .conftest import edit_json, reseal

_load_commands()


def _codes(root: Path) -> set[str]:
    return {v.code for v in validate_dataset(root).violations}


def _run(root: Path, out: Path) -> None:
    run_benchmark(RunConfig(data=root, out=out, system="naive-rag"), progress=False)


# -- ids that walk out of their folder --------------------------------------------------------


@pytest.mark.parametrize("bad_id", ["../../victim", "..", ".hidden", "a/b", "a\\b", "", "x" * 200])
def test_traversal_instance_id_is_refused_and_deletes_nothing(tiny: Path, tmp_path: Path, bad_id: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me")
    edit_json(tiny / "instances" / "tiny-a.json", lambda d: d.update(id=bad_id))
    edit_json(tiny / "manifest.json", lambda d: d["instances"][0].update(id=bad_id))
    reseal(tiny)
    assert "schema" in _codes(tiny)
    out = tmp_path / "runs" / "r"
    with pytest.raises(DatasetError) as info:
        _run(tiny, out)
    assert "manifest.json" in str(info.value) and "\n" not in str(info.value)
    assert (victim / "precious.txt").read_text() == "keep me"
    assert not (out / "answers.jsonl").exists()


def test_confined_refuses_every_escape(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    (base / "link").symlink_to(tmp_path)
    assert confined(base, "ok") == (base / "ok").resolve()
    for name in ("..", "../x", "/etc", "link/x", "", "."):
        with pytest.raises(UnsafePath):
            confined(base, name)


def test_manifest_file_outside_the_folder_is_refused(tiny: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes((tiny / "instances" / "tiny-a.json").read_bytes())
    link = tiny / "instances" / "sneaky.json"
    link.symlink_to(outside)
    edit_json(tiny / "manifest.json", lambda d: d["instances"][0].update(file="instances/sneaky.json"))
    reseal(tiny)
    assert "manifest-entry" in _codes(tiny)
    with pytest.raises(DatasetError, match="outside the dataset folder"):
        Dataset.open(tiny).load("tiny-a")


# -- the runner checks what the validator checks ------------------------------------------------


def _tamper_text(root: Path) -> None:
    path = root / "instances" / "tiny-a.json"
    path.write_bytes(path.read_bytes().replace(b'"text": "', b'"text": "Hm. ', 1))


@pytest.mark.parametrize(
    "corrupt, code",
    [
        (_tamper_text, "checksum"),
        (lambda r: edit_json(r / "manifest.json", lambda d: d.update(checksum="0" * 64)), "manifest-checksum"),
        (lambda r: edit_json(r / "manifest.json", lambda d: d.update(format_version="2.0")), "format-version"),
        (lambda r: edit_json(r / "manifest.json", lambda d: d["instances"][1].update(id="tiny-a")), "duplicate-id"),
        (lambda r: edit_json(r / "manifest.json", lambda d: d["instances"][0].update(id="tiny-z")), "manifest-entry"),
    ],
)
def test_run_refuses_data_the_validator_rejects(tiny: Path, tmp_path: Path, corrupt, code: str) -> None:
    corrupt(tiny)
    assert code in _codes(tiny)
    with pytest.raises((RunError, DatasetError)) as info:
        _run(tiny, tmp_path / "run")
    # a summary line, then the validator's own lines naming file, location and code
    assert f"[{code}]" in str(info.value) or "DatasetError" in type(info.value).__name__
    assert not (tmp_path / "run" / "answers.jsonl").exists()


def test_cli_run_on_tampered_data_exits_2_naming_the_check(tiny: Path, tmp_path: Path) -> None:
    _tamper_text(tiny)
    result = CliRunner().invoke(app, ["run", "--system", "naive-rag", "--data", str(tiny), "--out", str(tmp_path / "r"), "-q"])
    assert result.exit_code == 2, result.output
    assert "[checksum]" in result.output and "Traceback" not in result.output


# -- files that are not files -----------------------------------------------------------------


def test_named_pipe_does_not_hang(tiny: Path) -> None:
    path = tiny / "instances" / "tiny-a.json"
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(UnsafePath, match="named pipe"):
        read_regular(path)
    assert "file-type" in _codes(tiny)
    with pytest.raises(DatasetError, match="named pipe"):
        Dataset.open(tiny).load("tiny-a")


def test_directory_and_symlink_loop_are_one_line_errors(tiny: Path) -> None:
    a = tiny / "instances" / "tiny-a.json"
    a.unlink()
    a.mkdir()
    b = tiny / "instances" / "tiny-b.json"
    b.unlink()
    b.symlink_to(b)
    report = validate_dataset(tiny)
    messages = [v.message for v in report.violations if v.code == "file-type"]
    assert any("directory" in m for m in messages) and any("symlink loop" in m for m in messages)
    for instance_id in ("tiny-a", "tiny-b"):
        with pytest.raises(DatasetError):
            Dataset.open(tiny).load(instance_id)


def test_manifest_that_is_a_directory(tmp_path: Path) -> None:
    (tmp_path / "d" / "manifest.json").mkdir(parents=True)
    with pytest.raises(DatasetError, match="directory"):
        Dataset.open(tmp_path / "d")
    assert "file-type" in _codes(tmp_path / "d")


# -- JSON that breaks parsers -----------------------------------------------------------------


def test_deeply_nested_json_is_an_error_not_a_traceback() -> None:
    with pytest.raises(DatasetError, match="nested too deeply"):
        decode_json(b"[" * 100_000 + b"]" * 100_000, "deep.json")


def test_huge_integer_is_an_error_not_a_traceback(tiny: Path) -> None:
    with pytest.raises(DatasetError, match="invalid JSON"):
        decode_json(b'{"n": ' + b"9" * 5000 + b"}", "big.json")
    path = tiny / "manifest.json"
    path.write_bytes(re.sub(rb'"questions": \d+', b'"questions": ' + b"9" * 5000, path.read_bytes(), count=1))
    assert _codes(tiny) & {"schema", "json"}
    with pytest.raises(DatasetError):
        Dataset.open(tiny)


def test_byte_order_mark_is_read_the_same_by_validate_and_run(tiny: Path, tmp_path: Path) -> None:
    path = tiny / "instances" / "tiny-a.json"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    reseal(tiny)
    codes = _codes(tiny)
    assert not codes & {"json", "schema", "checksum"}
    assert Dataset.open(tiny).load("tiny-a").id == "tiny-a"
    run_benchmark(RunConfig(data=tiny, out=tmp_path / "r", system="naive-rag", instances=["tiny-a"]), progress=False)
    assert len((tmp_path / "r" / "answers.jsonl").read_text().splitlines()) == 24


def test_manifest_with_non_object_json(tmp_path: Path) -> None:
    root = tmp_path / "d"
    root.mkdir()
    (root / "manifest.json").write_text(json.dumps([1, 2, 3]))
    with pytest.raises(DatasetError):
        Dataset.open(root)


def test_a_file_swapped_after_validation_is_caught_when_read(tiny: Path) -> None:
    dataset = Dataset.open(tiny)
    assert dataset.read_bytes("tiny-a")
    _tamper_text(tiny)
    with pytest.raises(DatasetError, match="differs from the manifest"):
        dataset.read_bytes("tiny-a")


def test_run_refuses_a_scoring_error_unless_no_validate(tiny: Path, tmp_path: Path) -> None:
    """A target stated only after its request is not an integrity problem but makes the
    efficacy gold wrong: refused by default (exit 2, the validator's line quoted), run with
    --no-validate, and meta.json records which check the data passed."""
    def unstate(d: dict) -> None:  # R1's target A001 is no longer annotated anywhere
        for version in ("forget", "control"):
            for session in d[version]["sessions"]:
                for turn in session["turns"]:
                    turn["annotations"]["facts"] = [f for f in turn["annotations"]["facts"] if f != "A001"]

    edit_json(tiny / "instances" / "tiny-a.json", unstate)
    reseal(tiny)
    assert "target-not-stated" in _codes(tiny)
    args = ["run", "--system", "naive-rag", "--data", str(tiny), "-q"]
    refused = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "r1")])
    assert refused.exit_code == 2, refused.output
    assert "[target-not-stated]" in refused.output and "--no-validate" in refused.output
    assert not (tmp_path / "r1" / "answers.jsonl").exists()
    ran = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "r2"), "--no-validate"])
    assert ran.exit_code == 0, ran.output
    meta = json.loads((tmp_path / "r2" / "meta.json").read_text())
    check = meta["invocations"][-1]["dataset_check"]
    assert check["checked"] == "integrity" and check["errors"] >= 1
    assert check["checksum"] == meta["dataset"]["checksum"]
