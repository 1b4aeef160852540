"""A Ctrl-C that lands while a record is being serialised is still a Ctrl-C.

pydantic turns an exception raised inside serialisation into a serialisation error; before
``ctrl_c_deferred`` a Ctrl-C at that moment ended ``bemula run`` with "error: Error
serializing to JSON: KeyboardInterrupt" (exit 2) instead of the interrupt (exit 130)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from pydantic import BaseModel, field_serializer

from bemula.runfolder.jsonl import JsonlAppender, read_objects


class _Interrupting(BaseModel):
    value: str

    @field_serializer("value")
    def _press_ctrl_c(self, value: str) -> str:
        os.kill(os.getpid(), signal.SIGINT)  # the handler runs at the next bytecode, inside pydantic
        return value


def test_the_batch_is_written_whole_then_the_interrupt_is_raised(tmp_path: Path) -> None:
    path = tmp_path / "answers.jsonl"
    with JsonlAppender[_Interrupting](path) as writer, pytest.raises(KeyboardInterrupt):
        writer.append([_Interrupting(value="a"), _Interrupting(value="b")])
    assert read_objects(path) == [{"value": "a"}, {"value": "b"}]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_without_a_ctrl_c_nothing_changes(tmp_path: Path) -> None:
    class Plain(BaseModel):
        value: int

    path = tmp_path / "plain.jsonl"
    with JsonlAppender[Plain](path) as writer:
        assert writer.append([Plain(value=1)]) == 1
        assert writer.append([]) == 0
    assert read_objects(path) == [{"value": 1}]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
