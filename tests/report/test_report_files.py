"""`bemula report` / `bemula score` on the hand-made runs: files, layout, JSON shape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.testing.samples import HAND_ANSWERS, write_run, write_sample_runs

_load_commands()
RESAMPLES = "400"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    return write_sample_runs(tmp_path_factory.mktemp("report"))


def test_score_json_has_the_documented_shape(sample) -> None:
    _, hand, _ = sample
    result = CliRunner().invoke(app, ["score", str(hand), "--judge", "rules", "--json", "--resamples", RESAMPLES])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout[result.stdout.index("{"):])
    for key in ("RA", "FE", "PR", "RL", "AR", "request_pass_rate", "score"):
        assert set(out[key]) >= {"value", "ci_low", "ci_high", "n"}, key
        assert 0.0 <= out[key]["value"] <= 100.0
    assert out["FE"]["value"] == 60.0 and out["score"]["n"] == 2
    assert set(out["AR_by_frame"]) == {"indirect", "role-play", "jailbreak", "boolean", "multi-hop"}
    assert out["unscored"]["total"] == 1 and out["unscored"]["by_reason"] == {"no answer (backbone error)": 1}


def test_score_table_and_clear_errors(sample, tmp_path: Path) -> None:
    _, hand, _ = sample
    result = CliRunner().invoke(app, ["score", str(hand), "--resamples", RESAMPLES, "--breakdowns"])
    assert result.exit_code == 0, result.output
    assert "request pass rate" in result.output and "60.0 [50.0, 66.7]" in result.output
    missing = CliRunner().invoke(app, ["score", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "run folder not found" in missing.output
    no_verdicts = CliRunner().invoke(app, ["score", str(hand), "--judge", "llm"])
    assert no_verdicts.exit_code == 2 and "verdicts-llm.jsonl: file not found" in no_verdicts.output


def test_bad_answer_line_names_file_and_line(tmp_path: Path) -> None:
    data, _, _ = write_sample_runs(tmp_path)
    run = write_run(tmp_path / "bad", data, {("tiny-a", "Q01"): "Biscuit."})
    with open(run / "answers.jsonl", "a") as f:
        f.write('{"instance_id": "tiny-a"}\n')
    result = CliRunner().invoke(app, ["judge", str(run), "-q"])
    assert result.exit_code == 2 and "answers.jsonl:2:" in result.output


def test_report_folder(sample, tmp_path: Path) -> None:
    _, hand, perfect = sample
    (hand / "receipts.jsonl").write_text(
        '{"instance_id": "tiny-a", "request_turn": "S02-T005", "store": "notes", "removed": 2}\n'
    )
    out = tmp_path / "rep"
    result = CliRunner().invoke(app, ["report", str(hand), str(perfect), "--out", str(out), "--resamples", RESAMPLES])
    assert result.exit_code == 0, result.output
    for rel in ("index.html", "report.md", "scores.json", "items.csv", "differences.csv",
                "tables/main.csv", "tables/main.tex", "tables/ar_by_frame.csv", "tables/fe_by_length.csv",
                "plots/tradeoff.png", "plots/fe_by_type.png",
                "plots/ar_by_frame.png", "plots/length_curves.png"):
        assert (out / rel).is_file(), rel
    md = (out / "report.md").read_text()
    assert "| hand (openai:scripted) | 83.3 [66.7, 100.0] | 60.0 [50.0, 66.7] |" in md
    csv_lines = (out / "tables" / "main.csv").read_text().splitlines()
    assert csv_lines[0].startswith("system,RA,RA ci_low,RA ci_high,RA n,FE")
    assert csv_lines[1].startswith("hand (openai:scripted),83.3333,66.6667,100.0000,6,60.0000,50.0000,66.6667,5")
    tex = (out / "tables" / "main.tex").read_text()
    assert r"\toprule" in tex and r"60.0\,{\scriptsize[50.0, 66.7]}" in tex
    assert (out / "plots" / "tradeoff.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    items = (out / "items.csv").read_text().splitlines()
    assert len(items) == 1 + 2 * 45
    page = (out / "index.html").read_text()
    # self-contained: no external resource of any kind
    assert not re.search(r"""(src|href)=["'](https?:)?//""", page)
    assert page.count("data:image/png;base64,") == 4
    assert "Deletion receipts" in page and "S02-T005" in page
    assert 'id="table-main"' in page and "Paired differences" in page
    # the summary names every metric, shows n in every cell and reads the table
    assert 'id="summary"' in page and "forgetting efficacy: share of efficacy questions" in page
    assert '<span class="n">n=5</span>' in page and 'id="reading"' in page and "The highest Score is" in page
    # the drill-down data is in side files, one per run and per instance
    assert sorted(p.name for p in (out / "data").iterdir()) == [
        "instance-tiny-a.js", "instance-tiny-b.js", "run-0.js", "run-1.js"]


def test_answers_cannot_break_the_page(tmp_path: Path) -> None:
    data, _, _ = write_sample_runs(tmp_path)
    evil = '</script><script>document.title="pwned"</script><!-- <b>bold</b>'
    answers = dict(HAND_ANSWERS)
    answers[("tiny-a", "Q01")] = evil
    run = write_run(tmp_path / "evil", data, answers, system="evil")
    out = tmp_path / "rep"
    result = CliRunner().invoke(app, ["report", str(run), "--out", str(out), "--resamples", "100"])
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text()
    assert page.count("<script") == 2  # the metadata block and the page script, nothing injected
    data = (out / "data" / "run-0.js").read_text()  # the answer lives in the run's side file
    assert evil not in data and "\\u003c/script\\u003e\\u003cscript\\u003e" in data
    assert "<" not in data and ">" not in data


def test_score_versus_gives_paired_differences(sample) -> None:
    _, hand, perfect = sample
    args = ["score", str(hand), "--versus", str(perfect), "--json", "--resamples", RESAMPLES]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    diff = json.loads(result.stdout[result.stdout.index("{"):])["paired_difference"]
    # hand − perfect: Score per composition .5−1, .478−1, .471−1 (docs/metrics.md worked example)
    assert diff["score"]["value"] == -52.1909
    assert (diff["score"]["ci_low"], diff["score"]["ci_high"]) == (-52.8595, -50.0)
    assert diff["PR"] == {"value": 0.0, "ci_low": 0.0, "ci_high": 0.0, "n_instances": 2}
