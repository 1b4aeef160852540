"""System options as the CLI hands them over (strings, numbers) are read strictly."""

from __future__ import annotations

from pathlib import Path

import pytest

from bemula.llm.client import LLMClient, LLMConfig
from bemula.systems.base import SystemContext
from bemula.systems.erasemem import EraseMem


@pytest.mark.parametrize(
    ("value", "expected"),
    [("false", False), ("False", False), ("0", False), (0, False), ("off", False), ("no", False),
     ("true", True), ("1", True), (1, True), ("on", True), ("YES", True), (True, True), (False, False)],
)
def test_flag_reads_every_spelling(tmp_path: Path, value: object, expected: bool) -> None:
    assert SystemContext(workdir=tmp_path, options={"llm_hook": value}).flag("llm_hook", not expected) is expected


def test_flag_default_and_nonsense(tmp_path: Path) -> None:
    context = SystemContext(workdir=tmp_path, options={"llm_hook": "maybe", "n": 2})
    assert context.flag("absent", True) is True and context.flag("absent", False) is False
    with pytest.raises(ValueError, match="llm_hook='maybe'"):
        context.flag("llm_hook", True)
    with pytest.raises(ValueError, match="n=2"):
        context.flag("n", True)


def test_erasemem_hook_off_with_the_string_false(tmp_path: Path) -> None:
    # the bug this pins: "-o llm_hook=false" arrived as the truthy string "false"
    client = LLMClient(LLMConfig(model="unused", base_url="http://127.0.0.1:9/v1", max_retries=0))
    off = EraseMem(SystemContext(workdir=tmp_path, llm=client, options={"llm_hook": "false"}))
    on = EraseMem(SystemContext(workdir=tmp_path, llm=client, options={}))
    assert off.stats()["llm_hook"] is None
    assert on.stats()["llm_hook"] == {"calls": 0, "failures": 0}
