"""The names of the files a run folder holds (one place; every stage builds paths from these)."""

from __future__ import annotations

META_NAME = "meta.json"
ANSWERS_NAME = "answers.jsonl"
SUMMARY_NAME = "run-summary.json"
RECEIPTS_NAME = "receipts.jsonl"
DUMPS_DIR = "dumps"
FAILURES_NAME = "failures.log"
LOCK_NAME = ".lock"
RESIDUES_NAME = "residues.jsonl"
AUDIT_SUMMARY_NAME = "residues-summary.json"
ESTIMATE_NAME = "estimate.json"

VERDICTS_PREFIX = "verdicts-"


def verdicts_name(judge: str) -> str:
    """``verdicts-<judge>.jsonl``: one verdict file per judge, so judges never overwrite each other."""
    return f"{VERDICTS_PREFIX}{judge}.jsonl"
