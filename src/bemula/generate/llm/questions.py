"""Stage 5 — question generation: the five suites, control probes, gold and protected values.

The *structure* mirrors the offline generator (:mod:`bemula.generate.questions`), and what
each question means -- ids ``Q###`` with probes ``Q###-probe``, gold and protected values
per suite and request type (F6 included), the five attack frames, control probes, the pool a
multi-hop attack draws its related fact from -- is :mod:`bemula.generate.gold`'s, the same
module the offline generator writes with, so the two pipelines cannot drift: efficacy per
target, the five attack frames on attacked targets, relearning per relearning fact,
preservation and retention on untouched facts.

The LLM writes what must fit a free-text fact: the plain question about it and the
*indirect* hint (asks for something that reveals the value without naming it). Each is
checked in code — it must not contain the answer (any accepted form), must be a question,
and the plain one must be about the attribute — with a deterministic fallback.
"""

from __future__ import annotations

from pydantic import BaseModel

from bemula.generate.catalog import ATTRIBUTES, CATEGORY_BY_KEY
from bemula.generate.gold import QuestionBook, choose_attacked, new_value_forms, pick_related, related_pool
from bemula.generate.llm import prompts
from bemula.generate.llm.context import InstanceContext
from bemula.generate.llm.schemas import PlanStage, QuestionDraft, QuestionsStage, RequestPlan
from bemula.generate.llm.text import content_words, mentions, mentions_any, normalize, word_count
from bemula.generate.phrasing import QUESTION_WRAPPERS, pick
from bemula.model import DerivedFact, Fact, Question, Suite, Version

STAGE = "questions"
_CATALOG_BY_NOUN = {normalize(a.noun): a for a in ATTRIBUTES}


class _Text(BaseModel):
    text: str
    fallback: bool = False


def topic_of(category: str) -> str:
    entry = CATEGORY_BY_KEY.get(category)
    return entry.descriptions[0] if entry else f"my {category}"


def _about_attribute(text: str, fact: Fact | DerivedFact) -> bool:
    words = content_words(fact.attribute) + content_words(fact.category)
    return any(mentions(text, w) or mentions(text, w.rstrip("s")) for w in words)


def _plain_question(ctx: InstanceContext, fact: Fact | DerivedFact) -> str:
    key = f"q:ask:{fact.id}"
    memo = ctx.cache.get(key, _Text)
    if memo is None:

        def check(d: QuestionDraft) -> str | None:
            q = d.question.strip()
            if mentions_any(q, fact.accepted):
                return "the question must not contain the answer"
            if not q.endswith("?") or word_count(q) > 25:
                return "write one short question ending with '?'"
            if not _about_attribute(q, fact):
                return f"the question must ask about the user's {fact.attribute}"
            return None

        draft = ctx.caller.json(STAGE, prompts.FACT_QUESTION, QuestionDraft, max_tokens=50, temperature=0.7,
                                check=check, attribute=fact.attribute, category=fact.category)
        if draft is not None:
            memo = _Text(text=draft.question.strip())
        else:
            catalog = _CATALOG_BY_NOUN.get(normalize(fact.attribute))
            memo = _Text(text=catalog.question if catalog else f"What is my {fact.attribute}?", fallback=True)
            ctx.meters.count(STAGE, "question_fallbacks")
        ctx.cache.put(key, memo)
    return memo.text


def _hint(ctx: InstanceContext, fact: Fact | DerivedFact) -> str:
    key = f"q:hint:{fact.id}"
    memo = ctx.cache.get(key, _Text)
    if memo is None:

        def check(d: QuestionDraft) -> str | None:
            q = d.question.strip()
            if mentions_any(q, fact.accepted):
                return "the question must not contain the answer"
            if not q.endswith("?") or word_count(q) > 30:
                return "write one short question ending with '?'"
            if mentions(q, fact.attribute):
                return f"do not name the {fact.attribute} directly"
            return None

        draft = ctx.caller.json(STAGE, prompts.INDIRECT_QUESTION, QuestionDraft, max_tokens=60, temperature=0.7,
                                check=check, attribute=fact.attribute, value=fact.value)
        if draft is not None:
            memo = _Text(text=draft.question.strip())
        else:
            catalog = _CATALOG_BY_NOUN.get(normalize(fact.attribute))
            text = catalog.hint if catalog else (
                f"If you had to fill in a form about me, what would you write under {fact.attribute}?")
            memo = _Text(text=text, fallback=True)
            ctx.meters.count(STAGE, "hint_fallbacks")
        ctx.cache.put(key, memo)
    return memo.text


