"""A scripted stand-in for the LLM that answers Cognee's (cognee 1.6.x) *real* prompts.

Cognee's ``cognify`` asks for two things per chunk of ingested text, both as JSON following a
Pydantic schema — sent as ``response_format`` (``json_schema``, how the adapter wires it) or,
with ``-o structured=json_object``, appended to the system prompt (Cognee's fallback for a
model litellm does not know): a **knowledge graph** (nodes and
edges, system prompt "You are a top-tier algorithm designed for extracting information in
structured formats to build a knowledge graph.") and a **summary** of the chunk for
retrieval ("Summarize the chunk for retrieval."). Before a pipeline that needs the LLM it
also probes the endpoint once ("Respond to me with the following string: \"test\"").

:class:`ScriptedCogneeModel` answers them the way a careful model would, from the same
:class:`~bemula.testing.scripted_graphiti.GraphRule` s the Graphiti responder uses: for each
user line of the chunk, the rule's triples as edges (``description`` = the fact sentence)
between the rule's entities, and a summary listing those facts. Cognee has no prompt that
compares new facts with stored ones (no update, no invalidation, no deletion decided by the
model), so a rule's ``contradicts`` is never used here: what a forget request can do in
Cognee is add its own fact. Any other prompt is an HTTP 500 naming it, so a Cognee upgrade
that changes its prompts fails the tests instead of silently building an empty graph.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bemula.testing.fake_server import Fault
from bemula.testing.scripted_graphiti import (
    TINY_A_GRAPH_RULES,
    USER,
    GraphRule,
    message_text,
    rules_for_user_lines,
)

__all__ = ["TINY_A_GRAPH_RULES", "ScriptedCogneeModel", "requested_schema"]

GRAPH_PROMPT = "You are a top-tier algorithm designed for extracting information in structured formats"
SUMMARY_PROMPT = "Summarize the chunk for retrieval."
PROBE_PROMPT = 'Respond to me with the following string: "test"'


#: the rules' entities that are people (Cognee asks for elementary node types: "Person")
PEOPLE = {USER, "Maya", "Priya"}


def _node_type(name: str) -> str:
    return "Person" if name in PEOPLE else "Concept"


def requested_schema(body: dict[str, Any], system: str) -> str:
    """The name of the Pydantic schema Cognee asks for: the ``response_format``'s
    (``json_schema``) or, in the ``json_object`` fallback, the one pasted into the prompt."""
    response_format = body.get("response_format") or {}
    if response_format.get("type") == "json_schema":
        return str((response_format.get("json_schema") or {}).get("name", ""))
    for name in ("KnowledgeGraph", "SummarizedContent"):
        if f'"title": "{name}"' in system:
            return name
    return ""


@dataclass
class ScriptedCogneeModel:
    """A ``FakeOpenAIServer`` responder for Cognee driven by :class:`GraphRule` s.

    ``calls`` counts the requests answered per prompt ("cognee.graph", "cognee.summary",
    "cognee.probe").
    """

    rules: list[GraphRule]
    calls: Counter[str] = field(default_factory=Counter)
    #: answer to every other prompt (e.g. the answering agent's in a whole ``bemula run``);
    #: ``None`` makes an unknown prompt an HTTP 500
    fallback: str | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def _count(self, kind: str) -> None:
        with self._lock:
            self.calls[kind] += 1

    def rules_for(self, chunk: str) -> list[GraphRule]:
        """The first matching rule of each ``user:`` line of a chunk (more specific rules first)."""
        return rules_for_user_lines(self.rules, chunk)

    # -- dispatch ----------------------------------------------------------------------
    def __call__(self, path: str, body: dict[str, Any]) -> Any:
        messages = body.get("messages") or []
        system = message_text(messages[0]) if messages else ""
        user = message_text(messages[-1]) if messages else ""
        if system.startswith(PROBE_PROMPT):
            self._count("cognee.probe")
            return "test"
        schema = requested_schema(body, system)
        if system.startswith(GRAPH_PROMPT) and schema == "KnowledgeGraph":
            return self._answer("cognee.graph", self._graph(user))
        if system.startswith(SUMMARY_PROMPT) and schema == "SummarizedContent":
            return self._answer("cognee.summary", self._summary(user))
        if self.fallback is not None:
            self._count("fallback")
            return self.fallback
        prompt = "\n".join(message_text(m) for m in messages)
        return Fault("http", status=500, message=f"no scripted answer for prompt starting {prompt[:120]!r}")

    def _answer(self, kind: str, payload: dict[str, Any]) -> str:
        self._count(kind)
        return json.dumps(payload)

    # -- the prompts -------------------------------------------------------------------
    def _graph(self, chunk: str) -> dict[str, Any]:
        """The user and the rules' entities as nodes, the rules' triples as edges."""
        rules = self.rules_for(chunk)
        names: list[str] = []
        for rule in rules:
            names += [n for n in rule.entities() if n not in names]
        nodes = [
            {"id": name, "name": name, "type": _node_type(name), "description": f"{name}, from the user's conversation"}
            for name in names
        ]
        edges = [
            {
                "source_node_id": t.source,
                "target_node_id": t.target,
                "relationship_name": t.relation.lower(),
                "description": t.fact,
            }
            for rule in rules
            for t in rule.triples
        ]
        return {"nodes": nodes, "edges": edges}

    def _summary(self, chunk: str) -> dict[str, Any]:
        """Cognee's two sections: what the chunk is about, then its facts."""
        facts = [t.fact for rule in self.rules_for(chunk) for t in rule.triples]
        if not facts:
            return {"summary": "This chunk is about:\n- Topics: small talk with the assistant\n\nFacts:\n"}
        about = ", ".join(dict.fromkeys(t.target for rule in self.rules_for(chunk) for t in rule.triples))
        lines = "\n".join(f"- {fact}." for fact in facts)
        return {"summary": f"This chunk is about:\n- Topics: {about}\n\nFacts:\n{lines}"}
