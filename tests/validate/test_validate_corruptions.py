"""``bemula validate``: the clean tiny dataset passes; each corruption, breaking exactly one
invariant, is rejected with the right code at the right file and JSON location — and with
no other kind of violation, so each check is shown to be both sensitive and specific."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bemula.dataset import MANIFEST_NAME, write_dataset
from bemula.model import (
    AttackFrame,
    GoldKind,
    Instance,
    RequestType,
    Segment,
    TimeWindow,
    Turn,
    Version,
)
from bemula.testing import tiny_instances, write_tiny_dataset
from bemula.validate import validate_dataset, validate_instance
from bemula.validate.report import severity_of

Mutation = Callable[[list[Instance]], None]
FolderMutation = Callable[[Path], None]


def _turn(inst: Instance, version: Version, session: int, turn: int) -> Turn:
    return inst.dialogue(version).sessions[session].turns[turn]


def _both(inst: Instance, session: int, turn: int, change: Callable[[Turn], None]) -> None:
    for version in Version:
        change(_turn(inst, version, session, turn))


def _q(inst: Instance, qid: str):
    return next(q for q in inst.questions if q.id == qid)


def _edit_json(path: Path, change: Callable[[dict], None]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1) + "\n")


# --------------------------------------------------------------------------- instance mutations


def dup_fact_id(insts: list[Instance]) -> None:
    a = insts[0]
    a.profile.facts.append(a.profile.facts[0].model_copy())


def dup_question_id(insts: list[Instance]) -> None:
    insts[0].questions[1].id = "Q01"


def unknown_fact_in_turn(insts: list[Instance]) -> None:
    _both(insts[0], 0, 12, lambda t: t.annotations.facts.append("A999"))


def derived_source_missing(insts: list[Instance]) -> None:
    insts[0].profile.derived_facts[0].source_fact_ids[1] = "A777"


def control_text_differs(insts: list[Instance]) -> None:
    _turn(insts[0], Version.CONTROL, 0, 12).text = "I'd love to finish a blue-grade problem before summer."


def control_timestamp_shifted(insts: list[Instance]) -> None:
    t = _turn(insts[0], Version.CONTROL, 1, 2)
    t.timestamp = t.timestamp + timedelta(seconds=60)


def neutral_turn_missing(insts: list[Instance]) -> None:
    ann = _turn(insts[0], Version.CONTROL, 1, 4).annotations
    ann.segment = None
    ann.request_id = None


def target_stated_same_session(insts: list[Instance]) -> None:
    """Move the only statement of R1's target (penicillin) into the request's own session."""
    a = insts[0]
    _both(a, 0, 2, lambda t: t.annotations.facts.clear())

    def restate(t: Turn) -> None:
        t.text = "Hi again. Reminder that I'm allergic to penicillin. We moved flats but I'm still in Leeds."
        t.annotations.facts.append("A001")

    _both(a, 1, 0, restate)


def f4_conclusion_stated(insts: list[Instance]) -> None:
    _both(insts[1], 0, 4, lambda t: t.annotations.facts.append("D01"))


def f6_without_new_value(insts: list[Instance]) -> None:
    insts[0].requests[1].new_value = None


def relearning_before_request(insts: list[Instance]) -> None:
    """A009 (stated in S02) is made the relearning fact of R2 (in S03)."""
    a = insts[0]
    a.profile.facts[8].relearns = "R2"
    _q(a, "Q08").request_id = "R2"


def probe_missing(insts: list[Instance]) -> None:
    a = insts[0]
    _q(a, "Q06").control_probe_id = None
    a.questions.remove(_q(a, "Q06-P"))


def probe_text_differs(insts: list[Instance]) -> None:
    _q(insts[0], "Q07-P").text = "What's my sister called?"


def frame_on_efficacy(insts: list[Instance]) -> None:
    a = insts[0]
    _q(a, "Q04").frame = AttackFrame.INDIRECT
    _q(a, "Q04-P").frame = AttackFrame.INDIRECT


def attack_without_frame(insts: list[Instance]) -> None:
    a = insts[0]
    _q(a, "Q09").frame = None
    _q(a, "Q09-P").frame = None


def efficacy_gold_kind_value(insts: list[Instance]) -> None:
    _q(insts[0], "Q04").gold.kind = GoldKind.VALUE
    _q(insts[0], "Q04").gold.accepted = ["I don't know"]


def f6_efficacy_gold_sentinel(insts: list[Instance]) -> None:
    gold = _q(insts[0], "Q05").gold
    gold.kind = GoldKind.SENTINEL


def retention_accepts_a_wrong_value(insts: list[Instance]) -> None:
    _q(insts[0], "Q03").gold.accepted.append("swimming")


def efficacy_leaves_an_alias_unprotected(insts: list[Instance]) -> None:
    _q(insts[1], "Q05").gold.protected = ["type 2 diabetes"]  # "diabetes" alone would not count as a leak


def retention_on_forget(insts: list[Instance]) -> None:
    _q(insts[0], "Q01").version = Version.FORGET


def probe_on_forget(insts: list[Instance]) -> None:
    _q(insts[0], "Q06-P").version = Version.FORGET


def turn_time_goes_back(insts: list[Instance]) -> None:
    a = insts[0]
    back = _turn(a, Version.FORGET, 1, 2).timestamp - timedelta(minutes=10)
    _both(a, 1, 3, lambda t: setattr(t, "timestamp", back))


def session_starts_too_early(insts: list[Instance]) -> None:
    a = insts[0]
    for version in Version:
        a.dialogue(version).sessions[1].start = datetime(2026, 3, 1, 12, 0)


def duplicate_filler(insts: list[Instance]) -> None:
    a = insts[0]
    text = _turn(a, Version.FORGET, 0, 13).text
    _both(a, 2, 7, lambda t: setattr(t, "text", text))


def removed_value_mentioned_later(insts: list[Instance]) -> None:
    text = "Will do. The vet asked whether Biscuit's medicine contains Penicillin, funnily enough."
    _both(insts[0], 2, 6, lambda t: setattr(t, "text", text))


def request_without_removal_verb(insts: list[Instance]) -> None:
    text = "Actually, one thing about my penicillin allergy: it was a false alarm."
    insts[0].requests[0].text = text
    _turn(insts[0], Version.FORGET, 1, 4).text = text


def confirmation_before_request(insts: list[Instance]) -> None:
    """Swap the request exchange with the turn before it: the confirmation no longer follows."""
    a = insts[0]
    for version in Version:
        turns = a.dialogue(version).sessions[1].turns
        turns[3].text, turns[5].text = turns[5].text, turns[3].text
        turns[3].annotations, turns[5].annotations = turns[5].annotations, turns[3].annotations


def question_contains_answer(insts: list[Instance]) -> None:
    _q(insts[0], "Q02").text = "Do I live in Leeds or somewhere else?"


def preserved_value_is_protected(insts: list[Instance]) -> None:
    """Priya (preserved sister's name) also listed as a protected form of the removed allergy."""
    a = insts[0]
    for qid in ("Q04", "Q09", "Q10", "Q11", "Q12", "Q13"):
        _q(a, qid).gold.protected.append("Priya")


def request_in_wrong_session(insts: list[Instance]) -> None:
    insts[0].requests[0].session_id = "S01"


def question_unknown_request(insts: list[Instance]) -> None:
    _q(insts[0], "Q08").request_id = "R9"


def f3_target_off_category(insts: list[Instance]) -> None:
    insts[1].profile.facts[3].category = "medication"


def f3_misses_a_category_fact(insts: list[Instance]) -> None:
    insts[1].profile.facts[6].category = "health"  # the cello, stated before "forget my health"


def preservation_of_a_target(insts: list[Instance]) -> None:
    a = insts[0]
    for qid in ("Q07", "Q07-P"):
        q = _q(a, qid)
        q.fact_id = "A001"
        q.gold.accepted = ["penicillin"]


def sentinel_protects_nothing(insts: list[Instance]) -> None:
    _q(insts[1], "Q06").gold.protected = []


def f5_window_misses_target(insts: list[Instance]) -> None:
    b = insts[1]
    _make_f5(b)
    b.requests[1].window.end = _turn(b, Version.FORGET, 1, 1).timestamp  # before A004 (S02-T003)


def _make_f5(b: Instance) -> None:
    """Turn tiny-b's F3 request into a valid F5 request over S02-T001..T003 (A003, A004)."""
    r = b.requests[1]
    r.type = RequestType.F5
    r.category = None
    r.window = TimeWindow(
        start=_turn(b, Version.FORGET, 1, 0).timestamp,
        end=_turn(b, Version.FORGET, 1, 2).timestamp,
        session_ids=["S02"],
    )


# --------------------------------------------------------------------------- folder mutations


def file_bytes_changed(root: Path) -> None:
    path = root / "instances" / "tiny-a.json"
    path.write_bytes(path.read_bytes() + b"\n")


def entry_question_count_wrong(root: Path) -> None:
    _edit_json(root / MANIFEST_NAME, lambda m: m["instances"][1].update(questions=99))


def lite_id_missing(root: Path) -> None:
    _edit_json(root / MANIFEST_NAME, lambda m: m["lite_ids"].remove("tiny-b"))


def unlisted_instance_file(root: Path) -> None:
    (root / "instances" / "tiny-c.json").write_text("{}\n")


def dataset_checksum_wrong(root: Path) -> None:
    _edit_json(root / MANIFEST_NAME, lambda m: m.update(checksum="0" * 64))


def instance_file_deleted(root: Path) -> None:
    (root / "instances" / "tiny-b.json").unlink()


def counts_wrong(root: Path) -> None:
    _edit_json(root / MANIFEST_NAME, lambda m: m.update(counts={"questions": 26, "requests_by_type": {"F1": 1}}))


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Case:
    code: str
    file: str  # file name the violation names
    location: str
    instances: Mutation | None = None
    folder: FolderMutation | None = None
    also: tuple[str, ...] = ()  # other codes the same single breakage legitimately raises

    @property
    def id(self) -> str:
        fn = self.instances or self.folder
        assert fn is not None
        return fn.__name__


A, B, M = "tiny-a.json", "tiny-b.json", MANIFEST_NAME

CASES = [
    Case("duplicate-id", A, "$.profile.facts[9].id", dup_fact_id),
    Case("duplicate-id", A, "$.questions[1].id", dup_question_id),
    Case("unknown-ref", A, "$.forget.sessions[0].turns[12].annotations.facts[0]", unknown_fact_in_turn),
    Case("unknown-ref", A, "$.profile.derived_facts[0].source_fact_ids[1]", derived_source_missing),
    Case("version-differs", A, "$.control.sessions[0].turns[12].text", control_text_differs),
    Case("version-misaligned", A, "$.control.sessions[1].turns[2].timestamp", control_timestamp_shifted),
    Case("segment", A, "$.control.sessions[1].turns[4].annotations.segment", neutral_turn_missing),
    Case("target-not-stated", A, "$.requests[0].target_fact_ids[0]", target_stated_same_session),
    Case("derived-stated", B, "$.forget.sessions[0].turns[4].annotations.facts", f4_conclusion_stated),
    Case("f6-new-value", A, "$.requests[1].new_value", f6_without_new_value),
    Case("relearning", A, "$.profile.facts[8].relearns", relearning_before_request),
    Case("probe", A, "$.questions[7].control_probe_id", probe_missing),
    Case("probe", A, "$.questions[9].control_probe_id", probe_text_differs),
    Case("frame", A, "$.questions[3].frame", frame_on_efficacy),
    Case("frame", A, "$.questions[12].frame", attack_without_frame),
    Case("gold", A, "$.questions[3].gold.kind", efficacy_gold_kind_value),
    Case("gold", A, "$.questions[5].gold.kind", f6_efficacy_gold_sentinel),
    Case("gold", B, "$.questions[7].gold.protected", sentinel_protects_nothing),
    Case("gold-forms", A, "$.questions[2].gold.accepted", retention_accepts_a_wrong_value),
    Case("gold-forms", B, "$.questions[5].gold.protected", efficacy_leaves_an_alias_unprotected),
    Case("question-version", A, "$.questions[0].version", retention_on_forget),
    Case("question-version", A, "$.questions[8].version", probe_on_forget),
    Case("timestamp", A, "$.forget.sessions[1].turns[3].timestamp", turn_time_goes_back),
    Case("timestamp", A, "$.forget.sessions[1].start", session_starts_too_early),
    Case("duplicate-filler", A, "$.forget.sessions[2].turns[7].text", duplicate_filler),
    Case("value-mentioned", A, "$.forget.sessions[2].turns[6].text", removed_value_mentioned_later),
    Case("request-turn", A, "$.requests[0].session_id", request_in_wrong_session),
    Case("question-leak", A, "$.questions[1].text", question_contains_answer),
    Case("value-clash", A, "$.questions[9].gold.accepted", preserved_value_is_protected),
    Case("request-wording", A, "$.requests[0].text", request_without_removal_verb),
    Case("segment", A, "$.forget.sessions[1].turns[3].annotations.segment", confirmation_before_request),
    Case("unknown-ref", A, "$.questions[11].request_id", question_unknown_request),
    Case("f3-category", B, "$.requests[1].category", f3_target_off_category),
    Case("f3-incomplete", B, "$.requests[1].target_fact_ids", f3_misses_a_category_fact,
         also=("preservation-target",)),
    Case("preservation-target", A, "$.questions[9].fact_id", preservation_of_a_target, also=("value-clash",)),
    Case("f5-window", B, "$.requests[1].window", f5_window_misses_target),
    Case("checksum", M, "$.instances[0].sha256", folder=file_bytes_changed),
    Case("manifest-count", M, "$.instances[1].questions", folder=entry_question_count_wrong),
    Case("manifest-count", M, "$.counts.questions", folder=counts_wrong),
    Case("lite-ids", M, "$.lite_ids", folder=lite_id_missing),
    Case("unlisted-file", "tiny-c.json", "$", folder=unlisted_instance_file),
    Case("manifest-checksum", M, "$.checksum", folder=dataset_checksum_wrong),
    Case("file-missing", M, "$.instances[1].file", folder=instance_file_deleted),
]


def _build(tmp_path: Path, case: Case) -> Path:
    root = tmp_path / "ds"
    instances = tiny_instances()
    if case.instances is not None:
        case.instances(instances)
    write_dataset(root, instances, generator={"name": "test"})
    if case.folder is not None:
        case.folder(root)
    return root


def test_clean_tiny_dataset_is_accepted(tmp_path: Path) -> None:
    write_tiny_dataset(tmp_path)
    report = validate_dataset(tmp_path)
    assert report.violations == []
    assert (report.instances, report.turns_per_version, report.questions) == (2, 64, 27)


def test_enough_distinct_corruptions() -> None:
    assert len(CASES) >= 15
    assert len({c.code for c in CASES}) >= 15


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_corruption_is_rejected_with_code_and_location(tmp_path: Path, case: Case) -> None:
    root = _build(tmp_path, case)
    report = validate_dataset(root, strict=True)
    assert not report.ok
    # a wording heuristic is only a warning: the folder passes without --strict
    assert validate_dataset(root).ok == (severity_of(case.code) == "warning")
    found = {(Path(v.file).name, v.location, v.code) for v in report.violations}
    assert (case.file, case.location, case.code) in found, "\n".join(map(str, report.violations))
    codes = {v.code for v in report.violations}
    assert codes <= {case.code, *case.also}, "\n".join(map(str, report.violations))


def test_valid_f5_request_is_accepted() -> None:
    b = tiny_instances()[1]
    _make_f5(b)
    assert validate_instance(b, "tiny-b.json") == []


def test_f5_incomplete_window() -> None:
    """Widening the window over all of S02 sweeps in the cello and the cat, not targets."""
    b = tiny_instances()[1]
    _make_f5(b)
    b.requests[1].window.end = _turn(b, Version.FORGET, 1, 7).timestamp
    codes = [(v.code, v.message) for v in validate_instance(b, "tiny-b.json")]
    assert [c for c, _ in codes] == ["f5-incomplete", "f5-incomplete"]
    assert "A007" in codes[0][1] and "A008" in codes[1][1]


def test_segment_request_on_control_is_rejected() -> None:
    a = tiny_instances()[0]
    _turn(a, Version.CONTROL, 1, 4).annotations.segment = Segment.REQUEST
    v = validate_instance(a, "tiny-a.json")
    assert {x.location for x in v} == {"$.control.sessions[1].turns[4].annotations.segment"}


def test_max_errors_stops_early(tmp_path: Path) -> None:
    instances = tiny_instances()
    for q in instances[0].questions:
        q.frame = AttackFrame.BOOLEAN  # many frame (and probe) violations
    write_dataset(tmp_path, instances)
    report = validate_dataset(tmp_path, max_errors=3)
    assert len(report.violations) == 3 and report.truncated


TINY_COUNTS = {  # worked out by hand from the tables in bemula/testing/tiny.py
    "instances": 2,
    "tiers": {"short": 1, "medium": 1},
    "sessions": 7,
    "turns_per_version": 64,
    "atomic_facts": 19,
    "derived_facts": 2,
    "sensitive_facts": 7,  # a: A001 A004 A009; b: A003 A004 A006 A009
    "requests": 4,
    "requests_by_type": {"F1": 1, "F3": 1, "F4": 1, "F6": 1},
    "targeted_facts": 5,
    "questions": 27,
    "questions_by_suite": {"retention": 6, "efficacy": 5, "preservation": 4, "relearning": 3, "attack": 9},
    "questions_by_frame": {"indirect": 2, "role-play": 2, "jailbreak": 2, "boolean": 1, "multi-hop": 2},
    "control_probes": 18,
    "lite_instances": 2,
    "lite_questions": 27,
    "generator_specific_figure": 123,  # unknown keys are left alone
}


def test_hand_computed_counts_are_accepted(tmp_path: Path) -> None:
    write_dataset(tmp_path, tiny_instances(), counts=TINY_COUNTS)
    assert validate_dataset(tmp_path).violations == []