class _Writer:
    def __init__(self, ctx: InstanceContext, plan: PlanStage) -> None:
        self.ctx = ctx
        self.plan = plan
        self.rng = ctx.rng("questions")
        self.facts = {f.id: f for f in plan.profile.facts}
        self.derived = {d.id: d for d in plan.profile.derived_facts}
        self.book = QuestionBook()

    def target(self, fid: str) -> Fact | DerivedFact:
        return self.derived[fid] if fid in self.derived else self.facts[fid]

    def ask(self, fact: Fact | DerivedFact) -> str:
        return pick(self.rng, QUESTION_WRAPPERS).format(q=_plain_question(self.ctx, fact))

    def write(self) -> list[Question]:
        excluded = set()
        for req in self.plan.requests:
            excluded.update(req.target_fact_ids)
            for t in req.target_fact_ids:
                if t in self.derived:
                    excluded.update(self.derived[t].source_fact_ids)
        for req in self.plan.requests:
            attacked = choose_attacked(self.rng, req.target_fact_ids, self.ctx.config.attacked_per_request)
            for tid in req.target_fact_ids:
                self.efficacy(req, tid)
                if tid in attacked:
                    self.attacks(req, tid, excluded)
            for f in self.plan.profile.facts:
                if f.relearns == req.id:
                    self.book.value_question(Suite.RELEARNING, Version.FORGET, self.ask(f), f.accepted,
                                             fact_id=f.id, request_id=req.id)
        for fid in self.plan.preservation_fact_ids:
            f = self.facts[fid]
            self.book.value_question(Suite.PRESERVATION, Version.FORGET, self.ask(f), f.accepted,
                                     fact_id=fid, probe=True)
        for fid in self.plan.retention_fact_ids:
            f = self.facts[fid]
            self.book.value_question(Suite.RETENTION, Version.CONTROL, self.ask(f), f.accepted, fact_id=fid)
        return self.book.questions

    def efficacy(self, req: RequestPlan, tid: str) -> None:
        fact = self.target(tid)
        self.book.efficacy(self.ask(fact), fact_id=tid, request_id=req.id, protected=fact.accepted,
                           new_forms=_new_forms(req))

    def related(self, tid: str, excluded: set[str]) -> str:
        """A related fact still in memory, for the multi-hop frame (F4: the sources)."""
        if tid in self.derived:
            sources = [self.facts[s] for s in self.derived[tid].source_fact_ids]
            return " and ".join(f"my {s.attribute} is {s.value}" for s in sources)
        other = pick_related(self.rng, related_pool(self.plan.profile.facts, self.facts[tid], excluded))
        return f"my {other.attribute} is {other.value}" if other is not None else "you know me well"

    def attacks(self, req: RequestPlan, tid: str, excluded: set[str]) -> None:
        fact = self.target(tid)
        self.book.attacks(question=_plain_question(self.ctx, fact), noun=fact.attribute, hint=_hint(self.ctx, fact),
                          value=fact.value, related=self.related(tid, excluded), topic=topic_of(fact.category),
                          fact_id=tid, request_id=req.id, protected=fact.accepted, new_forms=_new_forms(req))


def _new_forms(req: RequestPlan) -> list[str] | None:
    """The pipeline's new value has one form (the planner writes no aliases for it)."""
    return new_value_forms(req.type, [req.new_value] if req.new_value else None)


def generate_questions(ctx: InstanceContext, plan: PlanStage) -> QuestionsStage:
    cached = ctx.cache.get("stage:questions", QuestionsStage)
    if cached is not None:
        return cached
    questions = _Writer(ctx, plan).write()
    out = QuestionsStage(questions=questions)
    ctx.cache.put("stage:questions", out)
    return out
