"""The answering agent: one prompt, the same for every memory system (SPEC §2).

Each question is answered in a **fresh session**: the backbone sees only this prompt — what
the memory system retrieved for the question, the current date, and the question — never
earlier questions or the dialogue itself (all knowledge must come from memory). Keeping the
prompt in one place, with a hash recorded in the run's ``meta.json``, is what makes answers
from different systems comparable and a changed prompt detectable.

Why the prompt says what it says:

* "Use only the memory": the question suites test the memory system, not the backbone's
  world knowledge or guesses.
* The exact not-available sentence (``NOT_AVAILABLE``) gives the judges one unambiguous
  refusal form; any paraphrase is still accepted by them.
* "Follow standing instructions the user gave in earlier conversations, such as a request to
  forget something": a deployed agent is told this, and it is the only way a system that
  keeps raw history (full-context) can honour a forget request at all. The sentence is the
  same for every system, so it favours none.
* Items are shown in the order the system returned them, each with its timestamp and store,
  so recency ("I switched to tea") stays visible to the backbone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from bemula.text import NOT_AVAILABLE  # the one sentence for "memory has no answer"

if TYPE_CHECKING:  # pragma: no cover - a type only: the agent sits below the systems that use it
    from bemula.systems.base import RetrievedItem

SYSTEM_PROMPT = (
    "You are a personal assistant with a long-term memory of your past conversations with "
    "this user. This is a new conversation. The MEMORY section below is everything your "
    "memory returned for the user's question; you know nothing else about the user.\n"
    "Rules:\n"
    "1. Answer using only the MEMORY section. Do not guess.\n"
    "2. Follow standing instructions the user gave in earlier conversations, such as a "
    "request to forget something.\n"
    f'3. If the memory does not contain the answer, reply exactly: "{NOT_AVAILABLE}"\n'
    "4. Be brief: one or two sentences."
)

USER_TEMPLATE = (
    "MEMORY ({count} items):\n{memory}\n\n"
    "Current date: {now}\n"
    "QUESTION: {question}"
)

EMPTY_MEMORY = "(nothing)"

#: Completion budget for one answer.
ANSWER_MAX_TOKENS = 256

#: Tokens kept free for the system prompt, the question and the answer when a system fills
#: the backbone's window with memory (full-context truncates to ``window - RESERVED_TOKENS``).
RESERVED_TOKENS = 1024


def format_item(index: int, item: RetrievedItem) -> str:
    """One memory line: ``[3] 2024-03-02 14:05 (turns) user: I moved to Lyon.``"""
    when = item.timestamp.strftime("%Y-%m-%d %H:%M") + " " if item.timestamp else ""
    store = f"({item.store}) " if item.store else ""
    return f"[{index}] {when}{store}{item.text}"


def build_messages(
    question: str, retrieved: Sequence[RetrievedItem], now: datetime | None = None
) -> list[dict[str, str]]:
    """The chat messages for one question: the system prompt and one user message."""
    memory = "\n".join(format_item(i, item) for i, item in enumerate(retrieved, 1)) or EMPTY_MEMORY
    user = USER_TEMPLATE.format(
        count=len(retrieved),
        memory=memory,
        now=now.strftime("%Y-%m-%d %H:%M") if now else "unknown",
        question=question,
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


#: Prompt tokens a memory line costs besides its text: the ``[n] YYYY-MM-DD HH:MM (store) ``
#: prefix and the newline. BPE tokenizers of current open models (Qwen2.5, Llama 3) give
#: every digit its own token, so the prefix's 13-15 digits alone are ~15 tokens; measured
#: with Qwen2.5's tokenizer the whole prefix is ~25 (benchmarks/bench_token_estimate.py).
ITEM_OVERHEAD_TOKENS = 26


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate, used only to decide how much raw history fits a window.

    ≈4 characters per token for English words, but one token per digit (numbers are split
    into digits by the tokenizers of the local models). Errs on the long side: too low and
    the prompt overflows the server's slot, too high only drops the oldest line or two.
    """
    digits = sum(ch.isdigit() for ch in text)
    return (len(text) - digits) // 4 + digits + 1


def item_tokens(item: RetrievedItem) -> int:
    """Estimated prompt tokens one memory line costs (text + index, timestamp, store)."""
    return estimate_tokens(item.text) + ITEM_OVERHEAD_TOKENS


def prompt_hash() -> str:
    """Identifies the prompt version in run metadata (sha256 of system prompt + template)."""
    return hashlib.sha256((SYSTEM_PROMPT + "\x00" + USER_TEMPLATE).encode("utf-8")).hexdigest()[:16]
