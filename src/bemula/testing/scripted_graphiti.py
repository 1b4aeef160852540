"""A scripted stand-in for the LLM that answers Graphiti's (graphiti-core 0.31.x) *real* prompts.

Why a separate responder: Graphiti does not ask for memories, it asks for a knowledge
graph — entities, fact triples between them, and per new fact which stored facts it
duplicates or contradicts. :class:`ScriptedGraphitiModel` answers those prompts the way a
careful model would for a dialogue described by :class:`GraphRule` s: extract the speaker and
the rule's entities, state the rule's facts (valid from the message's reference time), and
mark a stored fact as contradicted when the rule says the new fact replaces or retracts it.
That is the most a model can do for forgetting in Graphiti; what the package then keeps is
what the adapter test checks.

The prompts are recognised by their wording (the same in Graphiti's ``json_schema`` and
``json_object`` modes). Prompts the adapter's configuration sends, per ``add_episode``:
``extract_nodes.extract_message``, ``dedupe_nodes.nodes`` (only for names the
deterministic resolution leaves open), ``extract_edges.edge``,
``dedupe_edges.resolve_edge`` (when a new fact has stored neighbours),
``extract_edges.extract_timestamps`` (for facts extracted without dates) and
``extract_nodes.extract_summaries_batch`` (for entities with no summary and no new fact).
Anything else is answered with HTTP 500 naming it, so a Graphiti upgrade that changes its
prompts fails the test instead of silently building an empty graph.
"""

from __future__ import annotations

import ast
import json
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bemula.testing.fake_server import Fault

#: the speaker name the adapter writes for the user's turns (``"user: …"``)
USER = "user"


@dataclass(frozen=True)
class Triple:
    """One fact as Graphiti stores it: ``source -[relation]-> target`` with its sentence."""

    source: str
    relation: str
    target: str
    fact: str


@dataclass(frozen=True)
class GraphRule:
    """What a careful model makes of a user line containing ``trigger`` (case-insensitive).

    ``triples``: the facts to extract. ``contradicts``: a stored fact containing one of these
    substrings is reported as contradicted by each of the rule's facts (Graphiti then
    invalidates it; nothing is deleted).
    """

    trigger: str
    triples: tuple[Triple, ...]
    contradicts: tuple[str, ...] = ()

    def matches(self, text: str) -> bool:
        return self.trigger.lower() in text.lower()

    def entities(self) -> list[str]:
        names: list[str] = []
        for triple in self.triples:
            for name in (triple.source, triple.target):
                if name not in names:
                    names.append(name)
        return names


def _fact(relation: str, target: str, fact: str) -> Triple:
    return Triple(USER, relation, target, fact)


#: Rules for the hand-written ``tiny-a`` instance (``bemula.testing.tiny``): Maya's facts as
#: triples from the ``user`` speaker, the F1 request (it contradicts the penicillin fact) and
#: the F6 update (green tea contradicts the flat white). More specific triggers first.
TINY_A_GRAPH_RULES: list[GraphRule] = [
    GraphRule(
        "forget that I'm allergic to penicillin",
        (_fact("ASKED_TO_FORGET", "penicillin", "The user asked the assistant to forget their penicillin allergy"),),
        contradicts=("is allergic to penicillin",),
    ),
    GraphRule(
        "switched to green tea",
        (_fact("DRINKS_EVERY_MORNING", "green tea", "The user drinks green tea every morning"),),
        contradicts=("flat white",),
    ),
    GraphRule("I'm Maya", (_fact("HAS_NAME", "Maya", "The user's name is Maya"),)),
    GraphRule("allergic to penicillin", (_fact("IS_ALLERGIC_TO", "penicillin", "The user is allergic to penicillin"),)),
    GraphRule(
        "flat white",
        (_fact("DRINKS_EVERY_MORNING", "flat white", "The user starts every morning with a flat white coffee"),),
    ),
    GraphRule(
        "Northwind Logistics",
        (_fact("WORKS_AT", "Northwind Logistics", "The user works in operations at Northwind Logistics"),),
    ),
    GraphRule(
        "Manchester office", (_fact("HAS_DESK_AT", "Manchester office", "The user's desk is at the Manchester office"),)
    ),
    GraphRule(
        "Bouldering",
        (
            _fact("GOES", "bouldering", "The user goes bouldering three nights a week"),
            _fact("HAS_SISTER", "Priya", "The user's sister is called Priya"),
        ),
    ),
    GraphRule("in Leeds", (_fact("LIVES_IN", "Leeds", "The user lives in Leeds near the station"),)),
    GraphRule("dog Biscuit", (_fact("HAS_DOG", "Biscuit", "The user's dog is called Biscuit"),)),
    GraphRule("allergic to shellfish", (_fact("IS_ALLERGIC_TO", "shellfish", "The user is allergic to shellfish"),)),
]


