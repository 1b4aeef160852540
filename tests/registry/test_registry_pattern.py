"""The one registry pattern: typed options that reject unknown keys, entry points that
cannot break bemula, one name per component."""

from __future__ import annotations

from importlib import metadata

import pytest
from pydantic import Field
from typer.testing import CliRunner

from bemula import registry as registry_module
from bemula.cli import _load_commands, app
from bemula.judge.registry import JUDGES
from bemula.metrics.definitions import SCORE_COMPONENTS, all_metrics, metric
from bemula.registry import Entry, NoOptions, OptionsError, Registry
from bemula.systems.base import SYSTEMS, SystemOptions

_load_commands()


class _Opts(SystemOptions):
    top_k: int = Field(default=5, ge=1)


def test_options_are_typed_and_unknown_keys_are_one_line_errors() -> None:
    entry = Entry(name="demo", factory=object, options=_Opts)
    assert entry.validate_options({"top_k": "7"}).top_k == 7  # as the CLI typed it
    with pytest.raises(OptionsError) as info:
        entry.validate_options({"topk": 1, "nonsense": "x"})
    assert str(info.value) == "demo: unknown option 'topk'; unknown option 'nonsense' (accepted: top_k)"
    with pytest.raises(OptionsError, match=r"option top_k=0: Input should be greater than or equal to 1"):
        entry.validate_options({"top_k": 0})
    with pytest.raises(OptionsError, match=r"unknown option 'x' \(accepted: none\)"):
        Entry(name="plain", factory=object, options=NoOptions).validate_options({"x": 1})


def test_a_broken_entry_point_is_listed_unavailable_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    points = [metadata.EntryPoint(name="ghost", value="no_such_module_anywhere:Thing", group="bemula.tests")]
    monkeypatch.setattr(registry_module.metadata, "entry_points", lambda group: points if group == "bemula.tests" else [])
    things: Registry[object] = Registry("thing", "bemula.tests", adopt=lambda n, o, s: Entry(name=n, factory=o))
    entry = things.get("ghost")
    assert not entry.available and "no_such_module_anywhere" in entry.install_hint
    with pytest.raises(KeyError, match=r"unknown thing 'other'; known: ghost"):
        things.get("other")


def test_one_name_one_component() -> None:
    things: Registry[object] = Registry("thing", "bemula.none")
    things.add(Entry(name="a", factory=int))
    things.add(Entry(name="a", factory=int))  # the same one again: fine
    with pytest.raises(ValueError, match="thing name 'a' registered twice"):
        things.add(Entry(name="a", factory=str))
    things.add(Entry(name="b", factory=None, available=False, install_hint="pip install b"))
    things.add(Entry(name="b", factory=str))  # the real one replaces its placeholder
    assert things.get("b").available


def test_builtin_kinds_share_the_pattern() -> None:
    assert {"naive-rag", "erasemem", "null", "forget-all", "full-context"} <= set(SYSTEMS.entries())
    assert {"rules", "llm", "cascade"} <= set(JUDGES.entries())
    assert [m.name for m in all_metrics()][:7] == ["RA", "FE", "PR", "RL", "AR", "pass", "score"]
    assert metric("score").components == SCORE_COMPONENTS == ("FE", "AR", "PR", "RL")


def test_run_refuses_an_unknown_system_option_in_one_line(tmp_path) -> None:
    result = CliRunner().invoke(app, ["run", "-s", "naive-rag", "--data", "handwritten", "--out", str(tmp_path / "r"),
                                      "-o", "nonsense=1"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: system naive-rag: unknown option 'nonsense' (accepted: top_k)"
    ]
    assert not (tmp_path / "r" / "answers.jsonl").exists()
