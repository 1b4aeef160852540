"""Pure logic of the LLM pipeline: text checks, JSON handling, the cache, request checks, and
the planner's invariants over many seeds (driven by an in-process scripted client)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from bemula.generate.llm.cache import InstanceCache
from bemula.generate.llm.calls import json_schema_for, parse_json_object
from bemula.generate.llm.config import LLMPipelineConfig, TierShape, paper_config
from bemula.generate.llm.pipeline import generate_llm_benchmark
from bemula.generate.llm.schemas import FactBatch, UserSketch
from bemula.generate.llm.text import asks_removal, clean_turn, mentions
from bemula.model import RequestType, Tier
from bemula.validate import validate_dataset

from .scripted import ScriptedLLM


def test_mentions_is_whole_word_and_case_insensitive() -> None:
    assert mentions("My code is ZELTRAX-1.", "zeltrax-1")
    assert not mentions("My code is Zeltrax-10.", "Zeltrax-1")
    assert not mentions("I love teapots", "tea")
    assert mentions("It’s O'Brien's place", "O'Brien")


def test_removal_cue() -> None:
    assert asks_removal("Please forget my blood type.")
    assert asks_removal("Don't keep my address anymore")
    assert not asks_removal("What's a good stretch for my back?")


def test_clean_turn_drops_labels_and_a_second_speaker() -> None:
    assert clean_turn('User: "Hi there!"\nAssistant: Hello!') == "Hi there!"
    assert len(clean_turn("word " * 400)) <= 601


def test_parse_json_object_tolerates_fences_and_chatter() -> None:
    assert parse_json_object('```json\n{"a": 1}\n```') == {"a": 1}
    assert parse_json_object('Sure! {"a": [1, 2]} hope this helps') == {"a": [1, 2]}
    with pytest.raises(json.JSONDecodeError):
        parse_json_object("no json here")


def test_json_schema_is_flat_and_strict() -> None:
    schema = json_schema_for(FactBatch)
    text = json.dumps(schema)
    assert "$ref" not in text and "$defs" not in text and "maxLength" not in text
    item = schema["properties"]["facts"]["items"]
    assert set(item["required"]) == set(item["properties"]) and item["additionalProperties"] is False
    assert schema["additionalProperties"] is False


def test_instance_cache_survives_a_torn_line_and_resets_on_a_new_fingerprint(tmp_path: Path) -> None:
    cache = InstanceCache(tmp_path, "i1", "fp-a")
    cache.put("profile:user", UserSketch(name="A B", age=30, city="X", occupation="Y"))
    with cache.path.open("a") as fh:  # type: ignore[union-attr]
        fh.write('{"key": "half')  # a crash mid-write
    again = InstanceCache(tmp_path, "i1", "fp-a")
    assert again.get("profile:user", UserSketch) is not None
    # the next append starts on a line of its own (it used to be glued to the torn one, and lost)
    again.put("profile:other", UserSketch(name="C D", age=40, city="Z", occupation="W"))
    third = InstanceCache(tmp_path, "i1", "fp-a")
    assert third.get("profile:other", UserSketch) is not None
    fresh = InstanceCache(tmp_path, "i1", "fp-b")
    assert fresh.get("profile:user", UserSketch) is None
    assert (tmp_path / "i1.jsonl.stale").exists()


@dataclass
class _Result:
    text: str
    prompt_tokens: int = 10
    completion_tokens: int = 5
    latency_s: float = 0.0
    cached: bool = False


class InProcessClient:
    """The scripted LLM without HTTP: fast enough to run whole paper-shaped instances."""

    def __init__(self, llm: ScriptedLLM) -> None:
        self.llm = llm
        self.calls = 0

    def chat(self, messages: list[dict[str, str]], **kwargs: object) -> _Result:
        self.calls += 1
        _, answer = self.llm.answer({"messages": messages})
        return _Result(text=answer if isinstance(answer, str) else json.dumps(answer))


@pytest.mark.parametrize("seed", [0, 2])
def test_paper_shaped_short_instances_validate_for_every_type_mix(tmp_path: Path, seed: int) -> None:
    """Planner invariants (targets before requests, F4 sources only, F5 windows, relearning
    after, F3 completeness) checked by the validator on paper-shaped instances."""
    base = paper_config()
    config = LLMPipelineConfig(**{**vars(base), "tier_counts": {Tier.SHORT: 3}, "workers": 1})
    client = InProcessClient(ScriptedLLM())
    generate_llm_benchmark(client, tmp_path / "out", seed=seed, config=config, tiers=[Tier.SHORT])
    result = validate_dataset(tmp_path / "out")
    assert result.ok, [str(v) for v in result.violations[:5]]


def test_every_request_type_is_planned_without_fallback(tmp_path: Path) -> None:
    shape = TierShape(sessions=(6, 6), pairs_per_session=(5, 5), facts=(16, 16), derived=(1, 1),
                      requests=(3, 3), span_days=(12, 12))
    config = LLMPipelineConfig(name="six", tier_counts={Tier.MEDIUM: 2}, shapes={Tier.MEDIUM: shape},
                               request_types=tuple(RequestType), workers=1)  # instance 0: F1-F3, 1: F4-F6
    report = generate_llm_benchmark(InProcessClient(ScriptedLLM()), tmp_path / "out", seed=5, config=config)
    result = validate_dataset(tmp_path / "out")
    assert result.ok, [str(v) for v in result.violations[:5]]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["counts"]["requests_by_type"] == {t.value: 1 for t in RequestType}
    assert "events.request_type_fallbacks" not in report.meters["planning"]


def test_a_changed_stage_reruns_that_stage_and_later_ones_only(tmp_path: Path) -> None:
    from bemula.generate.llm.pipeline import KEY_PREFIXES, stage_salts

    salts = stage_salts()
    cache = InstanceCache(tmp_path, "i1", "fp", salts)
    sketch = UserSketch(name="A B", age=30, city="X", occupation="Y")
    cache.put("profile:user", sketch)
    cache.put("sim:S01:000", sketch)
    changed = dict(salts)
    for prefix in KEY_PREFIXES["simulation"] + KEY_PREFIXES["injection"] + KEY_PREFIXES["questions"]:
        changed[prefix] = "different"
    again = InstanceCache(tmp_path, "i1", "fp", changed)
    assert again.get("profile:user", UserSketch) == sketch  # earlier stage: kept
    assert again.get("sim:S01:000", UserSketch) is None  # changed stage: re-run


def test_aliases_must_be_forms_of_the_value() -> None:
    from bemula.generate.llm.text import good_alias

    assert good_alias("O-", "O negative", "blood type")
    assert good_alias("500000", "$500,000", "annual salary")
    assert good_alias("NHS", "National Health Service", "insurer")
    assert not good_alias("card number", "123456", "credit card's last four digits")
    assert not good_alias("annual salary", "$500,000", "annual salary")
    assert not good_alias("bank account", "$20,000", "pension fund")


def test_user_turns_out_of_role_are_recognised() -> None:
    from bemula.generate.llm.simulation import _speaks_as_assistant

    name = "Lara Johnson"
    assert _speaks_as_assistant("Hello Lara! How can I help you today?", name)
    assert _speaks_as_assistant("I'm sorry, but I can't assist with that request.", name)
    assert _speaks_as_assistant("As an artificial intelligence assistant, I do not chat.", name)
    assert _speaks_as_assistant('My pension is $20,000 (using the exact words "$20,000")', name)
    assert not _speaks_as_assistant("My pension fund is $20,000, which feels low.", name)
