"""bemula export / import: Parquet tables (and the Hub's card) that pyarrow and `datasets`
read, and that come back as the same dataset folder — same checksum (issue 20)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.dataset import Dataset, resolve_data
from bemula.testing.tiny import write_tiny_dataset

pa = pytest.importorskip("pyarrow")  # pip install 'bemula[hub]' (CI installs it)
import pyarrow.parquet as pq  # noqa: E402

_load_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tiny") / "data"
    write_tiny_dataset(root)
    return root


@pytest.mark.parametrize("source", ["tiny", "handwritten"])
def test_export_then_import_gives_back_the_same_folder(source: str, tiny: Path, tmp_path: Path) -> None:
    data = tiny if source == "tiny" else resolve_data("handwritten")
    original = Dataset.open(data)
    out = tmp_path / "export"
    done = runner.invoke(app, ["export", str(data), str(out), "--format", "hf"])
    assert done.exit_code == 0, done.output
    instances = pq.read_table(out / "instances" / "full.parquet")
    assert instances.num_rows == len(original.manifest.instances)
    questions = pq.read_table(out / "questions" / "full.parquet").to_pylist()
    assert len(questions) == sum(len(i.questions) for i in original)
    first = original.load(original.ids()[0])
    row = next(q for q in questions if q["instance_id"] == first.id and q["position"] == 0)
    assert row["id"] == first.questions[0].id and row["gold_accepted"] == first.questions[0].gold.accepted
    lite = pq.read_table(out / "instances" / "lite.parquet").column("id").to_pylist()
    assert lite == [i for i in original.ids() if i in set(original.manifest.lite_ids)]
    meta = json.loads((out / "bemula-export.json").read_text())
    assert meta["source_checksum"] == original.checksum
    assert (out / "README.md").read_text().startswith("---\nlicense: mit\n")

    back = tmp_path / "back"
    done = runner.invoke(app, ["import", str(out), str(back)])
    assert done.exit_code == 0, done.output
    rebuilt = Dataset.open(back)
    assert rebuilt.checksum == original.checksum
    for iid in original.ids():  # byte for byte
        assert rebuilt.read_bytes(iid) == original.read_bytes(iid)


def test_datasets_reads_the_export_through_its_card(tiny: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    out = tmp_path / "export"
    assert runner.invoke(app, ["export", str(tiny), str(out), "--format", "hf"]).exit_code == 0
    cache = str(tmp_path / "hf-cache")
    by_files = datasets.load_dataset("parquet", data_files={"full": str(out / "turns" / "full.parquet")},
                                     cache_dir=cache)
    assert by_files["full"].num_rows == 2 * 64  # two instances, 32 turns per version each
    by_card = datasets.load_dataset(str(out), "questions", cache_dir=cache)
    assert set(by_card) == {"full", "lite"} and by_card["full"].num_rows == 45
    assert {"gold_accepted", "control_probe_id", "probe_of"} <= set(by_card["full"].column_names)


def test_a_changed_table_is_refused_on_import(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    assert runner.invoke(app, ["export", str(tiny), str(out)]).exit_code == 0
    path = out / "questions" / "full.parquet"
    table = pq.read_table(path)
    texts = table.column("text").to_pylist()
    texts[0] = texts[0] + " (edited)"
    pq.write_table(table.set_column(table.schema.get_field_index("text"), table.schema.field("text"),
                                    pa.array(texts, pa.string())), path)
    done = runner.invoke(app, ["import", str(out), str(tmp_path / "back")])
    assert done.exit_code == 2
    assert "rebuilt dataset has checksum" in done.output and "the export recorded" in done.output


def test_bad_places_are_refused_in_one_line(tiny: Path, tmp_path: Path) -> None:
    inside = runner.invoke(app, ["export", str(tiny), str(tiny / "export")])
    assert inside.exit_code == 2 and "must not go inside the dataset folder" in inside.output
    assert not (tiny / "export").exists()
    missing = runner.invoke(app, ["import", str(tmp_path / "nothing"), str(tmp_path / "back")])
    assert missing.exit_code == 2 and "bemula-export.json: file not found" in missing.output
    out = tmp_path / "export"
    assert runner.invoke(app, ["export", str(tiny), str(out)]).exit_code == 0
    again = runner.invoke(app, ["export", str(tiny), str(out)])
    assert again.exit_code == 2 and "not an empty folder" in again.output
    assert runner.invoke(app, ["import", str(out), str(tmp_path / "back")]).exit_code == 0
    twice = runner.invoke(app, ["import", str(out), str(tmp_path / "back")])
    assert twice.exit_code == 2 and "already holds a dataset" in twice.output
