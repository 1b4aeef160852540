"""``bemula generate --pipeline llm``: dry run, a real run against a scripted endpoint, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bemula.cli import _load_commands, app
from bemula.testing.fake_server import FakeOpenAIServer

from .scripted import ScriptedLLM

_load_commands()
runner = CliRunner()


@pytest.fixture(autouse=True)
def _no_endpoint_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEMULA_CACHE_DIR", str(tmp_path / "user-cache"))
    for name in ("BEMULA_BASE_URL", "BEMULA_API_KEY", "BEMULA_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_dry_run_prints_calls_per_stage_and_writes_nothing(tmp_path: Path) -> None:
    result = runner.invoke(app, ["generate", "--pipeline", "llm", "--preset", "tiny", "--dry-run",
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    for stage in ("profile", "planning", "simulation", "injection", "questions", "total"):
        assert stage in result.output
    assert not (tmp_path / "out").exists()


def test_generates_against_an_openai_compatible_endpoint(tmp_path: Path) -> None:
    with FakeOpenAIServer(ScriptedLLM()) as server:
        result = runner.invoke(app, ["generate", "--pipeline", "llm", "--preset", "tiny", "--backbone", "openai",
                                     "--model", "scripted", "--base-url", server.base_url,
                                     "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["generator"]["pipeline"] == "llm" and manifest["generator"]["model"] == "scripted"
    checked = runner.invoke(app, ["validate", str(tmp_path / "out")])
    assert checked.exit_code == 0, checked.output


def test_missing_endpoint_is_one_clear_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["generate", "--pipeline", "llm", "--preset", "tiny", "--backbone", "openai",
                                 "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "no LLM endpoint configured" in result.output
    assert "Traceback" not in result.output


def test_unknown_pipeline_and_tier_are_rejected(tmp_path: Path) -> None:
    assert runner.invoke(app, ["generate", "--pipeline", "gpt", "--out", str(tmp_path)]).exit_code != 0
    bad = runner.invoke(app, ["generate", "--pipeline", "llm", "--tiers", "huge", "--dry-run"])
    assert bad.exit_code != 0 and "huge" in bad.output


def test_refuses_to_overwrite_an_offline_dataset(tmp_path: Path) -> None:
    (tmp_path / "offline").mkdir()
    (tmp_path / "offline" / "manifest.json").write_text(json.dumps({"generator": {"name": "bemula-offline"}}))
    result = runner.invoke(app, ["generate", "--pipeline", "llm", "--preset", "tiny", "--backbone", "openai",
                                 "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                                 "--out", str(tmp_path / "offline")])
    assert result.exit_code != 0 and "another generator" in result.output
