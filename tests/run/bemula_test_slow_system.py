"""A test-only system: naive-rag that sleeps in ``retrieve`` so a run can be killed mid-way.

Imported through ``BEMULA_SYSTEM_MODULES`` (also in worker processes). The sleep comes from
``BEMULA_TEST_SLOW_S`` and changes no answer.
"""

from __future__ import annotations

import os
import time
from datetime import datetime

from bemula.systems.base import RetrievedItem, register
from bemula.systems.naive_rag import NaiveRAG


@register
class SlowNaiveRAG(NaiveRAG):
    name = "slow-naive-rag"
    description = "naive-rag with a sleep per retrieve (tests only)"

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        time.sleep(float(os.environ.get("BEMULA_TEST_SLOW_S", "0")))
        return super().retrieve(question, timestamp)
