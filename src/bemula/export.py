"""A dataset folder as Parquet tables (and a Hugging Face dataset card), and back.

Researchers find benchmarks on the Hub and read them with ``datasets`` or ``pyarrow``; the
folder of JSON files is bemula's own format. ``export_dataset`` writes one table per
*config* — ``instances``, ``turns``, ``requests``, ``questions`` — each in a ``full`` and a
``lite`` split, plus ``bemula-export.json`` (the source manifest: its checksum, generator,
counts) and, for ``--format hf``, a ``README.md`` dataset card with the YAML header the Hub
reads. ``import_dataset`` rebuilds the folder from the ``full`` tables; it writes every
instance file with the dataset writer, so an exported folder comes back with the *same
checksum* (checked: a mismatch is an error, never a silent difference).

Every column is a plain value or a list of strings, so the tables read anywhere; the few
nested fields (a fact profile, an F5 time window) are JSON text, marked ``bemula.json`` in
the column's metadata. ``pyarrow`` is imported only here (``pip install 'bemula[hub]'``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bemula.dataset import MANIFEST_NAME, Dataset, DatasetError, write_dataset
from bemula.model import Instance, Version

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

CONFIGS = ("instances", "turns", "requests", "questions")
SPLITS = ("full", "lite")
EXPORT_META = "bemula-export.json"
EXPORT_FORMAT = "1"
FORMATS = ("parquet", "hf")
#: column metadata key marking a column whose strings are JSON
JSON_MARK = b"bemula.json"
INSTALL_HINT = "pip install 'bemula[hub]'"


class ExportError(ValueError):
    """An export or import cannot be done; the message names the file and what is wrong."""


@dataclass
class ExportSummary:
    out: Path
    instances: int
    rows: dict[str, int] = field(default_factory=dict)
    checksum: str = ""
    files: list[Path] = field(default_factory=list)


def _pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet  # noqa: F401 - registers pa.parquet
    except ModuleNotFoundError:
        raise ExportError(f"export and import need pyarrow: {INSTALL_HINT}") from None
    return pa


# --------------------------------------------------------------------------- rows


def _instance_row(inst: Instance, lite: bool, sha256: str) -> dict[str, Any]:
    return {
        "id": inst.id,
        "tier": inst.tier.value,
        "lite": lite,
        "turns_per_version": inst.forget.n_turns,
        "requests": len(inst.requests),
        "questions": sum(1 for q in inst.questions if not q.is_probe),
        "sha256": sha256,
        "user": json.dumps(inst.profile.user, ensure_ascii=False),
        "profile": json.dumps(inst.profile.model_dump(mode="json"), ensure_ascii=False),
    }


def _turn_rows(inst: Instance) -> Iterable[dict[str, Any]]:
    for version in (Version.FORGET, Version.CONTROL):
        position = 0
        for session in inst.dialogue(version).sessions:
            start = session.model_dump(mode="json")["start"]
            for turn in session.turns:
                data = turn.model_dump(mode="json")
                notes = data.pop("annotations")
                yield {
                    "instance_id": inst.id, "version": version.value, "session_id": session.id,
                    "session_start": start, "position": position, **data,
                    "facts": notes["facts"], "request_id": notes["request_id"], "segment": notes["segment"],
                }
                position += 1


def _request_rows(inst: Instance) -> Iterable[dict[str, Any]]:
    for position, request in enumerate(inst.requests):
        data = request.model_dump(mode="json")
        window = data.pop("window")
        yield {"instance_id": inst.id, "position": position, **data,
               "window": None if window is None else json.dumps(window, ensure_ascii=False)}


def _question_rows(inst: Instance) -> Iterable[dict[str, Any]]:
    for position, question in enumerate(inst.questions):
        data = question.model_dump(mode="json")
        gold = data.pop("gold")
        yield {"instance_id": inst.id, "position": position, **data, "gold_kind": gold["kind"],
               "gold_accepted": gold["accepted"], "gold_protected": gold["protected"]}


#: per config: the columns whose strings are JSON documents
_JSON_COLUMNS = {"instances": {"user", "profile"}, "requests": {"window"}}
_LIST_COLUMNS = {
    "turns": {"facts"},
    "requests": {"target_fact_ids", "kept_fact_ids"},
    "questions": {"gold_accepted", "gold_protected"},
}


def _table(pa: Any, config: str, rows: list[dict[str, Any]], columns: list[str]) -> pa.Table:
    fields = []
    for name in columns:
        if name in _LIST_COLUMNS.get(config, set()):
            kind = pa.list_(pa.string())
        elif name in ("lite",):
            kind = pa.bool_()
        elif name in ("position", "turns_per_version", "requests", "questions"):
            kind = pa.int64()
        else:
            kind = pa.string()
        metadata = {JSON_MARK: b"1"} if name in _JSON_COLUMNS.get(config, set()) else None
        fields.append(pa.field(name, kind, nullable=True, metadata=metadata))
    schema = pa.schema(fields, metadata={b"bemula.config": config.encode()})
    return pa.Table.from_pylist([{c: r.get(c) for c in columns} for r in rows], schema=schema)


def _columns(rows: list[dict[str, Any]], first: list[str]) -> list[str]:
    seen = list(first)
    for row in rows:
        seen += [k for k in row if k not in seen]
    return seen


# --------------------------------------------------------------------------- export


def export_dataset(root: Path | str, out: Path | str, *, fmt: str = "parquet") -> ExportSummary:
    """Write ``root`` (a dataset folder) as Parquet tables under ``out``; ``fmt="hf"`` adds
    the dataset card. Every instance file's checksum is verified on the way."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}")
    pa = _pyarrow()
    dataset = Dataset.open(root)
    out = Path(out)
    if out.resolve() == dataset.root.resolve() or dataset.root.resolve() in out.resolve().parents:
        raise ExportError(f"{out}: the export must not go inside the dataset folder {dataset.root}")
    lite = set(dataset.manifest.lite_ids)
    rows: dict[str, list[dict[str, Any]]] = {c: [] for c in CONFIGS}
    for entry in dataset.manifest.instances:
        inst = dataset.load(entry.id)
        dataset.read_bytes(entry.id)  # the file's sha256 against the manifest
        rows["instances"].append(_instance_row(inst, entry.id in lite, entry.sha256))
        rows["turns"] += _turn_rows(inst)
        rows["requests"] += _request_rows(inst)
        rows["questions"] += _question_rows(inst)
    summary = ExportSummary(out=out, instances=len(rows["instances"]), checksum=dataset.checksum)
    for config, config_rows in rows.items():
        columns = _columns(config_rows, ["instance_id", "position"] if config != "instances" else ["id"])
        table = _table(pa, config, config_rows, columns)
        summary.rows[config] = table.num_rows
        key = "id" if config == "instances" else "instance_id"
        for split in SPLITS:
            part = table if split == "full" else table.filter(pa.array([r[key] in lite for r in config_rows]))
            path = out / config / f"{split}.parquet"
            path.parent.mkdir(parents=True, exist_ok=True)
            pa.parquet.write_table(part, path)
            summary.files.append(path)
    meta = {
        "format": EXPORT_FORMAT,
        "source_checksum": dataset.checksum,
        "manifest": dataset.manifest.model_dump(mode="json"),
        "configs": list(CONFIGS),
        "splits": list(SPLITS),
    }
    meta_path = out / EXPORT_META
    meta_path.write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    summary.files.append(meta_path)
    if fmt == "hf":
        card = out / "README.md"
        card.write_text(dataset_card(dataset, summary.rows), encoding="utf-8")
        summary.files.append(card)
    return summary


