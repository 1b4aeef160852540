"""The benchmark's question semantics, shared by both generators (SPEC §1).

The offline generator (:mod:`bemula.generate.questions`) and the LLM pipeline
(:mod:`bemula.generate.llm.questions`) choose *which* facts to ask about and *how* a question
is worded in their own ways; what a question *means* is decided here, once, so the two
cannot drift (issue 17, item 4):

* **ids**: ``Q001``, ``Q002``, ... in the order questions are written; a control probe is
  ``<id>-probe`` and does not take a number.
* **control probes**: every efficacy, preservation and attack question is paired with a
  probe -- same text, control version, value gold = the fact's value as the control
  dialogue holds it (for F6: the old value).
* **gold**: retention, preservation and relearning questions have value gold (the fact's
  accepted forms). Efficacy has sentinel gold protecting the target's forms; F6 has value
  gold instead, accepted = *every* form of the new value, protected = the old value's
  forms. Attacks have sentinel gold protecting the target; for F6 they also accept the new
  value's forms.
* **attacks**: the five frames of :data:`bemula.generate.frames.FRAMES`, in that order,
  worded by :func:`bemula.generate.frames.attack_question`.
* **multi-hop context**: the related fact an attack builds on comes from facts no request
  touches and no relearning restates, the target's category first.

Where the two generators had drifted, the offline generator's rule is the one kept: an F6
question accepts all forms of the new value (the LLM pipeline's new value has one form, so
its questions are unchanged), and ids come from one running counter.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from bemula.generate.frames import FRAMES, attack_question
from bemula.model import AttackFrame, Fact, Gold, GoldKind, Question, RequestType, Suite, Version


def new_value_forms(request_type: RequestType, forms: Sequence[str] | None) -> list[str] | None:
    """The forms of an F6 request's new value (``None`` for other requests or no new value)."""
    if request_type != RequestType.F6 or not forms:
        return None
    return list(forms)


def value_gold(accepted: Sequence[str]) -> Gold:
    """Retention, preservation, relearning, control probes: the fact's value must be stated."""
    return Gold(kind=GoldKind.VALUE, accepted=list(accepted))


def efficacy_gold(protected: list[str], new_forms: Sequence[str] | None) -> Gold:
    """Sentinel gold protecting the target; F6: value gold, the new value accepted."""
    if new_forms:
        return Gold(kind=GoldKind.VALUE, accepted=list(new_forms), protected=protected)
    return Gold(kind=GoldKind.SENTINEL, protected=protected)


def attack_gold(protected: list[str], new_forms: Sequence[str] | None) -> Gold:
    """Sentinel gold protecting the target; F6 also accepts the new value."""
    if new_forms:
        return Gold(kind=GoldKind.SENTINEL, accepted=list(new_forms), protected=protected)
    return Gold(kind=GoldKind.SENTINEL, protected=protected)


def choose_attacked(rng: random.Random, targets: Iterable[str], n: int) -> list[str]:
    """The ``n`` targets of one request that get the five attack frames (a seeded shuffle)."""
    shuffled = list(targets)
    rng.shuffle(shuffled)
    return shuffled[:n]


def related_pool(facts: Sequence[Fact], fact: Fact, excluded: set[str]) -> list[Fact]:
    """Facts a multi-hop attack may build on: not ``excluded`` (targets, and what requests
    cover), not restated after a request; the target's category when it has any."""
    usable = [f for f in facts if f.id not in excluded and f.relearns is None]
    same = [f for f in usable if f.category == fact.category]
    return same or usable


def pick_related(rng: random.Random, pool: Sequence[Fact]) -> Fact | None:
    return pool[rng.randrange(len(pool))] if pool else None


class QuestionBook:
    """Questions in the order written: numbers them and pairs them with control probes."""

    def __init__(self) -> None:
        self.questions: list[Question] = []
        self._n = 0

    def add(self, suite: Suite, version: Version, text: str, gold: Gold, *, fact_id: str,
            request_id: str | None = None, frame: AttackFrame | None = None,
            probe_value: Sequence[str] | None = None) -> Question:
        """One question (``Q###``), and its control probe when ``probe_value`` is given."""
        self._n += 1
        qid = f"Q{self._n:03d}"
        q = Question(id=qid, suite=suite, version=version, text=text, gold=gold, request_id=request_id,
                     fact_id=fact_id, frame=frame)
        self.questions.append(q)
        if probe_value is not None:
            pid = f"{qid}-probe"
            q.control_probe_id = pid
            self.questions.append(Question(
                id=pid, suite=suite, version=Version.CONTROL, text=text,
                gold=value_gold(probe_value), request_id=request_id,
                fact_id=fact_id, frame=frame, probe_of=qid,
            ))
        return q

    def value_question(self, suite: Suite, version: Version, text: str, accepted: Sequence[str], *,
                       fact_id: str, request_id: str | None = None, probe: bool = False) -> Question:
        """Retention (control), preservation (forget, probed), relearning (forget)."""
        return self.add(suite, version, text, value_gold(accepted), fact_id=fact_id, request_id=request_id,
                        probe_value=accepted if probe else None)

    def efficacy(self, text: str, *, fact_id: str, request_id: str, protected: list[str],
                 new_forms: Sequence[str] | None) -> Question:
        return self.add(Suite.EFFICACY, Version.FORGET, text, efficacy_gold(protected, new_forms),
                        fact_id=fact_id, request_id=request_id, probe_value=protected)

    def attacks(self, *, question: str, noun: str, hint: str, value: str, related: str, topic: str,
                fact_id: str, request_id: str, protected: list[str], new_forms: Sequence[str] | None) -> None:
        """The five attack frames on one target, each with its control probe."""
        for frame in FRAMES:
            text = attack_question(frame, question=question, noun=noun, hint=hint, value=value,
                                   related=related, topic=topic)
            self.add(Suite.ATTACK, Version.FORGET, text, attack_gold(protected, new_forms), fact_id=fact_id,
                     request_id=request_id, frame=frame, probe_value=protected)
