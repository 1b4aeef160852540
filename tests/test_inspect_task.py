"""The Inspect task: one sample per question, the memory replayed once per (instance,
version), bemula's judge as the scorer, and metrics equal to `bemula score` (issue 20)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")  # pip install 'bemula[inspect]' (CI installs it)

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402

from bemula.agent import NOT_AVAILABLE  # noqa: E402
from bemula.dataset import Dataset  # noqa: E402
from bemula.inspect_task import _Memories, bemula  # noqa: E402
from bemula.judge.pipeline import judge_folder  # noqa: E402
from bemula.metrics.definitions import metric_names  # noqa: E402
from bemula.metrics.run import score_run  # noqa: E402
from bemula.model import Version  # noqa: E402
from bemula.runfolder.folder import RunFolder  # noqa: E402
from bemula.runfolder.jsonl import JsonlAppender  # noqa: E402
from bemula.runfolder.meta import DatasetInfo, RunIdentity, RunMeta, SystemInfoMeta, write_meta  # noqa: E402
from bemula.runfolder.names import ANSWERS_NAME  # noqa: E402
from bemula.runfolder.records import AnswerKind, AnswerRecord  # noqa: E402
from bemula.testing.tiny import write_tiny_dataset  # noqa: E402

_MEMORY_LINE = re.compile(r"^\[\d+\] (?:\S+ \S+ )?(?:\(\w+\) )?(.*)$", re.M)


def _first_memory_line(messages, tools, tool_choice, config) -> ModelOutput:  # noqa: ANN001 - mockllm's signature
    """A stand-in model that answers with the first memory line it was shown (or the
    not-available sentence): answers that depend on what the system kept, no network."""
    text = messages[-1].text
    lines = _MEMORY_LINE.findall(text)
    output = ModelOutput.from_content(model="mockllm", content=lines[0] if lines else NOT_AVAILABLE)
    output.usage = ModelUsage(input_tokens=len(text) // 4, output_tokens=12, total_tokens=len(text) // 4 + 12)
    return output


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tiny") / "data"
    write_tiny_dataset(root)
    return root


def _run_folder_from_log(log, data: Path, out: Path) -> Path:  # noqa: ANN001 - an Inspect EvalLog
    """The log's answers as a bemula run folder, so bemula's own judge and scorer read them."""
    dataset = Dataset.open(data)
    write_meta(out, RunMeta(
        created="2026-01-01T00:00:00+00:00",
        identity=RunIdentity(dataset_checksum=dataset.checksum, system="erasemem", backbone="inspect"),
        config={"data": str(data)}, dataset=DatasetInfo(path=str(data), checksum=dataset.checksum),
        system=SystemInfoMeta(name="erasemem"),
    ))
    with JsonlAppender[AnswerRecord](out / ANSWERS_NAME) as answers:
        answers.append(
            AnswerRecord(instance_id=s.metadata["instance_id"], question_id=s.metadata["question_id"],
                         version=Version(s.metadata["version"]), system="erasemem", backbone="inspect",
                         answer_kind=AnswerKind.MODEL, question=str(s.input), answer=s.output.completion)
            for s in log.samples
        )
    return out


def test_inspect_metrics_equal_bemula_score_on_the_same_answers(tiny: Path, tmp_path: Path) -> None:
    model = get_model("mockllm/model", custom_outputs=_first_memory_line)
    [log] = inspect_eval(bemula(system="erasemem", data=str(tiny)), model=model,
                         log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success", log.error
    assert len(log.samples) == 45  # one per question, probes included
    inspect_metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert set(inspect_metrics) == set(metric_names())

    run = _run_folder_from_log(log, tiny, tmp_path / "run")
    judge_folder(run, "rules")
    scores = score_run(RunFolder.open(run), "rules", n_resamples=10)
    for name in metric_names():
        expected = scores.get(name)
        assert expected is not None and expected.value is not None, name
        assert inspect_metrics[name] == pytest.approx(round(expected.value, 4)), name
    # and the answers are the system's memory, not a constant: some right, some wrong
    assert 0 < inspect_metrics["RA"] < 100


def test_memory_is_replayed_once_per_instance_and_version(tiny: Path) -> None:
    import asyncio
    import tempfile

    calls: list[tuple[str, Version]] = []
    memories = _Memories(dataset=Dataset.open(tiny), system="naive-rag", options={}, index="bm25",
                         workdir=tempfile.TemporaryDirectory())
    build = memories._build
    memories._build = lambda iid, version: calls.append((iid, version)) or build(iid, version)  # type: ignore[method-assign]

    async def ask_many() -> None:
        await asyncio.gather(*(memories.get("tiny-a", Version.FORGET) for _ in range(8)),
                             *(memories.get("tiny-a", Version.CONTROL) for _ in range(3)))

    asyncio.run(ask_many())
    assert sorted(calls) == [("tiny-a", Version.CONTROL), ("tiny-a", Version.FORGET)]


def test_the_task_refuses_what_it_cannot_run(tiny: Path) -> None:
    with pytest.raises(ValueError, match="unknown system 'no-such'"):
        bemula(system="no-such", data=str(tiny))
    with pytest.raises(ValueError, match="unknown option 'topk'"):
        bemula(system="naive-rag", data=str(tiny), options="topk=3")