def message_text(message: dict[str, Any]) -> str:
    """A chat message's text (string content, or its content parts joined)."""
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def _between(text: str, tag: str) -> str:
    """The text inside the first ``<tag>…</tag>`` of ``text`` ("" when absent)."""
    match = re.search(rf"<{re.escape(tag)}>\s*(.*?)\s*</{re.escape(tag)}>", text, flags=re.S)
    return match.group(1) if match else ""


def _norm(name: str) -> str:
    return " ".join(name.lower().split())


def _iso(reference: str) -> str | None:
    """Graphiti's reference time (``str(datetime)`` or ISO) as ISO 8601 UTC with ``Z``."""
    text = reference.split("#", 1)[0].strip()
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def _speaker_lines(message: str) -> list[tuple[str, str]]:
    """``(speaker, text)`` for each ``speaker: text`` line of an episode."""
    lines = []
    for line in message.splitlines():
        speaker, sep, text = line.partition(":")
        if sep and speaker.strip():
            lines.append((speaker.strip(), text.strip()))
    return lines


def rules_for_user_lines(rules: list[GraphRule], text: str) -> list[GraphRule]:
    """The first matching rule of each ``user:`` line of ``text`` (an episode, a chunk), in
    order, each rule once (list the more specific rules first)."""
    found: list[GraphRule] = []
    for speaker, line in _speaker_lines(text):
        if speaker.lower() != USER:
            continue
        rule = next((r for r in rules if r.matches(line)), None)
        if rule is not None and rule not in found:
            found.append(rule)
    return found


