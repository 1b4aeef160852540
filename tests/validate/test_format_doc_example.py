"""The hand-written example in docs/dataset-format.md really is a valid dataset folder,
written with the standard library only, loadable with ``Dataset.open``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bemula.dataset import Dataset
from bemula.model import Version
from bemula.validate import validate_dataset

DOC = Path(__file__).resolve().parents[2] / "docs" / "dataset-format.md"


def _example_code() -> str:
    text = DOC.read_text(encoding="utf-8")
    match = re.search(r"<!-- example:start -->\s*```python\n(.*?)```\s*<!-- example:end -->", text, re.S)
    assert match, "example block missing from docs/dataset-format.md"
    return match.group(1)


def test_doc_example_writes_a_valid_dataset(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = _example_code()
    assert "import bemula" not in code and "from bemula" not in code
    exec(compile(code, str(DOC), "exec"), {"__name__": "doc_example"})
    report = validate_dataset(tmp_path / "my-dataset")
    assert report.violations == []
    assert (report.instances, report.turns_per_version, report.questions) == (1, 6, 5)
    inst = Dataset.open("my-dataset").load("ex-1")
    assert [q.id for q in inst.questions_for(Version.CONTROL)] == ["Q1", "Q2-P", "Q3-P", "Q5-P"]


def _table_codes(text: str) -> set[str]:
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, re.M))


def test_every_emitted_code_is_documented() -> None:
    """Codes passed to ``add``/``Violation`` in the validator == the docstring table == the doc."""
    import bemula.validate as validate

    source = Path(validate.__file__).read_text(encoding="utf-8")
    emitted = set(re.findall(r'(?:\.add\(|Violation\()[^"]*?"(?:[^"]*)",\s*"([a-z0-9-]+)"', source, re.S))
    emitted |= set(re.findall(r'"([a-z0-9-]+)" if sid in self\.derived else "([a-z0-9-]+)"', source)[0])
    docstring = set(re.findall(r"^([a-z0-9-]+)\s{2,}\S", validate.__doc__ or "", re.M)) - {"code"}
    assert emitted == docstring
    assert _table_codes(DOC.read_text(encoding="utf-8")) == docstring
