"""A scripted stand-in for the LLM that answers the memory packages' *real* prompts.

Why: a small local model cannot drive these packages through a dialogue in CI (see
``docs/systems.md``), yet the adapters must be tested end to end — the real package, its
real stores, real HTTP. :class:`ScriptedMemoryModel` is a responder for
:class:`bemula.testing.fake_server.FakeOpenAIServer`: it recognises each package's prompt by its
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
from typing import TYPE_CHECKING, Any

from bemula.systems.base import MemorySystem, TurnEvent

if TYPE_CHECKING:  # pragma: no cover
    from bemula.model import Dialogue


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


#: an existing memory as trustcall shows it to the model (LangMem's ``<existing>`` block)
INSTANCE_RE = r'<instance id=(\S+) schema_type="\w+">\n(.*?)\n</instance>'


def _after(text: str, label: str) -> str:
    """The rest of the line after the first ``label`` in ``text``."""
    return text.split(label, 1)[1].splitlines()[0].strip() if label in text else ""


@dataclass
class ScriptedMemoryModel:
    """A ``FakeOpenAIServer`` responder driven by :class:`FactRule` s.

    ``calls`` counts the requests answered per prompt kind ("mem0.extract", ...).
    """

    rules: list[FactRule]
    calls: Counter[str] = field(default_factory=Counter)
    #: answer to every other prompt (e.g. the answering agent's, in a whole ``bemula run``);
    #: ``None`` makes an unknown prompt an error
    fallback: str | None = None

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
        if "You are a Memory Extractor" in prompt and "## New Messages" in prompt:
            self._count("mem0v2.extract")
            return self._mem0v2_extract(_content(messages[-1]))
        if "smart memory manager" in prompt:
            self._count("mem0.update")
            return self._mem0_update(prompt)
        if "professional information extraction assistant" in prompt:
            self._count("simplemem.extract")
            return self._simplemem_extract(prompt)
        if "information requirement analyst" in prompt:
            self._count("simplemem.plan")
            return self._simplemem_plan(prompt)
        if "query generation specialist" in prompt:
            self._count("simplemem.queries")
            return json.dumps({"reasoning": "scripted", "queries": [_after(prompt, "Original Question:")]})
        if "information completeness evaluator" in prompt:
            self._count("simplemem.reflect")
            return json.dumps(
                {
                    "assessment": "complete",
                    "reasoning": "scripted",
                    "missing_info_types": [],
                    "coverage_percentage": 100,
                }
            )
        if "Generate a structured analysis of the following content" in prompt:
            self._count("amem.analyze")
            return self._amem_analyze(prompt.split("Content for analysis:", 1)[1].strip())
        if "AI memory evolution agent" in prompt:
            self._count("amem.evolve")
            return self._amem_evolve(prompt)
        if "You are a memory subroutine for an AI." in prompt:
            self._count("langmem.manage")
            tools = {t.get("function", {}).get("name") for t in body.get("tools") or []}
            return self._langmem_manage(prompt, tools)
        if "You are a Personal Information Extractor" in prompt:
            self._count("lightmem.extract")
            return self._lightmem_extract(_content(messages[-1]))
        if "You are a memory management assistant" in prompt and "Target memory:" in prompt:
            self._count("lightmem.update")
            return self._lightmem_update(_content(messages[-1]))
        if self.fallback is not None:
            self._count("fallback")
            return self.fallback
        raise UnknownPrompt(f"no scripted answer for prompt starting {prompt[:120]!r}")

    # -- LightMem (zjunlp/LightMem, source) --------------------------------------------
    def _lightmem_extract(self, segments: str) -> str:
        """Flat extraction: ``{"data": [{source_id, fact}]}`` for each user line of the topics."""
        data = []
        for line in segments.splitlines():
            match = re.match(r"(?:\[[^\]]*\] )?(?P<sid>\d+)\.(?P<speaker>[^:]+): (?P<text>.*)", line.strip())
            if not match or match["speaker"].lower() != "user":
                continue
            data += [{"source_id": int(match["sid"]), "fact": fact} for fact in self.facts_for(match["text"])]
        return json.dumps({"data": data})

    def _lightmem_update(self, request: str) -> str:
        """Offline update of one (older) target against later similar memories.

        LightMem's rules: a direct conflict with a later memory deletes the target. A later
        request to forget the target's value, or a new value replacing it, is such a conflict.
        """
        target = _after(request, "Target memory:")
        listed = request.split("Candidate memories:", 1)[-1].splitlines()
        candidates = [line[2:].strip() for line in listed if line.startswith("- ")]
        for candidate in candidates:
            rule = self._rule_of_fact.get(candidate)
            if rule is None:
                continue
            if any(s.lower() in target.lower() for s in (*rule.deletes, rule.replaces) if s):
                return json.dumps({"action": "delete"})
        return json.dumps({"action": "ignore"})

    # -- LangMem 0.0.30 (tool calls through trustcall) ---------------------------------
    def _langmem_manage(self, prompt: str, tools: set[str]) -> dict[str, Any] | str:
        session = re.search(r"<session_[^>]*>(.*?)</session_", prompt, flags=re.S)
        human = re.findall(
            r"=+ Human Message =+\n\n(.*?)(?=\n\n=+ \w+ Message =+|\Z)", session.group(1) if session else "", flags=re.S
        )
        existing = [
            (doc_id, str(ast.literal_eval(body).get("content", "")))
            for doc_id, body in re.findall(INSTANCE_RE, prompt, flags=re.S)
        ]
        calls: list[tuple[str, dict[str, Any]]] = []
        for rule in self.rules_for("\n".join(human)):
            if rule.deletes:
                if "RemoveDoc" in tools:
                    calls += [
                        ("RemoveDoc", {"json_doc_id": doc_id})
                        for doc_id, text in existing
                        if any(s.lower() in text.lower() for s in rule.deletes)
                    ]
                continue
            targets = [doc_id for doc_id, text in existing if rule.replaces and rule.replaces.lower() in text.lower()]
            if targets and "PatchDoc" in tools:
                calls += [
                    (
                        "PatchDoc",
                        {
                            "json_doc_id": doc_id,
                            "planned_edits": "replace the old value by the new one",
                            "patches": [{"op": "replace", "path": "/content", "value": rule.facts[0]}],
                        },
                    )
                    for doc_id in targets
                ]
                continue
            calls += [("Memory", {"content": fact}) for fact in rule.facts if all(fact != t for _, t in existing)]
        if not calls:
            return "Nothing new to remember."
        return {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "tool_calls",
                    "message": {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": f"call_{i}",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(args)},
                            }
                            for i, (name, args) in enumerate(calls)
                        ],
                    },
                }
            ]
        }

    # -- A-MEM (a-mem 0.2.6) -----------------------------------------------------------
    def _user_facts(self, note: str) -> list[str]:
        return self.facts_for(note.split("says:", 1)[1]) if note.startswith("User says:") else []

    def _amem_analyze(self, note: str) -> str:
        facts = self._user_facts(note)
        keywords = sorted({w.lower() for fact in facts for w in re.findall(r"[A-Za-z]{4,}", fact)})
        return json.dumps(
            {
                "keywords": keywords or ["conversation"],
                "context": "; ".join(facts) if facts else "Small talk with the assistant",
                "tags": ["personal profile"] if facts else ["small talk"],
            }
        )

    def _amem_evolve(self, prompt: str) -> str:
        """Evolution: a forget or update note rewrites the context of the neighbours it names.

        A-MEM can only link notes and rewrite neighbours' context and tags; the scripted
        model does exactly what a careful model would do with that: mark the named value as
        to be forgotten (or superseded) — the neighbour's *content* stays, as A-MEM stores it.
        """
        note = _after(prompt, "content:")
        neighbours = re.findall(
            r"memory_id:(\S+)\t.*?memory content: (.*?)\tmemory context: (.*?)\t"
            r"memory keywords: .*?\tmemory tags: (.*)",
            prompt,
        )
        rules = [r for r in self.rules_for(note.split("says:", 1)[-1]) if r.deletes or r.replaces]
        if not rules or not neighbours:
            return json.dumps(
                {
                    "should_evolve": False,
                    "actions": [],
                    "suggested_connections": [],
                    "tags_to_update": [],
                    "new_context_neighborhood": [n[2] for n in neighbours],
                    "new_tags_neighborhood": [ast.literal_eval(n[3]) for n in neighbours],
                }
            )
        contexts, tags, linked = [], [], []
        for memory_id, content, context, tag_text in neighbours:
            hit = [r for r in rules if any(t.lower() in content.lower() for t in (*r.deletes, r.replaces) if t)]
            if hit:
                rule = hit[0]
                linked.append(memory_id)
                contexts.append(
                    "The user asked to forget this" if rule.deletes else f"Superseded: {rule.facts[0]}"
                )
                tags.append(["forgotten"] if rule.deletes else ["superseded"])
            else:
                contexts.append(context)
                tags.append(ast.literal_eval(tag_text))
        return json.dumps(
            {
                "should_evolve": bool(linked),
                "actions": ["strengthen", "update_neighbor"] if linked else [],
                "suggested_connections": linked,
                "tags_to_update": ["memory request"],
                "new_context_neighborhood": contexts,
                "new_tags_neighborhood": tags,
            }
        )

    # -- SimpleMem 0.1.0 ---------------------------------------------------------------
    def _simplemem_extract(self, prompt: str) -> str:
        """Window -> restatements: one entry per fact of each user line (append-only store)."""
        window = prompt.split("[Current Window Dialogues]", 1)[1].split("[Requirements]", 1)[0]
        entries = []
        for line in window.strip().splitlines():
            match = re.match(r"\[(?P<ts>[^\]]+)\] (?P<speaker>[^:]+): (?P<text>.*)", line.strip())
            if not match or match["speaker"] != "User":
                continue
            for fact in self.facts_for(match["text"]):
                entries.append(
                    {
                        "lossless_restatement": f"The user: {fact}",
                        "keywords": re.findall(r"[A-Za-z]{4,}", fact),
                        "timestamp": match["ts"],
                        "location": None,
                        "persons": [],
                        "entities": [],
                        "topic": "user profile",
                    }
                )
        return "```json\n" + json.dumps(entries) + "\n```"

    def _simplemem_plan(self, prompt: str) -> str:
        question = _after(prompt, "Question:")
        return json.dumps(
            {
                "question_type": "factual",
                "key_entities": [],
                "required_info": [{"info_type": "fact", "description": question, "priority": "high"}],
                "relationships": [],
                "minimal_queries_needed": 1,
            }
        )

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

    # -- mem0 2.x ----------------------------------------------------------------------
    def _mem0v2_extract(self, user_prompt: str) -> str:
        """The additive extraction (its only operation is ADD): the facts of the user's lines
        under ``## New Messages`` — the earlier messages it also shows are context only. A
        forget request's rule facts are recorded like any other (the prompt asks for every
        request the user makes), and an update adds the new value beside the old one."""
        new = user_prompt.split("## New Messages", 1)[1].split("\n## ", 1)[0]
        user_lines = "\n".join(line[len("user:") :].strip() for line in new.splitlines() if line.startswith("user:"))
        existing = user_prompt.split("## Existing Memories", 1)[1].split("\n## ", 1)[0]
        facts = [fact for fact in self.facts_for(user_lines) if json.dumps(fact) not in existing]
        memory = [{"id": str(i), "text": fact, "attributed_to": "user"} for i, fact in enumerate(facts)]
        return json.dumps({"memory": memory})


#: Rules for the hand-written ``tiny-a`` instance (``bemula.testing.tiny``): Maya's facts, the
#: F1 request to forget the penicillin allergy (a DELETE) and the F6 coffee → green tea update.
TINY_A_RULES: list[FactRule] = [
    FactRule(
        "forget that I'm allergic to penicillin", ("Asked to forget the penicillin allergy",), deletes=("penicillin",)
    ),
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


def feed_dialogue(system: MemorySystem, dialogue: Dialogue, sessions: set[str] | None = None) -> int:
    """Feed ``dialogue`` turn by turn as the runner does (only ``sessions`` if given).

    Returns the number of turns fed. For tests and benchmarks that drive one adapter alone.
    """
    fed = 0
    for session in dialogue.sessions:
        if sessions is not None and session.id not in sessions:
            continue
        for turn in session.turns:
            system.ingest(TurnEvent(turn.role.value, turn.text, session.id, turn.timestamp))
            fed += 1
        system.end_session(session.id)
    return fed
