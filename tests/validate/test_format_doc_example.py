"""The hand-written example in docs/dataset-format.md really is a valid dataset folder,
written with the standard library only, loadable with ``Dataset.open``."""

from __future__ import annotations

import ast
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
    section = text[text.index("The codes"):text.index("From Python: `bemula.validate")]
    return set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.M))


def _emitted_codes() -> set[str]:
    """The code argument of every ``ctx.add(location, code, ...)`` and
    ``Violation(file, location, code, ...)`` call in the validator's source."""
    import bemula.validate as validate

    codes: set[str] = set()
    for path in Path(validate.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            index = {"add": 1, "Violation": 2}.get(name)
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            for option in options:
                if isinstance(option, ast.Name) and option.id == "code":
                    continue  # InstanceContext.add itself, passing its argument on
                assert isinstance(option, ast.Constant), f"{path.name}:{node.lineno}: code is not a literal"
                codes.add(option.value)
    return codes


def test_every_emitted_code_is_documented() -> None:
    """Codes the validator emits == the table in its docstring == the table in the doc."""
    import bemula.validate as validate

    docstring = set(re.findall(r"^([a-z0-9-]+)\s{2,}\S", validate.__doc__ or "", re.M)) - {"code"}
    assert _emitted_codes() == docstring
    assert _table_codes(DOC.read_text(encoding="utf-8")) == docstring
