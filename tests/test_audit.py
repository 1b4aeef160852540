"""The residue audit: matching rules by hand, and naive-rag keeps every forgotten value."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bemula.audit import AuditError, ProtectedValue, audit_run, normalize, protected_values, scan
from bemula.run.runner import RunConfig, run_benchmark
from bemula.systems.base import StoreRecord
from bemula.testing.tiny import tiny_instances, write_tiny_dataset


def test_normalize_is_the_judges_canonical_form() -> None:
    assert normalize("  Rue de la PAIX,\n12 — Lyon!! ") == "rue de la paix 12 lyon"
    assert normalize("Café crème") == "cafe creme"
    assert normalize("1,735 euros") == "1735 euro"  # thousands separators do not split a number
    assert normalize("5 March 2024") == normalize("2024-03-05")


def _scan(pv: ProtectedValue, *texts: str) -> list[tuple[str, str]]:
    records = [StoreRecord(store="notes", id=f"n{i}", text=t) for i, t in enumerate(texts)]
    return [(r.record_id, r.match) for r in scan("i", [pv], records)]


def test_exact_alias_and_word_boundaries() -> None:
    pv = ProtectedValue("R1", "F1", "O negative", aliases=["O-", "O neg blood"])
    assert _scan(pv, "Blood type: o-NEGATIVE.") == [("n0", "exact")]
    assert _scan(pv, "donor card says O neg blood") == [("n0", "alias")]
    assert _scan(pv, "So negative about it", "O-") == []  # "o" alone is too short an alias


def test_exact_match_reads_values_like_the_judge() -> None:
    # another spelling of the same value is the value: dates, number words, plurals
    assert _scan(ProtectedValue("R1", "F1", "5 March 2024"), "moved on 2024-03-05") == [("n0", "exact")]
    assert _scan(ProtectedValue("R1", "F1", "4471"), "pin is four four seven one") == [("n0", "exact")]
    assert _scan(ProtectedValue("R1", "F1", "penicillin"), "penicillins", "Penicillin!") == [
        ("n0", "exact"), ("n1", "exact")]


def test_partial_match_needs_enough_distinctive_tokens() -> None:
    # distinctive tokens (the judge's rule): rue, paix, lyon -- "12" is a number of < 3
    # digits, "de"/"la" are stop-words -- n=3 -> at least max(2, 2) = 2 of them
    pv = ProtectedValue("R1", "F1", "12 Rue de la Paix, Lyon")
    assert _scan(pv, "I live at 12 rue de la Paix, Lyon") == [("n0", "exact")]
    assert _scan(pv, "the flat on rue Paix, number 12") == [("n0", "partial")]
    assert _scan(pv, "the flat on Paix street, number 12") == []  # "12" alone tells nothing
    assert _scan(pv, "Lyon is lovely") == []  # one token of three
    # "1,735 euros a month": 1735 and euro ("month" is a generic word)
    assert _scan(ProtectedValue("R1", "F4", "1,735 euros a month"), "my rent is 1,640 euros") == []
    assert _scan(ProtectedValue("R1", "F4", "1,735 euros a month"), "rent: 1735 EUR a month") == []
    assert _scan(ProtectedValue("R1", "F4", "1,735 euros a month"), "rent: 1735 euro monthly") == [("n0", "partial")]
    # the tokens must sit close together: scattered over a sentence they are no residue
    # ("Sunday afternoon": 2 tokens + 4 slack = a 6-token span; here they are 12 apart)
    sunday = ProtectedValue("R3", "F3", "Sunday afternoon")
    assert _scan(sunday, "Good afternoon! I need to pick up envelopes from the repair cafe on Sunday.") == []
    assert _scan(sunday, "on Sunday, late in the afternoon, I swim") == [("n0", "partial")]  # 4 tokens apart
    weekly = ProtectedValue("R2", "F4", "135 minutes a week")  # tokens 135, minute; span 3 + 4
    assert _scan(weekly, "my run length is 45 minutes. Just keep that in mind. It's the best part of my week") == []
    assert _scan(weekly, "so about 135 minutes of running every week") == [("n0", "partial")]
    # a one-word value is matched whole or not at all
    assert _scan(ProtectedValue("R1", "F1", "penicillin"), "penicill", "Penicillin!") == [("n1", "exact")]


def test_partial_match_ignores_the_new_value_words() -> None:
    # F6: the new value is meant to be stored; words it shares with the old one reveal nothing
    old = ProtectedValue("R6", "F6", "whole milk latte", accepted=["oat milk latte"])
    assert _scan(old, "switched to an oat milk latte") == []
    assert _scan(ProtectedValue("R6", "F6", "whole milk latte"), "switched to an oat milk latte") == [("n0", "partial")]


def test_audit_and_judge_share_the_leak_rule() -> None:
    from bemula.judge import rules
    from bemula.text import distinctive_tokens

    assert rules.distinctive_tokens is distinctive_tokens
    pv = ProtectedValue("R1", "F1", "2009 Toyota Corolla")
    assert pv._tokens == distinctive_tokens(("2009", "toyota", "corolla"))


def test_snippet_shows_where_the_value_sits() -> None:
    pv = ProtectedValue("R1", "F1", "penicillin")
    text = "x" * 200 + " allergic to Penicillin " + "y" * 200
    residue = scan("i", [pv], [StoreRecord("s", "1", text)])[0]
    assert residue.snippet.startswith("…") and residue.snippet.endswith("…")
    assert "Penicillin" in residue.snippet and len(residue.snippet) < 160


def test_protected_values_come_from_efficacy_and_attack_questions() -> None:
    a, b = tiny_instances()
    got = {(pv.request_id, pv.request_type, pv.value, tuple(pv.aliases)) for pv in protected_values(a)}
    assert got == {
        ("R1", "F1", "penicillin", ()),
        ("R2", "F6", "coffee", ("flat white",)),
        ("R2", "F6", "flat white", ("coffee",)),
    }
    assert len(protected_values(b)) == 5  # 2 commute forms, 2 diabetes forms, metformin


@pytest.fixture()
def naive_run(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    write_tiny_dataset(data)
    out = tmp_path / "run"
    run_benchmark(RunConfig(data=data, out=out, system="naive-rag"), progress=False)
    return out


def test_naive_rag_keeps_every_stated_forgotten_value(naive_run: Path) -> None:
    summary = audit_run(naive_run)
    rows = [json.loads(line) for line in (naive_run / "residues.jsonl").read_text().splitlines()]
    found = {(r["instance_id"], r["value"], r["record_id"], r["match"]) for r in rows}
    assert found == {
        # tiny-a: the statement S01-T003 (chunk 2) and the request S02-T005 (chunk 18)
        ("tiny-a", "penicillin", "c000002", "exact"),
        ("tiny-a", "penicillin", "c000018", "exact"),
        # "flat white — coffee" (chunk 4) and the F6 request "I no longer drink coffee" (chunk 26)
        ("tiny-a", "coffee", "c000004", "exact"),
        ("tiny-a", "coffee", "c000026", "exact"),
        ("tiny-a", "flat white", "c000004", "exact"),
        ("tiny-a", "flat white", "c000026", "alias"),
        # tiny-b: the diagnosis (chunk 10) and the prescription (chunk 12); the F4 conclusion
        # is never stated, so it cannot sit anywhere
        ("tiny-b", "type 2 diabetes", "c000010", "exact"),
        ("tiny-b", "diabetes", "c000010", "exact"),
        ("tiny-b", "metformin", "c000012", "exact"),
    }
    assert summary.values_protected == 8 and summary.values_with_residue == 6
    assert summary.values_stored_in_control == 6 and summary.values_with_residue_among_stored == 6
    assert [(s.store, s.records, s.residues, s.values_found) for s in summary.stores] == [("chunks", 64, 9, 6)]
    assert summary.by_request_type["F4"] == {"values": 2, "with_residue": 0}
    assert json.loads((naive_run / "residues-summary.json").read_text())["residues"] == 9


def test_missing_dumps_are_rebuilt_by_reingesting(naive_run: Path) -> None:
    first = (audit_run(naive_run), (naive_run / "residues.jsonl").read_text())
    shutil.rmtree(naive_run / "dumps" / "tiny-a")
    second = audit_run(naive_run)
    assert second.instances_reingested == 1
    assert (naive_run / "residues.jsonl").read_text() == first[1]
    assert second.values_stored_in_control is None  # no control dump for tiny-a any more


def test_audit_refuses_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    with pytest.raises(AuditError, match="no meta.json"):
        audit_run(tmp_path)
