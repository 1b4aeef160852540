"""Unreadable files: malformed JSON names line and column, schema errors name the JSON path;
the CLI prints ``file: location: [code] message`` lines and sets the exit status."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import bemula.cli.validate  # noqa: F401  (registers the command on the app)
from bemula.cli.app import app
from bemula.testing import write_tiny_dataset
from bemula.validate import validate_dataset


def test_malformed_json_is_reported_with_line_and_column(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    path = tmp_path / "instances" / "tiny-b.json"
    lines = path.read_text().splitlines()
    lines[2] = lines[2].rstrip(",")  # line 3: ' "tier": "medium",' loses its comma
    path.write_text("\n".join(lines) + "\n")
    report = validate_dataset(tmp_path)
    jsons = [v for v in report.violations if v.code == "json"]
    assert len(jsons) == 1
    assert jsons[0].file == str(path)
    assert jsons[0].location == "line 4 column 2"
    assert "Expecting ',' delimiter" in jsons[0].message
    # the edit also changed the file's bytes, which the manifest notices
    assert {v.code for v in report.violations} == {"json", "checksum"}


def test_schema_errors_are_reported_with_json_paths(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    path = tmp_path / "instances" / "tiny-a.json"
    data = json.loads(path.read_text())
    data["forget"]["sessions"][1]["turns"][3]["role"] = "narrator"
    data["questions"][12]["frame"] = "flattery"
    del data["requests"][0]["text"]
    path.write_text(json.dumps(data, indent=1))
    schema = {(v.location, v.message.split(" (got")[0]) for v in validate_dataset(tmp_path).violations
              if v.code == "schema"}
    assert ("$.forget.sessions[1].turns[3].role", "Input should be 'user' or 'assistant'") in schema
    assert ("$.requests[0].text", "Field required") in schema
    assert any(loc == "$.questions[12].frame" and "multi-hop" in msg for loc, msg in schema)
    assert len(schema) == 3


def test_broken_manifest_stops_with_one_violation(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    (tmp_path / "manifest.json").write_text('{"checksum": "x", "instances": [{"id": "tiny-a"}]}')
    violations = validate_dataset(tmp_path).violations
    assert {v.code for v in violations} == {"schema"}
    assert "$.instances[0].tier" in {v.location for v in violations}


def test_cli_clean_and_broken(tmp_path: Path) -> None:
    runner = CliRunner()
    write_tiny_dataset(tmp_path)
    ok = runner.invoke(app, ["validate", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert "OK — 2 instances, 64 turns per version, 27 questions" in ok.output

    manifest = tmp_path / "manifest.json"
    data = json.loads(manifest.read_text())
    data["instances"][0]["questions"] = 15
    data["lite_ids"] = ["tiny-a"]
    manifest.write_text(json.dumps(data))
    bad = runner.invoke(app, ["validate", str(tmp_path)])
    assert bad.exit_code == 1
    lines = bad.output.splitlines()
    assert f"{manifest}: $.instances[0].questions: [manifest-count] entry says 15 questions, " \
           "instances/tiny-a.json has 14 (probes excluded)" in lines
    assert "2 error(s), 0 warning(s)" in lines[-1]

    # a wording warning passes, and fails only with --strict
    data["instances"][0]["questions"] = 14
    data["lite_ids"] = ["tiny-a", "tiny-b"]
    manifest.write_text(json.dumps(data))
    inst_path = tmp_path / "instances" / "tiny-a.json"
    inst = json.loads(inst_path.read_text())
    text = "Actually, the thing about my penicillin allergy should stay between me and my GP."
    inst["requests"][0]["text"] = text
    for version in ("forget", "control"):
        for session in inst[version]["sessions"]:
            for turn in session["turns"]:
                if turn["annotations"]["segment"] == "request" and turn["annotations"]["request_id"] == "R1":
                    turn["text"] = text
    inst_path.write_text(json.dumps(inst))
    from bemula.testing.corrupt import reseal

    reseal(tmp_path)
    warned = runner.invoke(app, ["validate", str(tmp_path)])
    assert warned.exit_code == 0, warned.output
    assert "[request-wording] warning:" in warned.output and "OK with 0 error(s), 1 warning(s)" in warned.output
    assert runner.invoke(app, ["validate", str(tmp_path), "--strict"]).exit_code == 1

    data = json.loads(manifest.read_text())
    data["instances"][0]["questions"] = 15
    manifest.write_text(json.dumps(data))
    as_json = runner.invoke(app, ["validate", str(tmp_path), "--json", "--max-errors", "1"])
    assert as_json.exit_code == 1
    out = json.loads(as_json.output)
    assert out["ok"] is False and out["truncated"] is True and len(out["violations"]) == 1
