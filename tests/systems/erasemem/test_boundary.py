"""erasemem sees only what a live agent sees — never the dataset's annotations.

Two proofs: (1) run the real runner on the tiny dataset with a spy on the system's entry
points and check every value that reaches it; (2) check that no erasemem module imports
the data model or the dataset reader (it could not read gold even by accident).
"""

from __future__ import annotations

import ast
import dataclasses
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

import bemula.systems.erasemem as erasemem_pkg
from bemula.dataset import Dataset
from bemula.run.runner import RunConfig, run_benchmark
from bemula.systems.base import SystemContext, TurnEvent
from bemula.systems.erasemem.system import EraseMem
from bemula.testing import write_tiny_dataset


def test_runner_passes_only_role_text_session_timestamp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    write_tiny_dataset(data)
    events: list[Any] = []
    questions: list[tuple[Any, ...]] = []
    contexts: list[SystemContext] = []
    real_init, real_ingest, real_retrieve = EraseMem.__init__, EraseMem.ingest, EraseMem.retrieve

    def spy_init(self: EraseMem, context: SystemContext) -> None:
        contexts.append(context)
        real_init(self, context)

    def spy_ingest(self: EraseMem, turn: TurnEvent) -> None:
        events.append(turn)
        real_ingest(self, turn)

    def spy_retrieve(self: EraseMem, question: str, timestamp: datetime | None = None) -> Any:
        questions.append((question, timestamp))
        return real_retrieve(self, question, timestamp)

    monkeypatch.setattr(EraseMem, "__init__", spy_init)
    monkeypatch.setattr(EraseMem, "ingest", spy_ingest)
    monkeypatch.setattr(EraseMem, "retrieve", spy_retrieve)
    run_benchmark(RunConfig(data=data, out=tmp_path / "run", system="erasemem"), progress=False)

    assert events and questions and contexts
    fields = {f.name for f in dataclasses.fields(TurnEvent)}
    assert fields == {"role", "text", "session_id", "timestamp"}
    for event in events:
        assert type(event) is TurnEvent and event.role in ("user", "assistant")
        assert isinstance(event.text, str) and isinstance(event.timestamp, datetime)
    for question, when in questions:
        assert isinstance(question, str) and (when is None or isinstance(when, datetime))

    # nothing the dataset annotates (fact ids, request ids, segment labels, gold) got through
    dataset = Dataset.open(data)
    secrets: set[str] = set()
    for inst in dataset:
        secrets |= {f.id for f in inst.profile.facts} | {d.id for d in inst.profile.derived_facts}
        secrets |= {r.id for r in inst.requests} | {q.id for q in inst.questions}
        for _, turn in list(inst.forget.iter_turns()) + list(inst.control.iter_turns()):
            secrets |= {turn.id}
    seen = [str(v) for e in events for v in (e.role, e.session_id)] + [str(c.options) for c in contexts]
    leaked = [s for s in secrets if any(s == v or f"'{s}'" in v for v in seen)]
    assert leaked == []
    texts = {e.text for e in events}
    dialogue_texts = {t.text for inst in dataset for _, t in list(inst.forget.iter_turns()) + list(inst.control.iter_turns())}
    assert texts <= dialogue_texts  # the system got the dialogue's words, nothing added
    asked = {q for q, _ in questions}
    assert asked <= {q.text for inst in dataset for q in inst.questions}


def test_erasemem_imports_nothing_from_the_data_model() -> None:
    package_dir = Path(erasemem_pkg.__file__).parent
    forbidden = ("bemula.model", "bemula.dataset", "bemula.generate", "bemula.judge", "bemula.audit", "bemula.metrics")
    for path in sorted(package_dir.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(forbidden), f"{path.name} imports {name}"
