"""The near-miss runner on two hand-made cases whose outcomes follow from each system's
definition: naive-rag keeps everything (leaks), forget-all drops everything at a request
(over-deletes), null stores nothing (every case unmeasured)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.nearmiss import NearMissError, kind_counts, load_cases, run_suite, shipped_cases

CASES = '''
[[case]]
id = "subj-x1"
kind = "shared-subject"
note = "two facts about Omar; forget one"
dialogue = [
  { user = "My brother Omar works at the Riverside clinic these days.", assistant = "Good to know." },
  { user = "Omar lives in Didsbury now, near the park.", assistant = "Noted." },
]
request = { user = "Please forget where Omar lives.", assistant = "Done." }

[[case.question]]
ask = "Where does Omar live?"
gold = "removed"
forms = ["Didsbury"]

[[case.question]]
ask = "Where does Omar work?"
gold = "kept"
forms = ["Riverside clinic", "Riverside"]

[[case]]
id = "upd-x1"
kind = "update-chain"
dialogue = [
  { user = "I put almond milk in my coffee every morning.", assistant = "Lovely." },
  { user = "My gym is the Castle Street leisure centre.", assistant = "Nice." },
]
request = { user = "I've switched to oat milk in my coffee, so forget the almond milk.", assistant = "Updated." }

[[case.question]]
ask = "What milk do I put in my coffee?"
gold = "replaced"
forms = ["almond milk", "almond"]
new = ["oat milk", "oat"]

[[case.question]]
ask = "Which gym do I go to?"
gold = "kept"
forms = ["Castle Street"]
'''


@pytest.fixture()
def cases(tmp_path: Path):
    path = tmp_path / "cases.toml"
    path.write_text(CASES, encoding="utf-8")
    return load_cases(path)


def test_loads_and_counts(cases) -> None:
    assert [c.id for c in cases] == ["subj-x1", "upd-x1"]
    assert kind_counts(cases) == {"shared-subject": 1, "update-chain": 1}
    assert [len(c.exchanges(v)) for c in cases for v in ("control", "forget")] == [2, 3, 2, 3]


def test_naive_rag_keeps_everything_so_it_leaks(cases) -> None:
    figures = run_suite("naive-rag", cases).figures()
    # both cases measured (the probe answers every control question), none passes: the
    # removed value and the old milk both still come back; nothing kept is lost
    assert (figures["measured"], figures["passed"], figures["leaked"], figures["over_deleted"]) == (2, 0, 2, 0)


def test_forget_all_over_deletes(cases) -> None:
    outcome = run_suite("forget-all", cases)
    first = outcome.cases[0]
    assert first.measured and not first.passed and first.over_deleted
    assert [q.correct for q in first.questions] == [True, False]  # Didsbury gone, Riverside too


def test_null_is_never_measured(cases) -> None:
    figures = run_suite("null", cases).figures()
    assert (figures["cases"], figures["measured"], figures["pass_rate"]) == (2, 0, None)


@pytest.mark.parametrize("text, message", [
    ("[[case]]\nid = 'a'\n", "case a: field 'kind'"),
    (CASES.replace('gold = "replaced"', 'gold = "kept"'), "case upd-x1: field 'question.0'"),
    (CASES.replace('id = "upd-x1"', 'id = "subj-x1"'), "case subj-x1: duplicate id"),
    ("case = 3", "expected only [[case]] tables"),
    ("[[case", "cases.toml"),
])
def test_bad_files_name_file_case_and_field(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "cases.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NearMissError, match=message.replace("[", r"\[")):
        load_cases(path)


@pytest.mark.parametrize("split", ["dev", "held-out"])
def test_shipped_cases_load_and_cover_every_kind(split: str) -> None:
    cases = shipped_cases(split)
    counts = kind_counts(cases)
    assert len(counts) == 6 and min(counts.values()) >= 4, counts


def test_the_command_prints_figures_and_refuses_a_bad_file(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from bemula.cli import _load_commands, app

    _load_commands()
    good = tmp_path / "cases.toml"
    good.write_text(CASES, encoding="utf-8")
    result = CliRunner().invoke(app, ["near-miss", "--cases", str(good), "--systems", "naive-rag,forget-all"])
    assert result.exit_code == 0, result.output
    assert "naive-rag: 0/2 measured cases pass (0.0%); 0 lost a kept fact, 2 kept a removed value" in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text("[[case]]\nid = 'a'\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["near-miss", "--cases", str(bad)])
    assert result.exit_code == 2 and "bad.toml: case a: field 'kind'" in result.output
    unknown = CliRunner().invoke(app, ["near-miss", "--cases", str(good), "--systems", "nope"])
    assert unknown.exit_code == 2 and "unknown system" in unknown.output