@dataclass
class ScriptedGraphitiModel:
    """A ``FakeOpenAIServer`` responder for Graphiti driven by :class:`GraphRule` s.

    ``calls`` counts the requests answered per prompt ("graphiti.extract_nodes", ...).
    """

    rules: list[GraphRule]
    calls: Counter[str] = field(default_factory=Counter)
    #: answer to every other prompt (e.g. the answering agent's in a whole ``bemula run``);
    #: ``None`` makes an unknown prompt an HTTP 500
    fallback: str | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._rule_of_fact = {t.fact.lower(): rule for rule in self.rules for t in rule.triples}

    def _count(self, kind: str) -> None:
        with self._lock:
            self.calls[kind] += 1

    def rules_for(self, message: str) -> list[GraphRule]:
        """The first matching rule of each *user* line of an episode."""
        return rules_for_user_lines(self.rules, message)

    # -- dispatch ----------------------------------------------------------------------
    def __call__(self, path: str, body: dict[str, Any]) -> Any:
        messages = body.get("messages") or []
        system = message_text(messages[0]) if messages else ""
        prompt = "\n".join(message_text(m) for m in messages)
        if system.startswith("You are an entity extraction specialist for conversational messages"):
            return self._answer("graphiti.extract_nodes", self._extract_nodes(prompt))
        if system.startswith("You are an expert fact extractor"):
            return self._answer("graphiti.extract_edges", self._extract_edges(prompt))
        if system.startswith("You are an entity deduplication assistant") and "<ENTITIES>" in prompt:
            return self._answer("graphiti.dedupe_nodes", self._dedupe_nodes(prompt))
        if system.startswith("You are a fact deduplication assistant"):
            return self._answer("graphiti.dedupe_edges", self._dedupe_edges(prompt))
        if system.startswith("You extract temporal bounds from facts") and "<FACT>" in prompt:
            return self._answer("graphiti.timestamps", self._timestamps(prompt))
        if system.startswith("You are a helpful assistant that generates concise entity summaries"):
            return self._answer("graphiti.summaries", self._summaries(prompt))
        if self.fallback is not None:
            self._count("fallback")
            return self.fallback
        return Fault("http", status=500, message=f"no scripted answer for prompt starting {prompt[:120]!r}")

    def _answer(self, kind: str, payload: dict[str, Any]) -> str:
        self._count(kind)
        return json.dumps(payload)

    # -- the prompts -------------------------------------------------------------------
    def _extract_nodes(self, prompt: str) -> dict[str, Any]:
        """The speaker first (Graphiti's rule 1), then the entities of the user's facts."""
        message = _between(prompt, "CURRENT MESSAGE")
        names: list[str] = []
        for speaker, _ in _speaker_lines(message):
            if speaker not in names:
                names.append(speaker)
        for rule in self.rules_for(message):
            names += [n for n in rule.entities() if n not in names]
        return {"extracted_entities": [{"name": n, "entity_type_id": 0, "episode_indices": [0]} for n in names]}

    def _extract_edges(self, prompt: str) -> dict[str, Any]:
        """The rules' facts between listed entities, valid from the reference time."""
        message = _between(prompt, "CURRENT_MESSAGE")
        listed = {_norm(e["name"]): e["name"] for e in json.loads(_between(prompt, "ENTITIES") or "[]")}
        valid_at = _iso(_between(prompt, "REFERENCE_TIME"))
        edges = []
        for rule in self.rules_for(message):
            for triple in rule.triples:
                source, target = listed.get(_norm(triple.source)), listed.get(_norm(triple.target))
                if source is None or target is None:
                    continue  # a careful model names only listed entities
                edges.append(
                    {
                        "source_entity_name": source,
                        "target_entity_name": target,
                        "relation_type": triple.relation,
                        "fact": triple.fact,
                        "valid_at": valid_at,
                        "invalid_at": None,
                        "episode_indices": [0],
                    }
                )
        return {"edges": edges}

    def _dedupe_nodes(self, prompt: str) -> dict[str, Any]:
        """Same entity = same normalised name; otherwise -1 (Graphiti: "when unsure")."""
        extracted = json.loads(_between(prompt, "ENTITIES") or "[]")
        existing = json.loads(_between(prompt, "EXISTING ENTITIES") or "[]")
        by_name = {_norm(e["name"]): e["candidate_id"] for e in existing}
        return {
            "entity_resolutions": [
                {"id": e["id"], "name": e["name"], "duplicate_candidate_id": by_name.get(_norm(e["name"]), -1)}
                for e in extracted
            ]
        }

    def _dedupe_edges(self, prompt: str) -> dict[str, Any]:
        """Duplicates: the same sentence; contradicted: what the new fact's rule retracts."""
        existing = ast.literal_eval(_between(prompt, "EXISTING FACTS") or "[]")
        candidates = ast.literal_eval(_between(prompt, "FACT INVALIDATION CANDIDATES") or "[]")
        new_fact = _between(prompt, "NEW FACT")
        rule = self._rule_of_fact.get(new_fact.lower())
        retracts = tuple(s.lower() for s in rule.contradicts) if rule is not None else ()
        return {
            "duplicate_facts": [f["idx"] for f in existing if f["fact"].lower() == new_fact.lower()],
            "contradicted_facts": [
                f["idx"] for f in [*existing, *candidates] if any(s in f["fact"].lower() for s in retracts)
            ],
        }

    def _timestamps(self, prompt: str) -> dict[str, Any]:
        """Present-tense facts: valid from the reference time, no end."""
        return {"valid_at": _iso(_between(prompt, "REFERENCE TIME")), "invalid_at": None}

    def _summaries(self, prompt: str) -> dict[str, Any]:
        """Each entity's existing summary plus the current message's facts about it."""
        messages = _between(prompt, "MESSAGES").splitlines()
        current = json.loads(messages[-1]) if messages else ""
        facts = [t for rule in self.rules_for(str(current)) for t in rule.triples]
        summaries = []
        for entity in json.loads(_between(prompt, "ENTITIES") or "[]"):
            name = _norm(entity["name"])
            about = [t.fact for t in facts if name in (_norm(t.source), _norm(t.target))]
            text = " ".join([entity.get("summary") or "", *about]).strip()
            if about:
                summaries.append({"name": entity["name"], "summary": text})
        return {"summaries": summaries}
