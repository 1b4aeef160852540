"""What a run was expected to cost (``estimate.json``, from ``bemula estimate``'s method) and
what it spent, read back from the run folder for the report.

Spent, as the run folder records it:
- answering: every answer a model gave (``answer_kind`` model, no error), with the tokens the
  endpoint reported (an answer served from the LLM cache still counts: it was paid once);
- ingestion and retrieval: the ``llm_calls``/``prompt_tokens``/``completion_tokens`` that a
  system reports in each version's stats. A forked version starts from its parent's counts,
  so the two versions' sum counts the shared prefix twice; the estimate's
  ``ingest_as_stores_count`` counts it the same way, so the two compare.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bemula.runfolder.folder import read_answers
from bemula.runfolder.names import ANSWERS_NAME, DUMPS_DIR, ESTIMATE_NAME
from bemula.runfolder.records import AnswerKind

_USAGE_KEYS = ("llm_calls", "prompt_tokens", "completion_tokens")


def read_estimate(run: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((run / ESTIMATE_NAME).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def spent(run: Path) -> dict[str, dict[str, int]]:
    """``{"system": {...}, "answering": {...}}`` with calls, prompt and completion tokens."""
    system = dict.fromkeys(_USAGE_KEYS, 0)
    root = run / DUMPS_DIR
    for path in sorted(root.glob("*/*.stats.json")) if root.is_dir() else []:
        try:
            stats = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        for key in _USAGE_KEYS:
            value = stats.get(key) if isinstance(stats, dict) else None
            if isinstance(value, int | float):
                system[key] += int(value)
    answering = dict.fromkeys(_USAGE_KEYS, 0)
    answers = read_answers(run / ANSWERS_NAME) if (run / ANSWERS_NAME).exists() else {}
    for record in answers.values():
        if record.answer_kind == AnswerKind.MODEL and record.error is None:
            answering["llm_calls"] += 1
            answering["prompt_tokens"] += record.prompt_tokens
            answering["completion_tokens"] += record.completion_tokens
    return {"system": system, "answering": answering}


def cost_comparison(run: Path) -> dict[str, Any] | None:
    """Estimated beside spent, for a run that has an estimate; None otherwise."""
    estimate = read_estimate(run)
    if estimate is None:
        return None
    actual = spent(run)
    stores = estimate.get("ingest_as_stores_count") or {}
    retrieval = estimate.get("retrieval") or {}
    answering = estimate.get("answering") or {}

    def expected(key: str) -> int:
        return int(stores.get(key, 0)) + int(retrieval.get(key, 0)) + int(answering.get(key, 0))

    mapping = {"llm_calls": "calls", "prompt_tokens": "prompt_tokens", "completion_tokens": "completion_tokens"}
    return {
        name: {"estimated": expected(key), "actual": actual["system"][name] + actual["answering"][name]}
        for name, key in mapping.items()
    } | {"profile": estimate.get("profile"), "notes": estimate.get("notes", [])}
