"""What judging and scoring need from a dataset instance — its questions and requests —
read without validating the dialogues (a long instance has tens of thousands of turns;
validating them all takes most of the time of scoring a run).

Loaded views are kept per dataset (root + checksum: instance files never change under a
checksum), so judging and reporting several runs on the same data read each file once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from bemula.dataset import Dataset, DatasetError, decode_json, json_location, read_file
from bemula.model import Question, Request, Tier

_REQUESTS = TypeAdapter(list[Request])
_QUESTIONS = TypeAdapter(list[Question])


@dataclass(frozen=True)
class InstanceQuestions:
    """An instance without its dialogues: id, tier, requests, questions, turns per version."""

    id: str
    tier: Tier
    requests: list[Request]
    questions: list[Question]
    n_turns: int


def read_instance_questions(path: Path, n_turns: int) -> InstanceQuestions:
    data = decode_json(read_file(path), path)
    if not isinstance(data, dict):
        raise DatasetError(path, "$", "not a JSON object")
    for key in ("id", "tier", "requests", "questions"):
        if key not in data:
            raise DatasetError(path, f"$.{key}", "Field required")
    try:
        tier = Tier(data["tier"])
    except ValueError:
        raise DatasetError(path, "$.tier", f"unknown tier {data['tier']!r}") from None
    parsed = {}
    for key, adapter in (("requests", _REQUESTS), ("questions", _QUESTIONS)):
        try:
            parsed[key] = adapter.validate_python(data[key])
        except ValidationError as exc:
            first = exc.errors()[0]
            raise DatasetError(path, json_location((key, *first["loc"])), first["msg"]) from None
    return InstanceQuestions(str(data["id"]), tier, parsed["requests"], parsed["questions"], n_turns)


_cache_key: tuple[str, str] | None = None
_cache: dict[str, InstanceQuestions] = {}


def load_questions(dataset: Dataset, ids: list[str]) -> dict[str, InstanceQuestions]:
    """``ids`` (in the given order) as question views, each file read once per dataset."""
    global _cache_key, _cache
    key = (str(dataset.root.resolve()), dataset.checksum)
    if key != _cache_key:
        _cache_key, _cache = key, {}
    for iid in ids:
        if iid not in _cache:
            entry = dataset.entry(iid)
            _cache[iid] = read_instance_questions(dataset.entry_path(entry), entry.turns_per_version)
    return {iid: _cache[iid] for iid in ids}