def dataset_card(dataset: Dataset, rows: dict[str, int]) -> str:
    """``README.md`` for the Hub: the YAML header (configs, splits, license) and the fields."""
    manifest = dataset.manifest
    configs = "\n".join(
        f"- config_name: {config}\n"
        + ("  default: true\n" if config == "questions" else "")
        + "  data_files:\n"
        + "".join(f"  - split: {split}\n    path: {config}/{split}.parquet\n" for split in SPLITS)
        for config in CONFIGS
    )
    counts = ", ".join(f"{rows[c]:,} {c}" for c in CONFIGS)
    return f"""---
license: mit
pretty_name: {manifest.name}
language:
- en
tags:
- memory
- unlearning
- llm-agents
- benchmark
configs:
{configs}---

# {manifest.name}

Memory-unlearning benchmark for LLM agents with long-term memory, exported by
[bemula](https://github.com/) from a dataset folder (format {manifest.format_version},
checksum `{dataset.checksum}`): {counts}. Split `full` holds every instance, `lite` the
short and medium ones (BEMULA-Lite).

Each instance is one user's long dialogue in two versions: `forget` (the user asks the agent
to forget things) and `control` (the same dialogue without those requests). Questions are
asked on one version each; forget questions carry the id of their control-version twin.

## Configs and fields

- **instances** — `id`, `tier` (short/medium/long), `lite`, `turns_per_version`,
  `requests`, `questions` (non-probe), `sha256` (of the instance file), `user` and
  `profile` (JSON: the synthetic user and every fact with its aliases).
- **turns** — `instance_id`, `version` (forget/control), `session_id`, `session_start`,
  `position` (within the version), `id`, `role`, `text`, `timestamp`, and the annotations
  the memory system never sees: `facts` (ids stated), `request_id`, `segment`.
- **requests** — `instance_id`, `position`, `id`, `type` (F1–F6), `target_fact_ids`,
  `session_id`, `turn_id`, `text`, `new_value` (F6), `category` (F3), `window` (F5, JSON),
  `kept_fact_ids`.
- **questions** — `instance_id`, `position`, `id`, `suite`, `version`, `text`,
  `request_id`, `fact_id`, `frame` (attacks), `control_probe_id`, `probe_of`, `gold_kind`
  (value/sentinel), `gold_accepted`, `gold_protected`.

```python
from datasets import load_dataset
questions = load_dataset("parquet", data_files={{"full": "questions/full.parquet"}})["full"]
```

`bemula import` turns these tables back into the folder (same checksum); `bemula eval
--data DIR` then evaluates memory systems on it.
"""


