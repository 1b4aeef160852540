"""The mutation-time hook through the LLM backbone: is this user turn a forget request?

When a run has an LLM backbone, erasemem asks it — at ingestion, on the turn itself — to
read the user's words and return a structured request (type F1–F6, the phrases naming the
targets, the category, the time reference, the new value, the clauses to keep). The same
deterministic resolution then searches the whole memory for those targets, so the LLM
decides *what was asked* and the store decides *where it lives*.

Who decides (``llm_first``, default off). By default the rules read the turn first and the
LLM is asked only about turns the rules find no request in: it catches the phrasings the
rules miss ("I'm not comfortable with you holding on to my blood type"). Measured with the
embedded 1.5B on four Lite instances (docs/erasemem.md), the other order — LLM first, rules
only as a safety net — mistyped 4 of the 5 real requests (an F6 read as F1 suppressed the new
value too) where the rules typed all 5 right. ``llm_first=1`` restores that order for a
backbone strong enough to be trusted over the rules; the rules still cannot be vetoed
(``"rules (llm said no)"``: the 0.5B answered "not a request" to an explicit F4 request).

Why a screen first: a dialogue has hundreds of user turns and almost none ask for removal.
Only turns that mention removing, keeping, remembering, privacy or a change of value reach
the LLM (a broad word screen, wider than the rules' own); the rest cost nothing. Before the
screen, the user's remarks about *their own* memory are blanked ("before I forget", "I keep
forgetting", "I never remember", "make sure I remember"): they are not addressed to the
assistant, and the same 1.5B read every one of them as a request (16 false requests in
those four instances, 8 of them in control versions that contain no request).

Failure policy: if the call fails or the answer is not valid JSON of the expected shape,
the rule-based parser decides for that turn, and the receipt records ``method`` as
``"rules (llm failed)"``. A bad LLM never blocks ingestion.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bemula.systems.erasemem.categories import categories_in, category_names
from bemula.systems.erasemem.intent import ForgetIntent, ForgetKind, parse_forget_request

if TYPE_CHECKING:  # pragma: no cover
    from bemula.llm.client import LLMClient

#: turns worth asking the LLM about (everything else is certainly not a forget request)
LLM_SCREEN = re.compile(
    r"\b(?:forget\w*|forgot|remember\w*|delet\w*|remov\w*|eras\w*|wip\w*|purg\w*|scrub\w*|clear\w*|"
    r"drop\w*|discard\w*|unlearn\w*|expunge\w*|rid|keep\w*|kept|stor\w*|hold\w*|hang(?:s|ing)?\s+on\w*|record\w*|memor\w*|"
    r"note\w*|privat\w*|comfortable|limits|replace\w*|switch\w*|instead|anymore|longer|correct\w*|"
    r"conclu\w*|infer\w*|assum\w*|deduc\w*|figur\w*|together|overshar\w*|regret\w*|shouldn't|"
    r"mind)\b",
    re.I,
)

#: the user speaking of their own memory, not the assistant's: never a removal request
SELF_MEMORY = re.compile(
    r"\b(?:before|in\s+case|so\s+(?:that\s+)?|lest)\s+i\s+(?:forget|don't\s+remember)\b|"
    r"\bi\s+(?:always\s+|often\s+|sometimes\s+|still\s+|just\s+|totally\s+|completely\s+)?"
    r"(?:keep\s+forgetting|forgot|forget|never\s+remember|can't\s+remember|cannot\s+remember|"
    r"don't\s+remember|do\s+not\s+remember|couldn't\s+remember|remember(?:ed)?|tend\s+to\s+forget)\b|"
    r"\b(?:make\s+sure|help|remind)\s+(?:that\s+)?(?:i|me)\s+(?:to\s+)?(?:remember|don't\s+forget|not\s+forget)\b|"
    r"\bremind\s+me\b",
    re.I,
)

SYSTEM_PROMPT = (
    "You read one message a user sent to their personal assistant and decide whether the "
    "user is asking the assistant to forget, delete or stop using something it remembers "
    "about them. Mentions of forgetting that ask for no removal ('I forgot my keys', "
    "'don't forget my appointment') are not requests.\n"
    "Request types: F1 one fact; F2 several named facts; F3 a whole category described "
    "('everything about my health'); F4 a conclusion the assistant could infer ('don't "
    "conclude where I commute'); F5 everything said in a time window or session ('what I "
    "told you last Tuesday'); F6 replace an old value by a new one ('I switched from coffee "
    "to tea, forget the coffee').\n"
    "Answer with JSON only: is_forget_request (boolean); request_type (F1..F6 or none); "
    "targets (short phrases naming what to forget, in the user's words; for F6 the OLD "
    "value; for F4 the conclusion); category (F3: the life area, e.g. health, finance, "
    "family, work, pets, travel, food, hobbies, home, contacts, tech, transport, schedule, "
    "education, identity; else empty); time_reference (F5: the time words as said, e.g. "
    "'last Tuesday'; else empty); new_value (F6: the new value; else empty); "
    "kept_statements (sentences of the message that state facts to remember, copied "
    "verbatim, excluding the removal instruction itself)."
)

RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "is_forget_request": {"type": "boolean"},
        "request_type": {"type": "string", "enum": ["F1", "F2", "F3", "F4", "F5", "F6", "none"]},
        "targets": {"type": "array", "items": {"type": "string"}},
        "category": {"type": "string"},
        "time_reference": {"type": "string"},
        "new_value": {"type": "string"},
        "kept_statements": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["is_forget_request", "request_type", "targets"],
    "additionalProperties": False,
}

MAX_TOKENS = 300


class LLMForgetHook:
    """Intent detection through the run's LLM; the rules are the fallback."""

    def __init__(self, client: LLMClient, llm_first: bool = False) -> None:
        self.client = client
        self.llm_first = llm_first
        self.calls = 0
        self.failures = 0
        self.last_method = "rules"

    def detect(self, text: str, now: datetime) -> ForgetIntent | None:
        rules = parse_forget_request(text)
        if rules is not None and not self.llm_first:
            self.last_method = "rules"
            return rules
        if not worth_asking(text):
            self.last_method = "rules" if rules is not None else "screen"
            return rules
        self.calls += 1
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": f"Current date: {now:%Y-%m-%d %A %H:%M}\nMESSAGE:\n<<<\n{text}\n>>>"},
        ]
        try:
            from bemula.llm.client import LLMError

            value, _ = self.client.chat_json(messages, schema=RESPONSE_SCHEMA, max_tokens=MAX_TOKENS, temperature=0.0)
            intent = intent_from_json(value, text)
        except (LLMError, ValueError, TypeError, KeyError) as exc:  # noqa: F841 - the rules decide
            self.failures += 1
            self.last_method = "rules (llm failed)"
            return rules
        if intent is None and rules is not None:
            # the LLM may add requests the rules miss, never veto one they find: a small model
            # that overlooks "don't keep any conclusion about ..." must not keep it stored
            self.last_method = "rules (llm said no)"
            return rules
        self.last_method = "llm"
        return intent


