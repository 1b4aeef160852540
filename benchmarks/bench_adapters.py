"""Cost of the paper's memory systems per ingested turn, and what the shared prefix saves.

For each installed adapter, the real package ingests the hand-written ``tiny-a`` instance
(32 turns, 3 sessions) against the scripted OpenAI-compatible server
(:class:`bemula.testing.scripted.ScriptedMemoryModel`), which counts every request
exactly. Printed per system:

* LLM calls, prompt and completion *words* per ingested turn (the scripted server's usage
  counts whitespace words, not model tokens: multiply by your tokenizer's words→tokens
  ratio, ≈1.3 for English BPE tokenizers, for a token estimate), embedding requests;
* the forget/control prefix: LLM calls to ingest both versions from scratch versus once up
  to the first differing turn, ``fork()``, then each version's remainder;
* wall-clock seconds (dominated by the package's own work: the scripted model answers in
  microseconds);
* a dry-run estimate of ingestion LLM calls and words for the full benchmark (the paper's
  36,900 turns per version, or ``--dataset DIR``) at tiny-a's per-turn rates — a lower bound
  for systems whose prompts grow with the number of stored memories (mem0, LangMem, A-MEM).

With ``--local`` it also times one exchange per system on the embedded local model
(seconds per LLM call). With ``--write-profiles`` it measures each system's *cost profile*
for ``bemula estimate`` in cl100k tokens (not words) -- ingestion per turn, the system's own
calls per question, the agent prompt per answer -- and writes them to
``src/bemula/systems/cost_profiles.toml`` (built-ins included; systems not installed here
keep their earlier entry). Usage::

    python benchmarks/bench_adapters.py [--systems mem0,langmem] [--local] [--dataset DIR] [--write-profiles]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bemula.llm.client import LLMClient, LLMConfig
from bemula.model import Dialogue
from bemula.systems.base import MemorySystem, SystemContext, TurnEvent, create_system, registry
from bemula.testing.fake_server import FakeOpenAIServer, count_words, prompt_word_count
from bemula.testing.scripted import TINY_A_RULES, ScriptedMemoryModel
from bemula.testing.tiny import tiny_instances

SYSTEMS = ("mem0", "mem0-current", "langmem", "a-mem", "simplemem", "lightmem", "graphiti", "cognee")
#: the built-ins whose profiles --write-profiles measures too (no LLM of their own)
BUILTINS = ("naive-rag", "full-context", "erasemem", "forget-all", "null")
#: systems whose prompts carry their store (the per-turn figure grows with the dialogue)
GROWS_WITH_STORE = {"mem0", "mem0-current", "langmem", "a-mem", "graphiti"}
PROFILES = Path(__file__).resolve().parent.parent / "src" / "bemula" / "systems" / "cost_profiles.toml"
#: SPEC §1, the paper's scale: turns per version over the 50 instances
PAPER_TURNS_PER_VERSION = 36_900


@dataclass
class Cost:
    llm_calls: int = 0
    prompt_words: int = 0
    completion_words: int = 0
    embedding_requests: int = 0
    seconds: float = 0.0


def scripted_model(name: str) -> Any:
    """The scripted endpoint for ``name``: Graphiti and Cognee ask for a knowledge graph, not
    for memories, so they have responders of their own (``bemula.testing.scripted_graphiti``,
    ``bemula.testing.scripted_cognee``)."""
    if name == "graphiti":
        from bemula.testing.scripted_graphiti import TINY_A_GRAPH_RULES, ScriptedGraphitiModel

        return ScriptedGraphitiModel(TINY_A_GRAPH_RULES)
    if name == "cognee":
        from bemula.testing.scripted_cognee import TINY_A_GRAPH_RULES as COGNEE_RULES
        from bemula.testing.scripted_cognee import ScriptedCogneeModel

        return ScriptedCogneeModel(COGNEE_RULES)
    return ScriptedMemoryModel(TINY_A_RULES)


def _turns(dialogue: Dialogue) -> list[TurnEvent]:
    return [TurnEvent(t.role.value, t.text, s.id, t.timestamp) for s, t in dialogue.iter_turns()]


def _feed(system: MemorySystem, turns: list[TurnEvent]) -> None:
    for i, turn in enumerate(turns):
        system.ingest(turn)
        if i + 1 == len(turns) or turns[i + 1].session_id != turn.session_id:
            system.end_session(turn.session_id)


def _finish(system: MemorySystem) -> None:
    finalize = getattr(system, "finalize", None)
    if finalize is not None:
        finalize()  # SimpleMem / LightMem process their last window here


def _cost(server: FakeOpenAIServer, since: int, seconds: float) -> Cost:
    cost = Cost(seconds=seconds)
    for path, body in server.requests[since:]:
        if path.endswith("/chat/completions"):
            cost.llm_calls += 1
            cost.prompt_words += prompt_word_count(body)
        elif path.endswith("/embeddings"):
            cost.embedding_requests += 1
    return cost


def _answer_words(answer: object) -> int:
    """Completion words as the scripted server counts them (content + tool-call arguments)."""
    if isinstance(answer, str):
        return count_words(answer)
    words = 0
    for choice in answer.get("choices", []) if isinstance(answer, dict) else []:
        message = choice.get("message") or {}
        words += count_words(str(message.get("content") or ""))
        words += sum(count_words(str(c["function"]["arguments"])) for c in message.get("tool_calls") or [])
    return words


def bench_scripted(name: str, workroot: Path, turns_per_version: int) -> None:
    instance = tiny_instances()[0]
    forget, control = _turns(instance.forget), _turns(instance.control)
    shared = next(i for i, (f, c) in enumerate(zip(forget, control, strict=True)) if f.text != c.text)
    model = scripted_model(name)
    answers: list[int] = []  # completion words of each answer

    def responder(path: str, body: dict) -> object:
        answer = model(path, body)
        answers.append(_answer_words(answer))
        return answer

    with FakeOpenAIServer(responder) as server:
        llm = LLMClient(LLMConfig(model="scripted", base_url=server.base_url))
        options = {"embedding_base_url": server.base_url}

        def make(tag: str) -> MemorySystem:
            return create_system(name, SystemContext(workdir=workroot / f"{name}-{tag}", llm=llm, options=options))

        # 1. the forget version from scratch: cost per ingested turn
        system = make("forget")
        system.reset()
        start, n_answers, t0 = len(server.requests), len(answers), time.perf_counter()
        _feed(system, forget)
        _finish(system)
        full = _cost(server, start, time.perf_counter() - t0)
        full.completion_words = sum(answers[n_answers:])
        system.close()
        n = len(forget)
        print(
            f"{name:10s} {full.llm_calls / n:6.2f} calls/turn  {full.prompt_words / n:7.1f} prompt words/turn  "
            f"{full.completion_words / n:6.1f} completion words/turn  {full.embedding_requests / n:5.2f} "
            f"embedding req/turn  {full.seconds:6.1f} s for {n} turns"
        )

        # 2. control from scratch vs. shared prefix + fork
        system = make("control")
        system.reset()
        start = len(server.requests)
        _feed(system, control)
        _finish(system)
        control_calls = _cost(server, start, 0).llm_calls
        system.close()

        factory = registry()[name].factory
        if factory is None or not factory.supports_fork:
            print(f"{'':10s} no fork(): both versions cost {full.llm_calls + control_calls} LLM calls")
            return
        system = make("prefix")
        system.reset()
        start = len(server.requests)
        _feed(system, forget[:shared])
        forked = system.fork()
        _feed(system, forget[shared:])
        _finish(system)
        _feed(forked, control[shared:])
        _finish(forked)
        with_fork = _cost(server, start, 0).llm_calls
        system.close()
        forked.close()
        scratch = full.llm_calls + control_calls
        print(
            f"{'':10s} prefix of {shared}/{n} turns: both versions {scratch} LLM calls from scratch, "
            f"{with_fork} with fork() ({100 * (scratch - with_fork) / scratch:.0f}% saved)"
        )
        llm.close()
    # dry-run estimate at tiny-a's per-turn rates (ingestion only; questions not included)
    both = 2 * turns_per_version
    print(
        f"{'':10s} estimate for {turns_per_version:,} turns/version, both versions, no fork: "
        f"{both * full.llm_calls / n:,.0f} LLM calls, {both * full.prompt_words / n / 1e6:,.1f} M prompt words, "
        f"{both * full.completion_words / n / 1e6:,.2f} M completion words"
    )


def _completion_text(answer: object) -> str:
    if isinstance(answer, str):
        return answer
    parts = []
    for choice in answer.get("choices", []) if isinstance(answer, dict) else []:
        message = choice.get("message") or {}
        parts.append(str(message.get("content") or ""))
        parts += [str(c["function"]["arguments"]) for c in message.get("tool_calls") or []]
    return "\n".join(parts)


def _prompt_text(body: dict) -> str:
    """What a chat request puts before the model: every message's content, the tools and
    the response schema (all of them cost prompt tokens)."""
    import json

    parts = []
    for message in body.get("messages") or []:
        content = message.get("content")
        parts.append(content if isinstance(content, str) else json.dumps(content))
    for key in ("tools", "response_format"):
        if body.get(key):
            parts.append(json.dumps(body[key]))
    return "\n".join(parts)


def measure_profile(name: str, workroot: Path) -> dict:
    """The cost profile of ``name`` on tiny-a's forget version, in cl100k tokens."""
    from bemula.agent import build_messages
    from bemula.fidelity import count_tokens
    from bemula.model import Version
    from bemula.run.instance import question_time

    instance = tiny_instances()[0]
    forget = _turns(instance.forget)
    model = scripted_model(name)
    chats: list[tuple[str, str]] = []  # (prompt text, completion text) per chat request

    def responder(path: str, body: dict) -> object:
        answer = model(path, body)
        if path.endswith("/chat/completions"):
            chats.append((_prompt_text(body), _completion_text(answer)))
        return answer

    def tokens(pairs: list[tuple[str, str]]) -> tuple[int, int]:
        if not pairs:
            return 0, 0
        prompt, _ = count_tokens([p for p, _ in pairs])
        completion, _ = count_tokens([c for _, c in pairs])
        return sum(prompt), sum(completion)

    with FakeOpenAIServer(responder) as server:
        llm = LLMClient(LLMConfig(model="scripted", base_url=server.base_url))
        system = create_system(name, SystemContext(workdir=workroot / f"{name}-profile", llm=llm,
                                                   options={"embedding_base_url": server.base_url}))
        system.reset()
        _feed(system, forget)
        _finish(system)
        ingest = list(chats)
        chats.clear()
        questions = [q for q in instance.questions if q.version == Version.FORGET]
        now = question_time(instance, Version.FORGET)
        answer_prompts = []
        for q in questions:
            items = system.retrieve(q.text, now)
            answer_prompts.append("\n".join(m["content"] for m in build_messages(q.text, items, now)))
        retrieval = list(chats)
        supports_fork = system.supports_fork
        system.close()
        llm.close()
    info = registry()[name]
    turns, n_questions = len(forget), len(questions)
    ingest_prompt, ingest_completion = tokens(ingest)
    retrieval_prompt, retrieval_completion = tokens(retrieval)
    history = name == "full-context"
    answer_tokens = sum(count_tokens(answer_prompts)[0]) / n_questions
    if history:  # the prompt around the history: the agent prompt with no memory lines
        answer_tokens = sum(count_tokens(["\n".join(m["content"] for m in build_messages(q.text, [], now))
                                          for q in questions])[0]) / n_questions
    import datetime

    import bemula

    version = info.version or f"(bemula {bemula.__version__})"
    return {
        "measured": (f"{datetime.date.today()}, {name} {version}: benchmarks/bench_adapters.py --write-profiles, "
                     f"scripted server, tiny-a forget version ({turns} turns, {n_questions} questions), cl100k tokens"),
        "llm_calls_per_turn": round(len(ingest) / turns, 4),
        "prompt_tokens_per_turn": round(ingest_prompt / turns, 2),
        "completion_tokens_per_turn": round(ingest_completion / turns, 2),
        "llm_calls_per_question": round(len(retrieval) / n_questions, 4),
        "prompt_tokens_per_question": round(retrieval_prompt / n_questions, 2),
        "completion_tokens_per_question": round(retrieval_completion / n_questions, 2),
        "answer_context": "history" if history else "items",
        "answer_prompt_tokens": round(answer_tokens, 2),
        "grows_with_store": name in GROWS_WITH_STORE,
        "supports_fork": bool(supports_fork),
    }