# --------------------------------------------------------------------------- import


def _read_table(pa: Any, path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise ExportError(f"{path}: file not found (is this a folder written by `bemula export`?)")
    try:
        table = pa.parquet.read_table(path)
    except Exception as exc:  # noqa: BLE001 - pyarrow's errors, one line with the file
        raise ExportError(f"{path}: not a Parquet table ({exc})") from None
    json_columns = {f.name for f in table.schema if f.metadata and f.metadata.get(JSON_MARK)}
    rows: list[dict[str, Any]] = table.to_pylist()
    for number, row in enumerate(rows):
        for name in json_columns:
            if row.get(name) is not None:
                try:
                    row[name] = json.loads(row[name])
                except json.JSONDecodeError as exc:
                    raise ExportError(f"{path}: row {number}: {name}: not JSON ({exc.msg})") from None
    return rows


def _grouped(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault(str(row.pop("instance_id")), []).append(row)
    for group in out.values():
        group.sort(key=lambda r: r.get("position", 0))
    return out


def _dialogue(rows: list[dict[str, Any]]) -> dict[str, Any]:
    sessions: list[dict[str, Any]] = []
    for row in rows:
        if not sessions or sessions[-1]["id"] != row["session_id"]:
            sessions.append({"id": row["session_id"], "start": row["session_start"], "turns": []})
        turn = {k: v for k, v in row.items()
                if k not in ("version", "session_id", "session_start", "position", "facts", "request_id", "segment")}
        turn["annotations"] = {"facts": row["facts"] or [], "request_id": row["request_id"], "segment": row["segment"]}
        sessions[-1]["turns"].append(turn)
    return {"sessions": sessions}


def import_dataset(src: Path | str, out: Path | str) -> ExportSummary:
    """Rebuild a dataset folder at ``out`` from an export at ``src`` (its ``full`` tables);
    refused unless the rebuilt folder has the checksum the export recorded."""
    pa = _pyarrow()
    src, out = Path(src), Path(out)
    meta_path = src / EXPORT_META
    if not meta_path.is_file():
        raise ExportError(f"{meta_path}: file not found (is {src} a folder written by `bemula export`?)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ExportError(f"{meta_path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    if str(meta.get("format")) != EXPORT_FORMAT:
        raise ExportError(f"{meta_path}: export format {meta.get('format')!r}, this bemula reads {EXPORT_FORMAT}")
    if (out / MANIFEST_NAME).exists():
        raise ExportError(f"{out}: already holds a dataset; import into a new folder")
    tables = {c: _read_table(pa, src / c / "full.parquet") for c in CONFIGS}
    turns = _grouped(tables["turns"])
    requests = _grouped(tables["requests"])
    questions = _grouped(tables["questions"])
    instances: list[Instance] = []
    for row in tables["instances"]:
        iid = str(row["id"])
        by_version = {v.value: [t for t in turns.get(iid, []) if t["version"] == v.value] for v in Version}
        data = {
            "id": iid,
            "tier": row["tier"],
            "profile": row["profile"],
            "forget": _dialogue(by_version["forget"]),
            "control": _dialogue(by_version["control"]),
            "requests": [{k: v for k, v in r.items() if k != "position"} for r in requests.get(iid, [])],
            "questions": [
                {**{k: v for k, v in q.items() if k not in ("position", "gold_kind", "gold_accepted", "gold_protected")},
                 "gold": {"kind": q["gold_kind"], "accepted": q["gold_accepted"] or [],
                          "protected": q["gold_protected"] or []}}
                for q in questions.get(iid, [])
            ],
        }
        try:
            instances.append(Instance.model_validate(data))
        except Exception as exc:  # noqa: BLE001 - pydantic's error, with the instance named
            raise ExportError(f"{src}: instance {iid!r} does not rebuild: {exc}") from None
    manifest = meta.get("manifest") or {}
    written = write_dataset(out, instances, generator=manifest.get("generator"), counts=manifest.get("counts"),
                            name=manifest.get("name", "bemula"))
    expected = str(meta.get("source_checksum", ""))
    if written.checksum != expected:
        raise ExportError(
            f"{out}: rebuilt dataset has checksum {written.checksum[:12]}…, the export recorded "
            f"{expected[:12]}… (the tables were changed, or the source was not written by bemula's writer)"
        )
    try:
        Dataset.open(out)
    except DatasetError as exc:
        raise ExportError(str(exc)) from None
    return ExportSummary(out=out, instances=len(instances), rows={c: len(t) for c, t in tables.items()},
                         checksum=written.checksum)
