"""Realism floors from the issue: >= 80 attribute kinds over >= 12 categories, >= 5
phrasings for every kind of utterance, >= 10 derived-fact templates."""

from __future__ import annotations

import random

import pytest

from bemula.generate import phrasing
from bemula.generate.catalog import ATTRIBUTES, CATEGORIES
from bemula.generate.derived import DERIVED_TEMPLATES
from bemula.generate.frames import FRAMES, JAILBREAK_PREFIX, attack_question
from bemula.generate.profile import statement_for
from bemula.model import AttackFrame, RequestType


def test_catalog_size() -> None:
    assert len(ATTRIBUTES) >= 80
    assert len({a.category for a in ATTRIBUTES}) >= 12
    assert len(CATEGORIES) >= 12
    for c in CATEGORIES:
        assert len(c.descriptions) >= 5, c.key


_QWORDS = {"what", "which", "who", "how", "when", "where", "many", "much", "does", "did", "have", "the", "and",
           "was", "are", "for", "use", "take", "with", "long", "what's"}


def test_attribute_values_and_question_words() -> None:
    for a in ATTRIBUTES:
        assert len(a.values) >= 3, a.key
        texts = [v.text.lower() for v in a.values]
        assert len(set(texts)) == len(texts), a.key
        # the question names the attribute in words that at least one statement core uses
        v = a.values[0].text
        cores = [c.format(noun=a.noun, v=v) for c in a.cores] + [f"my {a.noun} is {v}"] * a.use_generic
        q_words = {w for w in a.question.lower().replace("?", "").split() if len(w) >= 3 and w not in _QWORDS}
        assert any(w.rstrip("s") in core.lower() for core in cores for w in q_words), a.key


@pytest.mark.parametrize("attr", ATTRIBUTES[:: max(1, len(ATTRIBUTES) // 20)], ids=lambda a: a.key)
def test_at_least_five_statement_phrasings(attr) -> None:
    rng = random.Random(1)
    seen = {statement_for(rng, attr, attr.values[0].text) for _ in range(200)}
    assert len(seen) >= 5


@pytest.mark.parametrize("rtype", list(RequestType))
def test_request_styles(rtype: RequestType) -> None:
    styles = phrasing.REQUEST_STYLES[rtype]
    assert len(set(styles)) >= 5
    for style in styles:
        assert any(w in style.lower() for w in ("forget", "delete", "erase", "remove", "wipe")), style
    if rtype == RequestType.F6:
        assert all("{new}" in s for s in styles)


def test_other_phrasing_pools() -> None:
    for pool in (phrasing.CONFIRMATIONS, phrasing.F6_CONFIRMATIONS, [u for u, _ in phrasing.NEUTRAL_EXCHANGES],
                 [r for _, rs in phrasing.NEUTRAL_EXCHANGES for r in rs], phrasing.QUESTION_WRAPPERS, phrasing.ACK_BODIES,
                 phrasing.STATEMENT_LEADS):
        assert len(set(pool)) >= 5


def test_derived_templates() -> None:
    assert len(DERIVED_TEMPLATES) >= 10
    rng = random.Random(0)
    for t in DERIVED_TEMPLATES:
        assert len(t.source_keys) >= 2
        for _ in range(20):
            d = t.derive(rng)
            assert set(d.sources) == set(t.source_keys)
            assert d.rationale
            # the conclusion is a new string: no source value contains it or is contained in it
            for v in d.sources.values():
                assert d.conclusion.text.lower() not in v.text.lower()


def test_frames_fixed_wording() -> None:
    assert set(FRAMES) == set(AttackFrame)
    kw = dict(question="What is my blood type?", noun="blood type", hint="Which donor blood matches me?",
              value="O negative", related="my GP's name is Dr. Okonkwo", topic="my health")
    assert attack_question(AttackFrame.JAILBREAK, **kw).startswith(JAILBREAK_PREFIX)
    assert "O negative" in attack_question(AttackFrame.BOOLEAN, **kw)
    assert "blood type" not in attack_question(AttackFrame.INDIRECT, **kw)
    assert "Dr. Okonkwo" in attack_question(AttackFrame.MULTI_HOP, **kw)


def test_indirect_hints_do_not_name_the_attribute() -> None:
    for a in [*ATTRIBUTES, *DERIVED_TEMPLATES]:
        assert a.noun.lower() not in a.hint.lower(), a.key
        assert a.hint.endswith("?"), a.key
