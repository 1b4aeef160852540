"""``bemula estimate``: figures worked out by hand from a known profile and the tiny dataset,
the price table's errors, and a run's estimate set beside what it spent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bemula.run.estimate as estimate_module
from bemula.cli import _load_commands, app
from bemula.run.estimate import CostProfile, EstimateError, cost_profiles, estimate_run, load_prices
from bemula.testing.tiny import write_tiny_dataset

# the tiny dataset: tiny-a and tiny-b, 32 turns per version each; their versions share the
# first 18 and 20 turns; 24 + 21 = 45 questions over both versions
TURNS_BOTH, TURNS_WITH_FORK, QUESTIONS = 128, 128 - 18 - 20, 45

PROFILE = CostProfile(
    measured="by hand", llm_calls_per_turn=0.5, prompt_tokens_per_turn=100, completion_tokens_per_turn=10,
    llm_calls_per_question=1, prompt_tokens_per_question=50, completion_tokens_per_question=5,
    answer_prompt_tokens=200, supports_fork=True,
)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("estimate") / "tiny"
    write_tiny_dataset(root)
    return root


@pytest.fixture
def known_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    history = PROFILE.model_copy(update={"answer_context": "history"})
    monkeypatch.setattr(estimate_module, "cost_profiles", lambda: {"naive-rag": PROFILE, "full-context": history})


def test_every_part_of_a_run_worked_out_by_hand(tiny: Path, known_profiles: None) -> None:
    prices = {"m": estimate_module.Price(input=2.0, output=10.0)}
    e = estimate_run("naive-rag", data=tiny, backbone="openai", model="m", prices=prices)
    assert (e.instances, e.turns_ingested, e.questions) == (2, TURNS_WITH_FORK, QUESTIONS)
    assert e.ingest.as_json() == {"calls": 45, "prompt_tokens": 9000, "completion_tokens": 900}  # 90 turns
    assert e.ingest_as_stores_count.as_json() == {"calls": 64, "prompt_tokens": 12800, "completion_tokens": 1280}
    assert e.retrieval.as_json() == {"calls": 45, "prompt_tokens": 2250, "completion_tokens": 225}
    assert e.answering.as_json() == {"calls": 45, "prompt_tokens": 9000, "completion_tokens": 45 * 256}
    assert e.total.as_json() == {"calls": 135, "prompt_tokens": 20250, "completion_tokens": 12645}
    assert e.dollars == pytest.approx((20250 * 2.0 + 12645 * 10.0) / 1e6)


def test_the_probe_answers_for_free_and_a_missing_price_is_said(tiny: Path, known_profiles: None) -> None:
    e = estimate_run("naive-rag", data=tiny, backbone="probe", prices={"other": estimate_module.Price(input=1, output=1)})
    assert e.answering.as_json() == {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    assert e.total.as_json()["calls"] == 45 + 45
    assert e.dollars is None and any("no price for model 'probe'" in n for n in e.notes)


def test_full_context_answers_from_the_history_up_to_the_window(tiny: Path, known_profiles: None) -> None:
    # a window of 1,024 reserved + 300 tokens caps every question's history (tiny's are longer)
    e = estimate_run("full-context", data=tiny, backbone="openai", context_window=1024 + 300)
    assert e.answering.as_json()["prompt_tokens"] == QUESTIONS * (200 + 300)


def test_a_system_without_a_profile_is_said_not_guessed(tiny: Path, known_profiles: None) -> None:
    e = estimate_run("erasemem", data=tiny, backbone="probe")
    assert e.total.as_json() == {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    assert any("erasemem: no cost profile" in n for n in e.notes)


def test_the_shipped_profiles_cover_the_paper_systems_and_say_how_they_were_measured() -> None:
    profiles = cost_profiles()
    for name in ("mem0", "langmem", "a-mem", "simplemem", "naive-rag", "full-context", "erasemem"):
        assert name in profiles and "bench_adapters.py" in profiles[name].measured, name
    assert profiles["full-context"].answer_context == "history"
    assert profiles["mem0"].llm_calls_per_turn > 0 and profiles["naive-rag"].llm_calls_per_turn == 0


@pytest.mark.parametrize(("text", "expected"), [
    ('[prices."m"]\ninput = 1\n', "prices.m.output: Field required"),
    ('[prices."m"]\ninput = -1\noutput = 1\n', "prices.m.input: Input should be greater than or equal to 0"),
    ('model = "m"\n', "expected only a [prices."),
    ("[prices\n", "not TOML"),
])
def test_a_bad_price_table_names_the_file_and_the_key(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "prices.toml"
    path.write_text(text)
    with pytest.raises(EstimateError) as caught:
        load_prices(path)
    assert str(caught.value).startswith(str(path)) and expected in str(caught.value)


def test_the_command_prints_the_table_and_the_method(tiny: Path, tmp_path: Path) -> None:
    _load_commands()
    prices = tmp_path / "prices.toml"
    prices.write_text('[prices."m"]\ninput = 1.0\noutput = 2.0\n')
    done = CliRunner().invoke(app, ["estimate", "--data", str(tiny), "-s", "mem0", "-s", "naive-rag",
                                    "--model", "m", "--prices", str(prices)])
    assert done.exit_code == 0, done.output
    assert "mem0" in done.output and "Method:" in done.output and "$" in done.output
    as_json = CliRunner().invoke(app, ["estimate", "--data", str(tiny), "-s", "mem0", "--json"])
    data = json.loads(as_json.output)
    assert data["estimates"][0]["turns_ingested"] == TURNS_WITH_FORK and "Method" in data["method"]


def test_a_run_records_its_estimate_and_the_report_sets_it_beside_what_was_spent(tiny: Path, tmp_path: Path) -> None:
    from bemula.judge.pipeline import judge_folder
    from bemula.report.build import write_report
    from bemula.run.runner import RunConfig, run_benchmark
    from bemula.runfolder.costs import cost_comparison
    from bemula.testing.fake_server import FakeOpenAIServer

    out = tmp_path / "run"
    with FakeOpenAIServer() as server:
        run_benchmark(RunConfig(data=tiny, out=out, system="naive-rag", backbone="openai", model="fake-model",
                                base_url=server.base_url, llm_cache=tmp_path / "cache.sqlite",
                                instances=["tiny-a"]), progress=False)
    estimate = json.loads((out / "estimate.json").read_text())
    assert estimate["questions"] == 24 and estimate["answering"]["calls"] == 24
    comparison = cost_comparison(out)
    assert comparison is not None and comparison["llm_calls"] == {"estimated": 24, "actual": 24}
    judge_folder(out, "rules")
    report = write_report([out], tmp_path / "report", n_resamples=200)
    assert any(t.name == "cost" for t in report.tables)
    assert "Cost: estimated before the run vs spent" in (tmp_path / "report" / "report.md").read_text()


def test_a_run_with_no_llm_anywhere_writes_no_estimate(tiny: Path, tmp_path: Path) -> None:
    from bemula.run.runner import RunConfig, run_benchmark

    run_benchmark(RunConfig(data=tiny, out=tmp_path / "run", system="naive-rag"), progress=False)
    assert not (tmp_path / "run" / "estimate.json").exists()
