"""A scripted stand-in for the LLM that answers the memory packages' *real* prompts.

Why: a small local model cannot drive these packages through a dialogue in CI (see
``docs/systems.md``), yet the adapters must be tested end to end — the real package, its
real stores, real HTTP. :class:`ScriptedMemoryModel` is a responder for
:class:`bemula.llm.fake_server.FakeOpenAIServer`: it recognises each package's prompt by its
wording, reads the dialogue or the candidate memories out of it, and answers from explicit
:class:`FactRule` s the way a careful model would — extract these facts, delete the memory
this request names, replace the old value by the new one. A prompt it does not recognise is
an error (HTTP 500 naming it), so a package upgrade that changes its prompts shows up as a
failing test, not as silently empty memories.
"""

from __future__ import annotations

import ast
import json
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FactRule:
    """What a careful model makes of a user turn containing ``trigger`` (case-insensitive).

    ``facts``: the memories to extract. ``deletes``: stored memories containing one of these
    substrings are to be deleted (the facts of a pure forget request are then not stored).
    ``replaces``: stored memories containing this substring are to be rewritten as the
    rule's first fact (an update of a value).
    """

    trigger: str
    facts: tuple[str, ...]
    deletes: tuple[str, ...] = ()
    replaces: str = ""

    def matches(self, text: str) -> bool:
        return self.trigger.lower() in text.lower()


class UnknownPrompt(ValueError):
    """The scripted model got a prompt it has no rule for."""


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content or "")


def _blocks(text: str) -> list[str]:
    """The contents of the triple-backtick blocks of ``text``, in order."""
    return [b.strip() for b in re.findall(r"```(?:json)?(.*?)```", text, flags=re.S)]


@dataclass
class ScriptedMemoryModel:
    """A ``FakeOpenAIServer`` responder driven by :class:`FactRule` s.

    ``calls`` counts the requests answered per prompt kind ("mem0.extract", ...).
    """

    rules: list[FactRule]
    calls: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._rule_of_fact = {fact: rule for rule in self.rules for fact in rule.facts}

    def _count(self, kind: str) -> None:
        with self._lock:
            self.calls[kind] += 1

    # -- the rules ---------------------------------------------------------------------
    def rules_for(self, user_text: str) -> list[FactRule]:
        """The first rule matching each user line (more specific rules go first)."""
        found: list[FactRule] = []
        for line in user_text.splitlines():
            for rule in self.rules:
                if rule.matches(line):
                    if rule not in found:
                        found.append(rule)
                    break
        return found

    def facts_for(self, user_text: str) -> list[str]:
        return [fact for rule in self.rules_for(user_text) for fact in rule.facts]

    # -- dispatch ----------------------------------------------------------------------
    def __call__(self, path: str, body: dict[str, Any]) -> Any:
        messages = body.get("messages") or []
        prompt = "\n".join(_content(m) for m in messages)
        if "Personal Information Organizer" in prompt and "Input:" in prompt:
            self._count("mem0.extract")
            return self._mem0_extract(messages)
        if "smart memory manager" in prompt:
            self._count("mem0.update")
            return self._mem0_update(prompt)
        raise UnknownPrompt(f"no scripted answer for prompt starting {prompt[:120]!r}")

    # -- mem0 1.0.x --------------------------------------------------------------------
    def _mem0_extract(self, messages: list[dict[str, Any]]) -> str:
        """Fact extraction: only the user's lines of the ``Input:`` count, as mem0 asks."""
        conversation = _content(messages[-1]).split("Input:", 1)[-1]
        user_lines = "\n".join(
            line[len("user:") :].strip() for line in conversation.splitlines() if line.startswith("user:")
        )
        return json.dumps({"facts": self.facts_for(user_lines)})

    def _mem0_update(self, prompt: str) -> str:
        """The ADD/UPDATE/DELETE/NONE decision over the memories mem0 shows."""
        blocks = _blocks(prompt)
        new_facts = ast.literal_eval(blocks[-1])
        old: list[dict[str, str]] = [] if "Current memory is empty" in prompt else ast.literal_eval(blocks[-2])
        decisions: dict[str, dict[str, str]] = {
            m["id"]: {"id": m["id"], "text": m["text"], "event": "NONE"} for m in old
        }
        next_id = len(old)
        for fact in new_facts:
            rule = self._rule_of_fact.get(fact)
            if rule is not None and rule.deletes:
                for m in old:
                    if any(s.lower() in m["text"].lower() for s in rule.deletes):
                        decisions[m["id"]] = {"id": m["id"], "text": m["text"], "event": "DELETE"}
                continue
            if rule is not None and rule.replaces:
                targets = [m for m in old if rule.replaces.lower() in m["text"].lower()]
                if targets:
                    for m in targets:
                        decisions[m["id"]] = {"id": m["id"], "text": fact, "event": "UPDATE", "old_memory": m["text"]}
                    continue
            if any(m["text"] == fact for m in old):
                continue
            decisions[str(next_id)] = {"id": str(next_id), "text": fact, "event": "ADD"}
            next_id += 1
        return json.dumps({"memory": list(decisions.values())})


#: Rules for the hand-written ``tiny-a`` instance (``bemula.testing.tiny``): Maya's facts, the
#: F1 request to forget the penicillin allergy (a DELETE) and the F6 coffee → green tea update.
TINY_A_RULES: list[FactRule] = [
    FactRule("forget that I'm allergic to penicillin", ("Asked to forget the penicillin allergy",), deletes=("penicillin",)),
    FactRule("switched to green tea", ("Drinks green tea every morning",), replaces="flat white"),
    FactRule("I'm Maya", ("Name is Maya",)),
    FactRule("allergic to penicillin", ("Is allergic to penicillin",)),
    FactRule("flat white", ("Drinks a flat white every morning",)),
    FactRule("Northwind Logistics", ("Works in operations at Northwind Logistics",)),
    FactRule("Manchester office", ("Desk is at the Manchester office",)),
    FactRule("Bouldering", ("Goes bouldering three nights a week", "Sister is called Priya")),
    FactRule("in Leeds", ("Lives in Leeds near the station",)),
    FactRule("dog Biscuit", ("Has a dog named Biscuit",)),
    FactRule("allergic to shellfish", ("Is allergic to shellfish",)),
]
