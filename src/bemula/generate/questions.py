"""The five question suites and their control probes (SPEC §1).

How many questions of each kind an instance gets is decided by the caller
(:class:`QuestionBudget`), so the benchmark's totals land on the paper's figures; this
module decides *which* facts are asked about and writes the questions and gold.

* retention (control): facts the user stated, asked on the control version.
* efficacy (forget): one per target.
* preservation (forget): untargeted facts never covered by an F3 category or an F5 window
  and not F4 sources; some share a category with a target (hard cases).
* relearning (forget): the facts stated after a request.
* attack (forget): the five frames on each attacked target.

Ids, control probes and gold -- what each question means -- are
:mod:`bemula.generate.gold`'s, shared with the LLM pipeline.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bemula.generate.catalog import ATTRIBUTE_BY_KEY, CATEGORY_BY_KEY
from bemula.generate.derived import DERIVED_BY_KEY
from bemula.generate.gold import QuestionBook, choose_attacked, new_value_forms, pick_related, related_pool
from bemula.generate.phrasing import QUESTION_WRAPPERS, pick
from bemula.generate.plan import RequestPlan
from bemula.model import DerivedFact, Fact, Profile, Question, RequestType, Suite, Version


@dataclass
class QuestionBudget:
    retention: int
    preservation: int
    #: request id -> how many of its targets get the five attack frames
    attacks: dict[str, int]


@dataclass
class _Spec:
    noun: str
    question: str
    hint: str
    topic: str


def _spec(fact: Fact | DerivedFact) -> _Spec:
    if isinstance(fact, DerivedFact):
        t = DERIVED_BY_KEY[fact.attribute]
        return _Spec(t.noun, t.question, t.hint, CATEGORY_BY_KEY[t.category].descriptions[0])
    a = ATTRIBUTE_BY_KEY[fact.attribute]
    return _Spec(a.noun, a.question, a.hint, CATEGORY_BY_KEY[a.category].descriptions[0])


def _related_text(fact: Fact) -> str:
    return ATTRIBUTE_BY_KEY[fact.attribute].plain_text(fact.value)


class QuestionWriter:
    def __init__(self, rng: random.Random, profile: Profile, plans: list[RequestPlan],
                 shares_turn_with_target: set[str] | None = None, *,
                 asker: Callable[[Fact | DerivedFact], str] | None = None,
                 stated_early: set[str] | None = None, companions: dict[str, str] | None = None,
                 near_miss_first: bool = False) -> None:
        self.rng = rng
        #: edition 2: questions as people ask them (a phrase bank); edition 1: catalog questions
        self.asker = asker
        #: edition 2: facts stated before the first request; preservation prefers them, so a
        #: preservation question can catch over-deletion by any request
        self.stated_early = stated_early
        #: edition 2: target id -> a kept fact said in one message with it. The multi-hop
        #: attack builds on that fact (a memory keeping the message can reconstruct the
        #: target) and preservation asks about it first (the nearest miss there is)
        self.companions = companions or {}
        #: edition 2: each target's nearest kept fact gets a preservation question first
        self.near_miss_first = near_miss_first
        #: untargeted facts stated in the same user turn as a target: not used for
        #: preservation, so a system that drops a whole turn is not charged twice
        self.shares_turn = shares_turn_with_target or set()
        self.profile = profile
        self.plans = plans
        self.facts = {f.id: f for f in profile.facts}
        self.derived = {d.id: d for d in profile.derived_facts}
        self.book = QuestionBook()

    @property
    def questions(self) -> list[Question]:
        return self.book.questions

    # ----------------------------------------------------------------- helpers
    def _ask(self, fact: Fact | DerivedFact) -> str:
        if self.asker is not None:
            return self.asker(fact)
        return pick(self.rng, QUESTION_WRAPPERS).format(q=_spec(fact).question)

    # ----------------------------------------------------------------- suites
    def write(self, budget: QuestionBudget) -> list[Question]:
        targeted = {t for p in self.plans for t in p.targets}
        covered = {f for p in self.plans for f in p.stated_before}
        relearning = {f.id for f in self.profile.facts if f.relearns}
        f3_categories = {p.category for p in self.plans if p.type == RequestType.F3}
        attacked = self._choose_attacked(budget.attacks)

        for plan in self.plans:
            for tid in plan.targets:
                self._efficacy(plan, tid)
                if tid in attacked:
                    self._attacks(plan, tid, targeted | covered)
            for fid in plan.relearn_ids:
                f = self.facts[fid]
                self.book.value_question(Suite.RELEARNING, Version.FORGET, self._ask(f), f.accepted,
                                         fact_id=fid, request_id=plan.id)

        eligible = [f for f in self.profile.facts
                    if f.id not in covered and f.id not in relearning and f.category not in f3_categories
                    and f.id not in self.shares_turn]
        if self.stated_early is not None:
            early = [f for f in eligible if f.id in self.stated_early]
            if len(early) >= budget.preservation:
                eligible = early
        target_cats = {self._category(t) for t in targeted}
        hard = [f for f in eligible if f.category in target_cats]
        easy = [f for f in eligible if f.category not in target_cats]
        self.rng.shuffle(hard)
        self.rng.shuffle(easy)
        if self.near_miss_first:
            hard = self._near_misses(eligible, hard)
        n_hard = min(len(hard), (budget.preservation + 1) // 2)
        if self.near_miss_first:
            n_hard = min(len(hard), max(n_hard, (2 * budget.preservation + 2) // 3))
        preserved = hard[:n_hard] + easy[: budget.preservation - n_hard]
        if len(preserved) < budget.preservation:
            preserved += hard[n_hard: n_hard + budget.preservation - len(preserved)]
        for f in preserved:
            self.book.value_question(Suite.PRESERVATION, Version.FORGET, self._ask(f), f.accepted,
                                     fact_id=f.id, probe=True)

        asked = {q.fact_id for q in self.questions}
        base = [f for f in self.profile.facts if f.relearns is None]
        fresh = [f for f in base if f.id not in asked]
        self.rng.shuffle(fresh)
        pool = fresh + [f for f in base if f.id in asked]
        for f in pool[: budget.retention]:
            self.book.value_question(Suite.RETENTION, Version.CONTROL, self._ask(f), f.accepted, fact_id=f.id)
        return self.questions

    def _near_misses(self, eligible: list[Fact], hard: list[Fact]) -> list[Fact]:
        """``hard`` reordered so that the first facts cover as many targets as they can with a
        near miss (a kept fact of the target's category, its companion when it has one);
        one fact covers every target of its category."""
        ok = {f.id: f for f in eligible}
        first: list[Fact] = []
        covered: set[str] = set()
        for plan in self.plans:
            for tid in plan.targets:
                cat = self._category(tid)
                if cat in covered:
                    continue
                options = [self.companions[tid]] if tid in self.companions else []
                options += [f.id for f in hard if f.category == cat]
                pick_id = next((o for o in options if o in ok and ok[o].category == cat), None)
                if pick_id is not None:
                    first.append(ok[pick_id])
                    covered.add(cat)
        return first + [f for f in hard if f not in first]

    def _category(self, fid: str) -> str:
        return self.derived[fid].category if fid in self.derived else self.facts[fid].category

    def _choose_attacked(self, attacks: dict[str, int]) -> set[str]:
        chosen: set[str] = set()
        for plan in self.plans:
            chosen.update(choose_attacked(self.rng, plan.targets, attacks.get(plan.id, 0)))
        return chosen

    def _target(self, tid: str) -> Fact | DerivedFact:
        return self.derived[tid] if tid in self.derived else self.facts[tid]

    @staticmethod
    def _new_forms(plan: RequestPlan) -> list[str] | None:
        return new_value_forms(plan.type, plan.new_value.forms if plan.new_value is not None else None)

    def _efficacy(self, plan: RequestPlan, tid: str) -> None:
        fact = self._target(tid)
        self.book.efficacy(self._ask(fact), fact_id=tid, request_id=plan.id, protected=fact.accepted,
                           new_forms=self._new_forms(plan))

    def _related(self, plan: RequestPlan, tid: str, excluded: set[str]) -> str:
        if tid in self.derived:
            sources = [self.facts[s] for s in self.derived[tid].source_fact_ids]
            return " and ".join(_related_text(s) for s in sources)
        fact = self.facts[tid]
        if tid in self.companions:
            return _related_text(self.facts[self.companions[tid]])
        other = pick_related(self.rng, related_pool(self.profile.facts, fact, excluded))
        return _related_text(other) if other is not None else "you know me well"

    def _attacks(self, plan: RequestPlan, tid: str, excluded: set[str]) -> None:
        fact = self._target(tid)
        spec = _spec(fact)
        related = self._related(plan, tid, excluded)
        question = spec.question if self.asker is None else self.asker(fact)
        self.book.attacks(question=question, noun=spec.noun, hint=spec.hint, value=fact.value, related=related,
                          topic=spec.topic, fact_id=tid, request_id=plan.id, protected=fact.accepted,
                          new_forms=self._new_forms(plan))
