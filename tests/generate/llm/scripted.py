"""A scripted stand-in for the LLM: recognises each pipeline prompt and answers plausibly.

It never tries to be clever: facts get unique, made-up values (``Zeltrax-3``) so literal
checks are unambiguous, and every free-text answer carries a counter so nothing repeats.
Switches let a test plant faults: a user turn that omits a planned value (``omit_values``),
or one that mentions it while the LLM verifier says it was not stated (``deny_values``).
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from typing import Any

CATEGORY_WORDS = {
    "health": ("allergy", "clinic"), "family": ("cousin", "aunt"), "finance": ("bank", "budget"),
    "work": ("employer", "team"), "home": ("street", "landlord"), "contacts": ("friend", "contact"),
    "schedule": ("gym day", "meeting"), "food": ("dish", "snack"), "hobbies": ("instrument", "sport"),
    "travel": ("destination", "airline"), "pets": ("dog", "vet"), "education": ("university", "course"),
    "identity": ("birthday", "language"), "tech": ("phone", "laptop"), "transport": ("car", "bike"),
}


def _last_user(body: dict[str, Any]) -> str:
    """The prompt's instruction: the first user message (a retry appends the rejection after it)."""
    for m in body.get("messages") or []:
        if m.get("role") == "user":
            return str(m.get("content") or "")
    return ""


def _system(body: dict[str, Any]) -> str:
    messages = body.get("messages") or []
    return str(messages[0].get("content") or "") if messages and messages[0].get("role") == "system" else ""


class ScriptedLLM:
    def __init__(self, *, omit_values: set[str] | None = None, deny_values: set[str] | None = None,
                 fail_after: int | None = None) -> None:
        self.counter = itertools.count(1)
        self.lock = threading.Lock()
        self.omit_values = set(omit_values or ())
        self.deny_values = set(deny_values or ())
        self.fail_after = fail_after
        self.calls = 0
        self.kinds: list[str] = []

    def n(self) -> int:
        with self.lock:
            return next(self.counter)

    def __call__(self, path: str, body: dict[str, Any]) -> Any:
        from bemula.testing.fake_server import Fault

        with self.lock:
            self.calls += 1
            if self.fail_after is not None and self.calls > self.fail_after:
                return Fault("http", status=400, message="simulated crash")
        kind, answer = self.answer(body)
        with self.lock:
            self.kinds.append(kind)
        return answer if isinstance(answer, str) else json.dumps(answer)

    # ------------------------------------------------------------------ answers
    def answer(self, body: dict[str, Any]) -> tuple[str, Any]:
        user, system = _last_user(body), _system(body)
        if "Invent one fictional adult user" in user:
            return "user_sketch", {"name": "Ada Quint", "age": 37, "city": "Tromso", "occupation": "ferry pilot"}
        m = re.search(r"Write (\d+) different personal facts about this user in the category \"(\w+)\"", user)
        if m:
            count, category = int(m.group(1)), m.group(2)
            facts = []
            for _ in range(count):
                k = self.n()
                word = CATEGORY_WORDS.get(category, ("thing", "item"))[k % 2]
                value = f"Zeltrax-{k}"
                facts.append({"attribute": f"{word} code {k}", "value": value, "aliases": [f"ZX{k}"],
                              "sensitivity": ["low", "medium", "high"][k % 3],
                              "statement": f"My {word} code {k} is {value}."})
            return "fact_batch", {"facts": facts}
        if "Pick two of these facts" in user:
            ids = re.findall(r"^(A\d{3}):", user, flags=re.MULTILINE)
            k = self.n()
            return "derived_propose", {"source_fact_ids": ids[:2], "attribute": "combined code",
                                       "value": f"Combo-{k}", "statement": f"The user's combined code is Combo-{k}.",
                                       "rationale": "It joins the two codes."}
        if user.startswith("Premises:"):
            return "derived_verify", {"follows": True, "reason": "direct"}
        m = re.search(r"Write (\d+) different everyday topics", user)
        if m:
            return "session_topics", {"topics": [f"everyday topic {i}" for i in range(int(m.group(1)))]}
        if "It has changed. Give the new value" in user:
            return "new_value", {"new_value": f"Novum-{self.n()}"}
        if "Director's note for your next message" in user:
            k = self.n()
            values = re.findall(r'using the exact words "([^"]+)"', user)
            if values and "did not clearly say" not in user:
                for v in values:
                    if v in self.omit_values:
                        return "user_turn", f"Hmm, let me think about something else entirely, take {k}."
                    if v in self.deny_values:
                        return "user_turn", f"I honestly do not know whether it is {v}, take {k}."
            if values:
                return "user_turn", " ".join(f"By the way, it is {v}." for v in values) + f" (note {k})"
            return "user_turn", f"Let's keep talking about that, message number {k}."
        if system.startswith("You are a helpful AI assistant chatting"):
            return "assistant_turn", f"Sure, happy to help with that, reply number {self.n()}."
        if "Does the message clearly state this fact" in user:
            text = re.search(r'Message: "(.*)"\nFact:', user, flags=re.DOTALL)
            denied = text is not None and "do not know" in text.group(1)
            return "fact_stated", {"stated": not denied}
        if "in which the user asks their assistant to" in user:
            quoted = re.findall(r'"([^"]+)"', user)
            k = self.n()
            return "request_text", {"message": "Please forget and delete this: " + "; ".join(quoted) + f". (ref {k})"}
        if "unambiguously ask the assistant to forget" in user:
            return "request_verify", {"asks_removal": True}
        if "Write a one-sentence reply confirming" in user:
            return "confirmation", {"reply": f"Done, that is gone now, confirmation {self.n()}."}
        m = re.search(r"user \(about (\d+) words\) and assistant \(about (\d+) words\)", user)
        if m:
            k = self.n()
            uw, aw = int(m.group(1)), int(m.group(2))
            return "neutral_exchange", {"user": " ".join(["tell me a cheerful idea"] * max(1, uw // 5)) + f" {k}?",
                                        "assistant": " ".join(["here is a cheerful idea"] * max(1, aw // 5)) + f" {k}."}
        m = re.search(r"recall the user's (.+?) \(topic", user)
        if m:
            return "fact_question", {"question": f"What is my {m.group(1)}?"}
        if "without naming the" in user:
            return "indirect_question", {"question": f"What would you suggest for me, idea {self.n()}?"}
        raise AssertionError(f"unrecognised prompt: {user[:200]!r}")
