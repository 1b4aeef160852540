"""``bemula sweep``: a grid of run folders from one file, resumable, one report with paired
differences inside each dataset × backbone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.runfolder.names import verdicts_name
from bemula.sweep import SweepConfig, SweepError, SweepResult, _write_state, cells, load_sweep, run_sweep
from bemula.testing.tiny import write_tiny_dataset


@pytest.fixture(scope="module")
def two_datasets(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The tiny dataset (2 instances) and the bundled hand-written set."""
    first = tmp_path_factory.mktemp("sweep-data") / "tiny"
    write_tiny_dataset(first)
    return first, "handwritten"


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "expected"), [
    ('systems = ["naive-rag"]\nbogus = 1\n', "bogus: Extra inputs are not permitted"),
    ('systems = ["naive-rag", "no-such-memory"]\n', "systems: unknown 'no-such-memory'"),
    ('systems = []\n', "systems: List should have at least 1 item"),
    ('systems = ["naive-rag", "naive-rag"]\n', "listed twice: naive-rag"),
    ('systems = ["naive-rag"]\n[options.erasemem]\nx = 1\n', "options.erasemem: options for a system the sweep does not run"),
    ('systems = ["naive-rag"]\n[options.naive-rag]\nno_such_option = 1\n', "options.naive-rag: "),
    ('systems = ["naive-rag"]\nbackbones = ["probe", "gpt"]\n', "backbones: unknown 'gpt'"),
    ('systems = ["naive-rag"]\n[backbone.openai]\nmodel = "m"\n', "backbone.openai: settings for a backbone the sweep does not use"),
    ('systems = ["naive-rag"]\nparallel = 0\n', "parallel: Input should be greater than or equal to 1"),
    ('systems = ["naive-rag"\n', "not TOML"),
])
def test_a_sweep_file_that_cannot_run_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = _write(tmp_path / "grid.toml", text)
    with pytest.raises(SweepError) as caught:
        load_sweep(path)
    assert str(caught.value).startswith(f"{path}: ") and expected in str(caught.value)


def test_yaml_reads_like_toml(tmp_path: Path) -> None:
    path = _write(tmp_path / "grid.yaml", "systems: [naive-rag, full-context]\nbackbones: [probe]\nlite: true\n")
    config = load_sweep(path)
    assert config.systems == ["naive-rag", "full-context"] and config.lite
    with pytest.raises(SweepError, match="not YAML"):
        load_sweep(_write(tmp_path / "bad.yml", "systems: [naive-rag\n"))


def test_the_grid_is_dataset_major_and_folders_never_clash(tmp_path: Path) -> None:
    config = SweepConfig(out=tmp_path, systems=["naive-rag", "null"], backbones=["probe"],
                         datasets=["a/tiny", "b/tiny", "handwritten"])
    grid = cells(config)
    assert [(c.run_dir.relative_to(tmp_path).as_posix()) for c in grid] == [
        "tiny-0/probe/naive-rag", "tiny-0/probe/null", "tiny-1/probe/naive-rag", "tiny-1/probe/null",
        "handwritten/probe/naive-rag", "handwritten/probe/null",
    ]


def test_credentials_in_a_base_url_never_reach_sweep_json(tmp_path: Path) -> None:
    config = SweepConfig(out=tmp_path, systems=["naive-rag"], backbones=["openai"],
                         backbone={"openai": {"model": "m", "base_url": "https://user:hunter2secret@example.org/v1"}})
    _write_state(SweepResult(config))
    text = (tmp_path / "sweep.json").read_text()
    assert "hunter2secret" not in text and "example.org" in text


def test_a_sweep_runs_every_cell_reports_them_and_resumes(two_datasets: tuple[Path, str], tmp_path: Path) -> None:
    first, second = two_datasets
    config = SweepConfig(out=tmp_path / "sweep", systems=["naive-rag", "forget-all"],
                         datasets=[str(first), str(second)], parallel=2, resamples=200)
    result = run_sweep(config)
    assert [o.status for o in result.outcomes] == ["done"] * 4
    answered = [o.answered_now for o in result.outcomes]
    assert answered[:2] == [45, 45] and answered[2] == answered[3] > 45
    assert {(o.cell.run_dir / verdicts_name("rules")).exists() for o in result.outcomes} == {True}
    labels = [s.label for s in result.scores]
    assert labels == ["naive-rag (probe) · tiny", "forget-all (probe) · tiny",
                      "naive-rag (probe) · handwritten", "forget-all (probe) · handwritten"]
    # paired only inside a dataset × backbone: two pairs, three metrics each
    pairs = {(a, b) for a, b, _ in result.differences}
    assert len(result.differences) == 6 and len(pairs) == 2
    assert all(a.split(" · ")[1] == b.split(" · ")[1] for a, b in pairs)
    assert (tmp_path / "sweep" / "report" / "index.html").exists()
    state = json.loads((tmp_path / "sweep" / "sweep.json").read_text())
    assert [c["status"] for c in state["cells"]] == ["done"] * 4

    again = run_sweep(config, report=False)
    assert [(o.status, o.answered_now, o.already_done) for o in again.outcomes] == [
        ("done", 0, n) for n in answered]


def test_the_command_prints_the_table_and_refuses_a_bad_file(two_datasets: tuple[Path, str], tmp_path: Path) -> None:
    _load_commands()
    runner = CliRunner()
    bad = _write(tmp_path / "bad.toml", 'systems = ["naive-rag"]\nbogus = 1\n')
    refused = runner.invoke(app, ["sweep", str(bad)])
    assert refused.exit_code == 2 and "bogus" in refused.output
    good = _write(tmp_path / "grid.toml", f'out = "{tmp_path / "out"}"\nsystems = ["naive-rag", "forget-all"]\n'
                                          f'datasets = ["{two_datasets[0]}"]\nresamples = 200\n')
    done = runner.invoke(app, ["sweep", str(good)])
    assert done.exit_code == 0, done.output
    assert "naive-rag (probe)" in done.output and "(paired)" in done.output and "report:" in done.output
