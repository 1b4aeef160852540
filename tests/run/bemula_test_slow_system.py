"""A test-only system: naive-rag that sleeps in ``retrieve`` so a run can be killed mid-way.

Imported through ``BEMULA_SYSTEM_MODULES`` (also in worker processes). The sleep comes from
``BEMULA_TEST_SLOW_S`` and changes no answer. ``BEMULA_TEST_FAIL_INSTANCE`` names an instance
whose retrieval raises (a system bug, to see it recorded as that instance's failure).
``BEMULA_TEST_DIE_INSTANCE`` names an instance whose worker kills itself (``SIGKILL``) at its
``BEMULA_TEST_DIE_AFTER``-th retrieval, once: the file ``BEMULA_TEST_DIE_MARK`` says it
happened. Before it, each retrieval of that instance takes 0.3 s; after it, none, so the
second attempt hands its answers on in fewer, larger bundles than the first did.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from datetime import datetime

from bemula.systems.base import RetrievedItem, register
from bemula.systems.naive_rag import NaiveRAG


@register
class SlowNaiveRAG(NaiveRAG):
    name = "slow-naive-rag"
    description = "naive-rag with a sleep per retrieve (tests only)"

    _retrievals = 0
    _lock = threading.Lock()

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        time.sleep(float(os.environ.get("BEMULA_TEST_SLOW_S", "0")))
        if self.context.workdir.name == os.environ.get("BEMULA_TEST_DIE_INSTANCE"):
            self._die_once()
        if self.context.workdir.name == os.environ.get("BEMULA_TEST_FAIL_INSTANCE"):
            raise RuntimeError("the test system breaks on this instance")
        return super().retrieve(question, timestamp)

    def _die_once(self) -> None:
        mark = os.environ["BEMULA_TEST_DIE_MARK"]
        if os.path.exists(mark):
            return
        time.sleep(0.3)
        with SlowNaiveRAG._lock:
            SlowNaiveRAG._retrievals += 1
            if SlowNaiveRAG._retrievals >= int(os.environ.get("BEMULA_TEST_DIE_AFTER", "1")):
                open(mark, "w").close()  # noqa: SIM115 - a mark, nothing written in it
                os.kill(os.getpid(), signal.SIGKILL)
