"""The HTML page in headless Chromium: it loads, shows the table, a drill-down opens.

Needs the Debian ``chromium`` package (``.ci/run`` installs it); skipped when absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from bemula.judge.pipeline import judge_run
from bemula.judge.rules import RuleJudge
from bemula.report.build import write_report
from bemula.runfolder.folder import RunFolder
from bemula.testing.samples import write_sample_runs

pytestmark = pytest.mark.slow

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), shutil.which("google-chrome")) if p), None)


def dump_dom(url: str, profile: Path) -> str:
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom", url,
    ]
    env = {**os.environ, "HOME": str(profile)}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_page_loads_shows_the_table_and_opens_a_drilldown(tmp_path: Path) -> None:
    _, hand, perfect = write_sample_runs(tmp_path / "runs")
    out = tmp_path / "report"
    for run in (hand, perfect):
        judge_run(RunFolder.open(run), RuleJudge())
    write_report([hand, perfect], out, judge="rules", n_resamples=200)
    page = (out / "index.html").resolve()

    dom = dump_dom(page.as_uri(), tmp_path / "profile1")
    assert 'data-ready="true"' in dom  # the page script ran to the end
    assert 'id="table-main"' in dom
    assert '<span title="n = 5">60.0</span> <span class="ci">[50.0, 66.7]</span>' in dom  # FE of the hand run
    assert dom.count('<tr id="row-0-') == 45  # the question list was rendered for the first run
    assert '<div id="detail" aria-live="polite"></div>' in dom  # nothing open yet

    dom = dump_dom(page.as_uri() + "#item=0/tiny-a/Q05", tmp_path / "profile2")
    assert 'class="open" data-item="0/tiny-a/Q05"' in dom
    detail = dom.split('id="detail"', 1)[1].split('<table id="items"', 1)[0]
    assert "What do I drink every morning?" in detail and "You switched from coffee to green tea." in detail
    assert "leaks protected value" in detail and "green tea" in detail and "(memory for Q05)" in detail
    assert 'class="selected"' in dom