def worth_asking(text: str) -> bool:
    """Whether the LLM should read this turn: a removal/keeping word remains once the
    user's remarks about their own memory are blanked out."""
    return LLM_SCREEN.search(SELF_MEMORY.sub(" ", text)) is not None


_KINDS = {k.value: k for k in ForgetKind}


def intent_from_json(value: Any, text: str) -> ForgetIntent | None:
    """Build a ``ForgetIntent`` from the LLM's JSON; ``ValueError`` on a malformed answer."""
    if not isinstance(value, dict):
        raise ValueError("LLM answer is not a JSON object")
    if not value.get("is_forget_request") or value.get("request_type") in (None, "", "none"):
        return None
    kind = _KINDS.get(str(value["request_type"]).upper())
    if kind is None:
        raise ValueError(f"unknown request_type {value['request_type']!r}")
    targets = [str(t).strip() for t in value.get("targets") or [] if str(t).strip()]
    rules = parse_forget_request(text)  # reused for the clauses to keep when it parses too
    statements = [str(s).strip() for s in value.get("kept_statements") or [] if str(s).strip()]
    statements = [s for s in statements if s in text] or (rules.statements if rules else [])
    intent = ForgetIntent(kind, targets=targets, statements=statements)
    if kind == ForgetKind.CATEGORY:
        category = str(value.get("category") or "")
        intent.categories = categories_in(category) if category else []
        if not intent.categories and category.lower() in category_names():
            intent.categories = [category.lower()]
        if not intent.categories:
            intent.categories = categories_in(" ".join(targets))
        if not intent.targets and category:
            intent.targets = [category]
    elif kind == ForgetKind.TIME_WINDOW:
        intent.time_phrase = str(value.get("time_reference") or "") or text
    elif kind == ForgetKind.REPLACEMENT:
        new_value = str(value.get("new_value") or "").strip()
        intent.new_value = new_value or None
    if not intent.targets and kind not in (ForgetKind.TIME_WINDOW,):
        raise ValueError("LLM named no target")
    if kind == ForgetKind.FACT and len(intent.targets) > 1:
        intent.kind = ForgetKind.FACTS
    return intent