def write_profiles(measured: dict[str, dict]) -> None:
    """Merge ``measured`` into the shipped profiles file (other entries kept as they are)."""
    import tomllib

    current = tomllib.loads(PROFILES.read_text(encoding="utf-8")) if PROFILES.exists() else {}
    current.update(measured)
    lines = [
        "# Cost profiles for `bemula estimate` (bemula/run/estimate.py): per system, what ingestion costs",
        "# per turn, what the system's own retrieval costs per question, and the agent prompt per",
        "# answer, in cl100k tokens. Written by `python benchmarks/bench_adapters.py --write-profiles`",
        "# (each entry says when and on which version it was measured); do not edit by hand.",
    ]
    for name in sorted(current):
        lines.append("")
        lines.append(f'["{name}"]')
        for key, value in current[name].items():
            text = ("true" if value else "false") if isinstance(value, bool) else (
                f'"{value}"' if isinstance(value, str) else repr(value))
            lines.append(f"{key} = {text}")
    PROFILES.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {PROFILES}")


def bench_local(name: str, workroot: Path) -> None:
    from bemula.llm.backends import open_llm

    with open_llm("local", use_cache=False, concurrency=1) as llm:
        system = create_system(name, SystemContext(workdir=workroot / f"{name}-local", llm=llm))
        system.reset()
        t0 = time.perf_counter()
        turns = _turns(tiny_instances()[0].forget)[2:4]  # the penicillin exchange
        _feed(system, turns)
        _finish(system)
        seconds = time.perf_counter() - t0
        calls = system.stats().get("llm_calls", 0)
        system.close()
    print(f"{name:10s} local model: {calls} LLM calls in {seconds:.1f} s ({seconds / max(calls, 1):.1f} s/call)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", default=",".join(SYSTEMS))
    parser.add_argument("--local", action="store_true", help="also time one exchange on the local model")
    parser.add_argument("--dataset", type=Path, help="estimate for this dataset's turns (default: the paper's scale)")
    parser.add_argument("--write-profiles", action="store_true",
                        help="measure cost profiles (built-ins too) and write src/bemula/systems/cost_profiles.toml")
    args = parser.parse_args()
    turns = PAPER_TURNS_PER_VERSION
    if args.dataset is not None:
        from bemula.dataset import read_manifest

        turns = sum(entry.turns_per_version for entry in read_manifest(args.dataset).instances)
    available = registry()
    if args.write_profiles:
        measured = {}
        with tempfile.TemporaryDirectory(prefix="bench-profiles-") as tmp:
            for name in [*args.systems.split(","), *BUILTINS]:
                info = available.get(name)
                if info is None or not info.available:
                    print(f"{name:12s} not installed here: its profile is kept as it was")
                    continue
                measured[name] = measure_profile(name, Path(tmp))
                print(f"{name:12s} {measured[name]}")
        write_profiles(measured)
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-adapters-") as tmp:
        for name in args.systems.split(","):
            info = available.get(name)
            if info is None or not info.available:
                print(f"{name:10s} not installed: {info.install_hint if info else 'unknown system'}")
                continue
            print(f"-- {name} {info.version}")
            bench_scripted(name, Path(tmp), turns)
            if args.local:
                bench_local(name, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
