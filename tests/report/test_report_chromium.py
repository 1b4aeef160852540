"""The HTML page in headless Chromium: it loads, the summary shows every cell's n, a click
on a row far down the question list opens the panel with the dialogue, a link reopens it.

Needs the Debian ``chromium`` package (``.ci/run`` installs it); skipped when absent. With
``BEMULA_UPDATE_SCREENSHOTS=1`` the last test also evaluates the hand-written set and writes
the screenshots docs/report.md shows (summary, a drill-down, each plot) into docs/img/.
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
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")


def _chromium(args: list[str], profile: Path) -> str:
    cmd = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--virtual-time-budget=10000", "--window-size=1400,1000", *args,
    ]
    env = {**os.environ, "HOME": str(profile)}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def dump_dom(url: str, profile: Path) -> str:
    return _chromium(["--dump-dom", url], profile)


def screenshot(url: str, path: Path, profile: Path) -> None:
    _chromium([f"--screenshot={path}", url], profile)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, f"{path}: blank or missing"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("report")
    _, hand, perfect = write_sample_runs(root / "runs")
    for run in (hand, perfect):
        judge_run(RunFolder.open(run), RuleJudge())
    write_report([hand, perfect], root / "report", judge="rules", n_resamples=200)
    return (root / "report" / "index.html").resolve()


@needs_chromium
def test_page_loads_with_the_summary_and_the_question_list(page: Path, tmp_path: Path) -> None:
    dom = dump_dom(page.as_uri(), tmp_path / "p1")
    assert 'data-ready="true"' in dom  # the page script ran to the end, the run's data file loaded
    assert 'id="summary"' in dom and 'id="table-main"' in dom
    assert '<span title="n = 5">60.0</span>† <span class="ci">[50.0, 66.7]</span> <span class="n">n=5</span>' in dom
    assert dom.count('<tr id="row-0-') == 45  # the first run's questions (one page)
    assert '<div id="detail" aria-live="polite"></div>' in dom  # nothing open yet


@needs_chromium
def test_a_click_far_down_opens_the_panel_with_the_dialogue(page: Path, tmp_path: Path) -> None:
    dom = dump_dom(page.as_uri() + "?click=last", tmp_path / "p2")  # the 45th row, at the bottom
    assert 'data-detail="open"' in dom
    detail = dom.split('id="detail"', 1)[1].split('<table id="items"', 1)[0]
    last = detail.split("<h3>", 1)[1].split("</h3>", 1)[0]
    assert last.startswith("perfect") is False and "tiny-b / " in last
    assert "where the fact was stated" in detail and "forget version" in detail and "control version" in detail
    assert 'class="turn' in detail  # the dialogue turns themselves
    assert 'href="#item=0/tiny-b/' in detail  # a link to share


@needs_chromium
def test_a_link_reopens_a_question_with_its_request_in_both_versions(page: Path, tmp_path: Path) -> None:
    dom = dump_dom(page.as_uri() + "#item=0/tiny-a/Q05", tmp_path / "p3")
    assert 'data-item="0/tiny-a/Q05"' in dom
    detail = dom.split('id="detail"', 1)[1].split('<table id="items"', 1)[0]
    assert "What do I drink every morning?" in detail and "You switched from coffee to green tea." in detail
    assert "leaks protected value" in detail and "(memory for Q05)" in detail
    assert "the request (F6)" in detail
    assert 'class="turn only request"' in detail  # the request turn, present in the forget version only
    assert 'class="selected"' in dom


@needs_chromium
def test_screenshots(page: Path, tmp_path: Path) -> None:
    """Screenshots of the page; written into docs/img/ only when asked (the checkout stays clean)."""
    update = os.environ.get("BEMULA_UPDATE_SCREENSHOTS") == "1"
    target = DOCS_IMG if update else tmp_path
    if update:
        import bemula

        result = bemula.evaluate(systems=["naive-rag", "erasemem", "forget-all"], data="handwritten",
                                 out=tmp_path / "eval", resamples=1000)
        assert result.report_dir is not None
        page = (result.report_dir / "index.html").resolve()
        target.mkdir(parents=True, exist_ok=True)
        for plot in (result.report_dir / "plots").glob("*.png"):
            shutil.copyfile(plot, target / f"report-plot-{plot.stem}.png")
    screenshot(page.as_uri(), target / "report-summary.png", tmp_path / "s1")
    first = "1/hw-01/Q05" if update else "0/tiny-a/Q05"
    screenshot(page.as_uri() + f"#item={first}", target / "report-drilldown.png", tmp_path / "s2")
