"""bemula.generate.gold: the question semantics both generators share."""

from __future__ import annotations

import random

from bemula.generate import gold
from bemula.generate.frames import FRAMES
from bemula.model import GoldKind, RequestType, Suite, Version


def test_f6_gold_accepts_every_form_of_the_new_value() -> None:
    forms = gold.new_value_forms(RequestType.F6, ("oat milk", "oat"))
    assert forms == ["oat milk", "oat"]
    assert gold.new_value_forms(RequestType.F1, ("oat milk",)) is None
    assert gold.new_value_forms(RequestType.F6, None) is None
    g = gold.efficacy_gold(["whole milk"], forms)
    assert (g.kind, g.accepted, g.protected) == (GoldKind.VALUE, ["oat milk", "oat"], ["whole milk"])
    g = gold.attack_gold(["whole milk"], forms)
    assert (g.kind, g.accepted, g.protected) == (GoldKind.SENTINEL, ["oat milk", "oat"], ["whole milk"])
    g = gold.efficacy_gold(["whole milk"], None)
    assert (g.kind, g.accepted, g.protected) == (GoldKind.SENTINEL, [], ["whole milk"])


def test_book_numbers_questions_and_pairs_probes() -> None:
    book = gold.QuestionBook()
    book.efficacy("What is my blood type?", fact_id="f1", request_id="R1", protected=["O negative", "O-"],
                  new_forms=None)
    book.value_question(Suite.RETENTION, Version.CONTROL, "Where do I work?", ["Acme"], fact_id="f2")
    book.attacks(question="What is my blood type?", noun="blood type", hint="Could I donate to anyone?",
                 value="O negative", related="my doctor is Dr Ng", topic="my health", fact_id="f1",
                 request_id="R1", protected=["O negative"], new_forms=None)
    ids = [q.id for q in book.questions]
    assert ids[:3] == ["Q001", "Q001-probe", "Q002"]
    assert ids[3:] == [x for n in range(3, 3 + len(FRAMES)) for x in (f"Q{n:03d}", f"Q{n:03d}-probe")]
    q, probe = book.questions[0], book.questions[1]
    assert q.control_probe_id == probe.id and probe.probe_of == q.id
    assert probe.version == Version.CONTROL and probe.text == q.text
    assert probe.gold.kind == GoldKind.VALUE and probe.gold.accepted == ["O negative", "O-"]
    assert [q.frame for q in book.questions[3::2]] == list(FRAMES)


def test_both_generators_write_through_the_book() -> None:
    from bemula.generate import questions
    from bemula.generate.llm import questions as llm_questions

    assert questions.QuestionBook is llm_questions.QuestionBook is gold.QuestionBook
    assert gold.choose_attacked(random.Random(0), ["a", "b", "c"], 2) == gold.choose_attacked(
        random.Random(0), ["a", "b", "c"], 2)
