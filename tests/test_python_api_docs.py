"""Every example in docs/python-api.md runs as written, in order, in one session (issue 20)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from bemula.systems.base import SYSTEMS

DOC = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"
EXAMPLE = re.compile(r"<!-- example: ([\w-]+) -->\s*```python\n(.*?)```", re.S)


def _examples() -> list[tuple[str, str]]:
    return EXAMPLE.findall(DOC.read_text(encoding="utf-8"))


def test_the_page_has_its_examples() -> None:
    names = [name for name, _ in _examples()]
    assert names == ["own-memory", "load-dataset", "by-hand", "rejudge", "dataframe"]
    own = dict(_examples())["own-memory"]
    assert len(own.strip().splitlines()) <= 15  # "your own memory class in 15 lines"


def test_every_example_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # runs/ lands here
    namespace: dict[str, object] = {}
    printed: dict[str, str] = {}
    try:
        for name, code in _examples():
            if "import pandas" in code and importlib.util.find_spec("pandas") is None:
                continue  # pandas is optional
            exec(compile(code, f"docs/python-api.md ({name})", "exec"), namespace)
            printed[name] = capsys.readouterr().out
    finally:
        SYSTEMS.remove("keep-everything")
    assert re.fullmatch(r"\{'keep-everything': \d+\.\d, 'erasemem': \d+\.\d\}\n", printed["own-memory"])
    assert printed["load-dataset"].startswith("bemula-handwritten 14 instances, checksum ")
    assert " -> " in printed["by-hand"]
    assert "answers (0 judged now" not in printed["rejudge"] and "verdicts-rules.jsonl" in printed["rejudge"]
    if "dataframe" in printed:
        assert "keep-everything" in printed["dataframe"] and "score" in printed["dataframe"]
    assert (tmp_path / "runs" / "mine" / "keep-everything" / "meta.json").exists()
