"""The paper's generation pipeline: profiles, plans, dialogues and questions written by LLM
agents (``bemula generate --pipeline llm``; docs/llm-pipeline.md).

Entry point: :func:`bemula.generate.llm.pipeline.generate_llm_benchmark`; the dry-run plan:
:func:`bemula.generate.llm.pipeline.estimate`. Stages: ``profile`` → ``planning`` →
``simulation`` → ``injection`` → ``questions``, then ``assemble``.
"""

from __future__ import annotations
