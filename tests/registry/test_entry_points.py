"""A package registers a memory system, a judge and a metric through entry points, and
bemula picks all three up with no change to bemula (issue 17)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "demo_plugin"
BEMULA = Path(sys.executable).with_name("bemula")


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo package, really installed (pip, offline) into a folder of its own that only
    the subprocesses below see, so the other tests' registries stay bemula's own."""
    root = tmp_path_factory.mktemp("plugin")
    source = root / "src"
    shutil.copytree(PLUGIN, source)  # the build writes metadata beside the sources: not in the checkout
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
         "--target", str(target), str(source)],
        check=True, capture_output=True, text=True,
    )
    assert (target / "bemula_demo_plugin.py").exists()
    return target


def _bemula(args: list[str], plugin: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(plugin), "COLUMNS": "250"}
    return subprocess.run([str(BEMULA), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_eval_picks_up_a_system_a_judge_and_a_metric_from_entry_points(plugin_path: Path, tmp_path: Path) -> None:
    listed = _bemula(["systems"], plugin_path, tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert "last-turns  available" in listed.stdout and "from: bemula-demo-plugin (entry point)" in listed.stdout
    assert "keep=40" in listed.stdout

    out = tmp_path / "runs"
    done = _bemula(["eval", "--data", "handwritten", "--systems", "last-turns,naive-rag", "--judge", "verbatim",
                    "--out", str(out), "-q", "--resamples", "50"], plugin_path, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "last-turns (probe)" in done.stdout and "naive-rag (probe)" in done.stdout
    assert "FE+AR" in done.stdout  # the plug-in's metric is a column of the console table
    for system in ("last-turns", "naive-rag"):
        verdicts = (out / system / "verdicts-verbatim.jsonl").read_text().splitlines()
        assert verdicts and json.loads(verdicts[0])["judge"] == "verbatim"
    scores = json.loads((out / "report" / "scores.json").read_text())
    first = scores[0] if isinstance(scores, list) else scores
    assert "FA" in json.dumps(first)
    assert "FE+AR" in (out / "report" / "report.md").read_text()


def test_a_plugin_system_rejects_unknown_options_like_a_builtin(plugin_path: Path, tmp_path: Path) -> None:
    bad = _bemula(["run", "-s", "last-turns", "--data", "handwritten", "--out", str(tmp_path / "r"),
                   "-o", "kep=3"], plugin_path, tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "error: system last-turns: unknown option 'kep' (accepted: keep)"
    ]
