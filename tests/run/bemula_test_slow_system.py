"""A test-only system: naive-rag that sleeps in ``retrieve`` so a run can be killed mid-way.

Imported through ``BEMULA_SYSTEM_MODULES`` (also in worker processes). The sleep comes from
``BEMULA_TEST_SLOW_S`` and changes no answer. ``BEMULA_TEST_FAIL_INSTANCE`` names an instance
whose retrieval raises (a system bug, to see it recorded as that instance's failure).
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
        if self.context.workdir.name == os.environ.get("BEMULA_TEST_FAIL_INSTANCE"):
            raise RuntimeError("the test system breaks on this instance")
        return super().retrieve(question, timestamp)
