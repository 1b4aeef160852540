"""Judging answers (SPEC §1 gold kinds, §6 rule judge): deterministic rules, the LLM judge,
the cascade of both, and their agreement. ``bemula judge`` writes ``verdicts-<judge>.jsonl``."""

from __future__ import annotations

from bemula.judge.base import Judge, JudgeItem
from bemula.judge.rules import RuleJudge, judge_answer

__all__ = ["Judge", "JudgeItem", "RuleJudge", "judge_answer"]
