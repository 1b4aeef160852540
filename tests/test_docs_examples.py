"""Code in the docs runs as written."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _block_after(doc: Path, marker: str) -> str:
    match = re.search(re.escape(marker) + r"\s*```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert match, f"{doc}: no python block after {marker}"
    return match.group(1)


def test_the_evaluate_example_in_protocol_md_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code = _block_after(DOCS / "protocol.md", "<!-- evaluate-example -->")
    assert len(code.strip().splitlines()) <= 12
    monkeypatch.chdir(tmp_path)  # its runs/ folder lands here, not in the checkout
    exec(compile(code, "docs/protocol.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["naive-rag", "erasemem"]
    assert all(re.search(r"Score +\d+\.\d +FE +\d+\.\d +AR +\d+\.\d", line) for line in lines)
    assert (tmp_path / "runs" / "example" / "report" / "index.html").exists()
    assert os.listdir(tmp_path / "runs" / "example") and (tmp_path / "runs" / "example" / "erasemem" / "meta.json").exists()
