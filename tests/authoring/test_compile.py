"""bemula.authoring: a hand-written TOML file becomes a valid, turn-aligned instance."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.authoring import compile_dataset, compile_file
from bemula.cli import _load_commands, app
from bemula.dataset import Dataset, DatasetError
from bemula.model import GoldKind, Segment, Version
from bemula.validate import validate_dataset

HERE = Path(__file__).parent
EXAMPLE = HERE / "example.toml"

_load_commands()


def test_example_compiles_into_two_aligned_versions() -> None:
    inst = compile_file(EXAMPLE)
    forget = [t for _, t in inst.forget.iter_turns()]
    control = [t for _, t in inst.control.iter_turns()]
    assert [t.id for t in forget] == ["S01-T001", "S01-T002", "S02-T001", "S02-T002", "S02-T003", "S02-T004"]
    assert [t.id for t in control] == [t.id for t in forget]
    assert [t.timestamp for t in control] == [t.timestamp for t in forget]
    # the request exchange differs, nothing else
    assert [t.annotations.segment for t in forget[2:4]] == [Segment.REQUEST, Segment.CONFIRMATION]
    assert [t.annotations.segment for t in control[2:4]] == [Segment.NEUTRAL, Segment.NEUTRAL]
    assert forget[2].text.startswith("About my allergy") and control[2].text.startswith("Can you recommend")
    assert [t.text for t in forget[4:]] == [t.text for t in control[4:]]
    # timestamps: first turn at the session start; the next 40 s + 1.2 s x 5 words later
    assert forget[0].timestamp.isoformat() == "2026-01-05T10:00:00"
    assert forget[1].timestamp.isoformat() == "2026-01-05T10:00:46"
    assert forget[4].timestamp.isoformat() == "2026-01-07T09:30:00"  # pinned with time = "09:30"
    r = inst.requests[0]
    assert (r.session_id, r.turn_id, r.text) == ("S02", "S02-T001", forget[2].text)


def test_golds_and_probes_follow_the_table() -> None:
    inst = compile_file(EXAMPLE)
    q = {x.id: x for x in inst.questions}
    assert sorted(q) == ["Q01", "Q02", "Q02-probe", "Q03", "Q03-probe", "Q04", "Q05", "Q05-probe"]
    assert q["Q01"].version == Version.CONTROL and q["Q01"].gold.accepted == ["Miso"]
    assert q["Q02"].gold.kind == GoldKind.SENTINEL and q["Q02"].gold.protected == ["peanuts"]
    assert q["Q02-probe"].version == Version.CONTROL and q["Q02-probe"].gold.accepted == ["peanuts"]
    assert q["Q02-probe"].text == q["Q02"].text and q["Q02-probe"].probe_of == "Q02"
    assert q["Q04"].control_probe_id is None  # relearning has no probe


def test_compiled_folder_validates_with_only_a_wording_warning(tmp_path: Path) -> None:
    compile_dataset([EXAMPLE], tmp_path / "ds")
    report = validate_dataset(tmp_path / "ds")
    assert report.ok, [str(v) for v in report.violations]
    # "stay between me and my doctor" is a removal request outside the lexicon: a warning, not an error
    assert [v.code for v in report.violations] == ["request-wording"]
    assert not validate_dataset(tmp_path / "ds", strict=True).ok
    assert Dataset.open(tmp_path / "ds").manifest.name == "bemula-handwritten"


def test_f6_gold_uses_the_new_value(tmp_path: Path) -> None:
    text = EXAMPLE.read_text().replace('type = "F1"', 'type = "F6"\nnew_value = "tree nuts"').replace(
        "About my allergy to nuts: I'd like that to stay between me and my doctor.",
        "Correction: it's tree nuts I react to, not the other thing.")
    src = tmp_path / "f6.toml"
    src.write_text(text)
    inst = compile_file(src)
    q = {x.id: x for x in inst.questions}
    assert q["Q02"].gold.kind == GoldKind.VALUE and q["Q02"].gold.accepted == ["tree nuts"]
    assert q["Q02"].gold.protected == ["peanuts"]
    assert q["Q03"].gold.kind == GoldKind.SENTINEL and q["Q03"].gold.accepted == ["tree nuts"]
    assert q["Q02-probe"].gold.accepted == ["peanuts"]  # the control dialogue still has the old value


@pytest.mark.parametrize(
    "edit, location, words",
    [
        (lambda t: t.replace('value = "Miso"', 'value = "Miso"\ncolour = "grey"'), "$.fact[1]", "Extra inputs"),
        (lambda t: t.replace("[[session.turn]]\nassistant = '''Noted", "[[session.turn]]\nuser = 'x'\nassistant = '''Noted"),
         "$.session[0].turn[1]", "exactly one"),
        (lambda t: t.replace('fact = "A02"\ntext = "What is my cat called?"', 'fact = "A99"\ntext = "What?"', 1),
         "$.question[0].fact", "unknown fact"),
        (lambda t: t.replace('request = "R1"\nuser', 'request = "R7"\nuser'), "$.session[1].turn[0].request", "R7"),
        (lambda t: t.replace('time = "09:30"', 'time = "08:00"'), "$.session[1].turn[1].time", "before"),
        (lambda t: t.replace("[[fact]]\nid = \"A02\"", "[[fact]\nid = \"A02\""), "line ", "TOML"),
    ],
)
def test_bad_source_names_file_and_location(tmp_path: Path, edit, location: str, words: str) -> None:
    src = tmp_path / "bad.toml"
    src.write_text(edit(EXAMPLE.read_text()))
    with pytest.raises(DatasetError) as info:
        compile_file(src)
    message = str(info.value)
    assert str(src) in message and location in message and words in message, message


def test_cli_compile_writes_nothing_on_error_and_exits_2(tmp_path: Path) -> None:
    src = tmp_path / "bad.toml"
    src.write_text(EXAMPLE.read_text().replace('type = "F1"', 'type = "F9"'))
    result = CliRunner().invoke(app, ["compile", str(src), "--out", str(tmp_path / "ds")])
    assert result.exit_code == 2 and "$.request[0].type" in result.output
    assert not (tmp_path / "ds").exists()
    ok = CliRunner().invoke(app, ["compile", str(EXAMPLE), "--out", str(tmp_path / "ds")])
    assert ok.exit_code == 0, ok.output
    assert "[request-wording] warning:" in ok.output
