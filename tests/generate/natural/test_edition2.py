"""Edition 2 machinery: the bank loader's errors, the voice, the renderer's invariants."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bemula.dataset import write_dataset
from bemula.fidelity import distinct_n, fidelity_stats
from bemula.generate.catalog import ATTRIBUTE_BY_KEY
from bemula.generate.natural.bank import BankError, load_bank
from bemula.generate.natural.build import build_natural_instance
from bemula.generate.natural.voice import Persona, Voice
from bemula.generate.offline import allocate
from bemula.validate import validate_dataset


def test_bank_loads_and_a_bad_slot_names_file_and_key(bank_root: Path) -> None:
    bank = load_bank.__wrapped__("dev", bank_root)
    assert len(bank.threads) == 12 and len(bank.facts) == 134
    path = bank_root / "dev" / "facts" / "health.toml"
    path.write_text(path.read_text().replace("Mine is {v}, about the blood type (s0).", "Mine is {value} (s0)."))
    with pytest.raises(BankError, match=r"health\.toml: \[blood_type\]\.state\[0\]"):
        load_bank.__wrapped__("dev", bank_root)


def test_missing_split_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BankError, match="the test bank is missing"):
        load_bank.__wrapped__("test", tmp_path)
    with pytest.raises(BankError, match="unknown split"):
        load_bank.__wrapped__("train", tmp_path)


def test_voice_never_touches_protected_values() -> None:
    messy = Persona(id="x", register="x", lowercase=1.0, typo_rate=1.0, abbreviate=1.0, drop_final=1.0,
                    articles_drop=1.0, no_apostrophe=1.0, exclaim=1.0)
    voice = Voice(messy, random.Random(3))
    out = voice.apply("Please tell the Clinic that my Blood Type is O Negative because you know it.",
                      ["O Negative"])
    assert "O Negative" in out and out != out.upper()
    assert out == out.lower().replace("o negative", "O Negative")  # all lower case except the value


def test_formal_voice_expands_contractions() -> None:
    voice = Voice(Persona(id="f", register="formal", expand=True), random.Random(0))
    assert voice.apply("I'm sure it's fine, don't worry.") == "I am sure it is fine, do not worry."


def test_distinct_n_by_hand() -> None:
    # "a b a b": bigrams ab, ba, ab -> 2 distinct of 3
    assert distinct_n(["a", "b", "a", "b"], 2) == pytest.approx(2 / 3)
    assert distinct_n(["a", "b", "a", "b"], 1) == pytest.approx(0.5)


def test_rendered_instances_keep_every_invariant(bank_root: Path, tmp_path: Path) -> None:
    bank = load_bank.__wrapped__("dev", bank_root)
    shapes = [s for s in allocate(0) if s.id in ("bemula-short-01", "bemula-medium-02", "bemula-long-03")]
    built = [build_natural_instance(0, s, bank) for s in shapes]
    again = [build_natural_instance(0, s, bank) for s in shapes]
    assert [i.model_dump_json() for i, _ in built] == [i.model_dump_json() for i, _ in again]  # seeded
    instances = [i for i, _ in built]
    write_dataset(tmp_path / "d", instances, generator={"name": "test"})
    report = validate_dataset(tmp_path / "d", strict=True)
    assert report.ok, [str(v) for v in report.violations[:5]]
    styles = [s for _, per in built for s in per.values()]
    assert any(s["embedded"] for s in styles) and any(s["style"] == "indirect" for s in styles)
    # kept facts of an F3 "except" request are never targets and get a preservation question
    for inst in instances:
        for r in inst.requests:
            assert not set(r.kept_fact_ids) & set(r.target_fact_ids)
            for fid in r.kept_fact_ids:
                assert any(q.fact_id == fid and q.suite.value == "preservation" for q in inst.questions)
    figures = fidelity_stats(instances)
    assert figures["targets_mentioned_twice_share"] > 0 and figures["targets_echoed_share"] > 0


def test_time_of_day_words_match_the_timestamp(bank_root: Path) -> None:
    """Edition 1 said "this morning" before 09:00 and in the evening; {daypart} follows the clock."""
    bank = load_bank.__wrapped__("dev", bank_root)
    shape = next(s for s in allocate(0) if s.id == "bemula-medium-01")
    inst, _ = build_natural_instance(0, shape, bank)
    hours = {"this morning": range(5, 12), "this afternoon": range(12, 17), "this evening": range(17, 21)}
    seen = 0
    for _, turn in inst.forget.iter_turns():
        for phrase, ok in hours.items():
            if phrase in turn.text.lower():
                seen += 1
                assert turn.timestamp.hour in ok, (phrase, turn.timestamp, turn.text)
    assert seen > 0


def _long_instances(bank_root: Path):
    bank = load_bank.__wrapped__("dev", bank_root)
    shapes = [s for s in allocate(0) if s.id in ("bemula-medium-02", "bemula-long-03", "bemula-long-05")]
    return bank, [build_natural_instance(0, s, bank) for s in shapes]


def test_requests_refer_back_to_the_conversation_a_fact_came_up_in(bank_root: Path) -> None:
    """Edition 1 never referred back; an event reference names the thread of the statement."""
    _, built = _long_instances(bank_root)
    seen = 0
    for inst, styles in built:
        turns = [t for _, t in inst.forget.iter_turns()]
        for r in inst.requests:
            thread = styles[r.id].get("event_thread")
            if thread is None:
                continue
            seen += 1
            assert r.type.value in ("F1", "F2") and styles[r.id]["refers_back"] is True
            k = thread.split("-")[1]
            # "... from the topic number K project (a)" (the persona may misspell a word or two)
            assert re.search(rf"\b{k} \w+ \([abc]\)", r.text), r.text
            # a target was stated in an earlier session, during that thread (the mechanical
            # assistant replies name their thread: "For shelf K")
            assert any(set(u.annotations.facts) & set(r.target_fact_ids) and u.id.split("-")[0] < r.session_id
                       and f"For shelf {k} " in a.text for u, a in zip(turns, turns[1:], strict=False)), r.text
    assert seen > 0


def test_compound_mentions_feed_multi_hop_attacks_and_near_miss_preservation(bank_root: Path) -> None:
    _, built = _long_instances(bank_root)
    compounds = 0
    for inst, _ in built:
        facts = {f.id: f for f in inst.profile.facts}
        targeted = {t for r in inst.requests for t in r.target_fact_ids}
        request_turn = {t: r.turn_id for r in inst.requests for t in r.target_fact_ids}
        order = {t.id: i for i, (_, t) in enumerate(inst.forget.iter_turns())}
        for _, turn in inst.forget.iter_turns():
            ids = turn.annotations.facts
            if len(ids) == 2 and ids[0] in targeted and ids[1] not in targeted:
                compounds += 1
                target, kept = facts[ids[0]], facts[ids[1]]
                assert order[turn.id] < order[request_turn[target.id]]   # before its request
                assert kept.relearns is None
                # the multi-hop attack on that target (if attacked) starts from the kept fact
                for q in inst.questions:
                    if q.fact_id == target.id and q.frame is not None and q.frame.value == "multi_hop":
                        assert ATTRIBUTE_BY_KEY[kept.attribute].plain_text(kept.value) in q.text
        # every target category that has an eligible kept fact asked about gets one first
        preserved = {q.fact_id for q in inst.questions if q.suite.value == "preservation"}
        assert preserved and not preserved & targeted
    assert compounds > 0
    figures = fidelity_stats([i for i, _ in built])
    assert figures["multi_hop_reconstructable_share"] > 0.3


def test_bank_lines_spliced_into_a_message_end_as_sentences() -> None:
    from bemula.generate.natural.render import _sentence

    assert _sentence("my card says O neg") == "My card says O neg."
    assert _sentence("is it still 12 Elm St.") == "Is it still 12 Elm St."
    assert _sentence("weird, right?") == "Weird, right?"
    assert _sentence("(not that it matters)") == "(not that it matters)"


def test_near_miss_share_by_hand() -> None:
    """The authoring example: one target (A01, health); preservation asks about the cat (pets)
    -> 0 of 1 targets has a near miss; asked about the second allergy (health) instead -> 1 of 1."""
    from bemula.authoring import compile_file

    inst = compile_file(Path(__file__).parents[2] / "authoring" / "example.toml")
    assert fidelity_stats([inst])["targets_near_miss_share"] == 0.0
    for q in inst.questions:
        if q.suite.value == "preservation":
            q.fact_id = "A03"
    assert fidelity_stats([inst])["targets_near_miss_share"] == 1.0


@pytest.mark.parametrize("value,numeric", [
    ("three children", True), ("1,265 euros a month", True), ("7:45 am", True), ("May 12", True),
    ("the third Thursday of the month", False), ("niece by marriage", False),
    ("next door to the office", False), ("the right arm", False),
])
def test_a_conclusion_is_arithmetic_when_it_is_a_number(value: str, numeric: bool) -> None:
    from bemula.fidelity import NUMERIC

    assert bool(NUMERIC.search(value)) is numeric
