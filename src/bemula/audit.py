"""The residue audit (``bemula audit RUN``): where do forgotten values still sit?

The paper stops at answers; a value the agent no longer *says* may still be stored — in raw
turn buffers, history tables, summaries, neighbours' notes, the text behind vectors. The
audit needs no backbone: after the forget version is ingested, it scans every record of every
store in the system's ``dump()`` for each forget request's **protected values** (the
``gold.protected`` values of that request's efficacy and attack questions, plus the aliases
of the facts they belong to) and writes one line per hit to ``residues.jsonl``.

Matching reads stores the way the rule judge reads answers: both sides in the benchmark's
canonical form (``bemula.text.normalize_tokens``: case, accents, disguises, plurals,
number words, dates, times), on token boundaries:

* ``exact`` — the value itself appears;
* ``alias`` — an alias of the value's fact appears (e.g. "O-" for "O negative");
* ``partial`` — for a value with at least two *distinctive* tokens (the judge's leak rule,
  ``bemula.text.distinctive_tokens``: not a stop-word, not a generic word such as "street"
  or "medication", not part of a value the question accepts — an F6 question's new value —,
  words of three letters or more, numbers of three digits or more), at least
  ``max(2, ceil(n/2))`` of its ``n`` distinctive tokens appear **close together** in the
  same record — all within a span of the value's token count plus ``PARTIAL_SLACK`` tokens
  ("Rue de la Paix 12" is found in "I live at 12 Paix street"). Why more than the judge's
  one token: a store is not an answer to the question, it holds everything the user said,
  so one word of a value in a big store is weak evidence; why the span: tokens scattered
  over a sentence do not encode the value — "Good afternoon! … pick up envelopes on Sunday"
  does not hold "Sunday afternoon", and "45 minutes … the best part of my week" does not
  hold "135 minutes a week". A record is reported once per value, with its strongest kind.

The run writes ``dumps/<instance>/forget.jsonl`` right after ingesting the forget version,
so the audit normally reads those; an instance without a dump is re-ingested with the run's
configuration. If control dumps exist, each value is also looked up there: a value the
system never stored cannot be a residue, and the summary shows how many were stored at all.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bemula.dataset import InstanceView
from bemula.model import DerivedFact, Fact, Instance, Suite, Version
from bemula.run.runner import load_instance
from bemula.runfolder.dumps import dump_path, read_dump
from bemula.runfolder.folder import RunFolder, RunFolderError, read_answers
from bemula.runfolder.jsonl import atomic_open, atomic_write_json
from bemula.runfolder.meta import RunMeta
from bemula.runfolder.names import ANSWERS_NAME, AUDIT_SUMMARY_NAME, DUMPS_DIR, RESIDUES_NAME
from bemula.runfolder.records import ResidueRecord
from bemula.systems.base import StoreRecord
from bemula.text import distinctive_tokens, fold_chars, normalize, normalize_tokens

SUMMARY_NAME = AUDIT_SUMMARY_NAME
SNIPPET_CHARS = 60

_RAW_WORD = re.compile(r"[0-9a-z]+")

#: An alias shorter than this once normalised ("O-" -> "o") would match ordinary words.
MIN_ALIAS_CHARS = 2

#: A partial match's tokens must lie within (value token count + this many) tokens.
PARTIAL_SLACK = 4


class AuditError(RuntimeError):
    """The audit cannot run on this folder; the message says why."""


@dataclass
class ProtectedValue:
    """One forgotten value of one request, with the forms that give it away.

    ``accepted``: values the value's questions accept (an F6 request's new value); their
    tokens are never distinctive, as in the judge — the new value is meant to be stored."""

    request_id: str
    request_type: str
    value: str
    aliases: list[str] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        value_tokens = normalize_tokens(self.value)
        forms = [(value_tokens, "exact")]
        for alias in self.aliases:
            tokens = normalize_tokens(alias)
            if len(" ".join(tokens)) >= MIN_ALIAS_CHARS and tokens != value_tokens:
                forms.append((tokens, "alias"))
        self._forms = [(" ".join(tokens), kind) for tokens, kind in forms]
        accepted_tokens = frozenset(t for a in self.accepted for t in normalize_tokens(a))
        self._tokens = list(dict.fromkeys(distinctive_tokens(value_tokens, accepted_tokens=accepted_tokens)))
        n = len(self._tokens)
        self._partial_needed = max(2, math.ceil(n / 2)) if n >= 2 else None
        self._partial_span = len(value_tokens) + PARTIAL_SLACK

    def match(self, padded_norm: str, words: set[str], sequence: list[str] | None = None) -> str | None:
        """``exact``/``alias``/``partial`` or ``None`` for one record (its canonical tokens
        joined by spaces and padded with spaces; its token set; its tokens in order, for the
        partial span — taken from ``padded_norm`` when not given)."""
        for form, kind in self._forms:
            if form and f" {form} " in padded_norm:
                return kind
        if self._partial_needed is not None:
            if sum(1 for t in self._tokens if t in words) < self._partial_needed:
                return None
            if self._most_tokens_in_span(sequence or padded_norm.split()) >= self._partial_needed:
                return "partial"
        return None

    def _most_tokens_in_span(self, sequence: list[str]) -> int:
        """The most distinct value tokens found inside any ``_partial_span`` consecutive tokens."""
        wanted = set(self._tokens)
        hits = [(i, w) for i, w in enumerate(sequence) if w in wanted]
        best, left = 0, 0
        counts: dict[str, int] = defaultdict(int)
        for position, word in hits:
            counts[word] += 1
            while position - hits[left][0] >= self._partial_span:
                old = hits[left][1]
                counts[old] -= 1
                if not counts[old]:
                    del counts[old]
                left += 1
            best = max(best, len(counts))
        return best

    def snippet(self, text: str, kind: str) -> str:
        """About ``SNIPPET_CHARS`` characters either side of where the value sits in ``text``
        (found by the words as written; where the canonical form matched a different
        spelling — "2024-03-05" for "5 March 2024" — the snippet starts at the record's start)."""
        folded = fold_chars(text)
        if kind == "partial":
            phrases = [[w] for w in _RAW_WORD.findall(fold_chars(self.value))
                       if set(normalize_tokens(w)) & set(self._tokens)]
        elif kind == "exact":
            phrases = [_RAW_WORD.findall(fold_chars(self.value))]
        else:
            phrases = [_RAW_WORD.findall(fold_chars(a)) for a in self.aliases]
        position = 0
        for words in phrases:
            if not words:
                continue
            pattern = r"(?<![0-9a-z])" + r"[^0-9a-z]+".join(map(re.escape, words)) + r"(?![0-9a-z])"
            m = re.search(pattern, folded)
            if m:
                position = m.start()
                break
        start = max(0, position - SNIPPET_CHARS)
        end = min(len(text), position + SNIPPET_CHARS + len(self.value))
        return ("…" if start else "") + text[start:end].replace("\n", " ") + ("…" if end < len(text) else "")


def protected_values(instance: Instance | InstanceView) -> list[ProtectedValue]:
    """Each forget request's protected values, from its efficacy and attack questions, with
    the aliases of their facts and the values those questions accept."""
    types = {r.id: r.type.value for r in instance.requests}
    facts: list[Fact | DerivedFact] = [*instance.profile.facts, *instance.profile.derived_facts]
    fact_forms: list[list[str]] = [[f.value, *f.aliases] for f in facts]
    found: dict[tuple[str, str], tuple[str, list[str]]] = {}  # (request, canonical value) -> (value, accepted)
    for q in instance.questions_for(Version.FORGET):
        if q.suite not in (Suite.EFFICACY, Suite.ATTACK) or not q.request_id:
            continue
        for value in q.gold.protected:
            key = (q.request_id, normalize(value))
            if not key[1]:
                continue
            accepted = found.setdefault(key, (value, []))[1]
            accepted += [a for a in q.gold.accepted if a not in accepted]
    out: list[ProtectedValue] = []
    for (request_id, canonical), (value, accepted) in found.items():
        aliases: list[str] = []
        for forms in fact_forms:
            if any(normalize(f) == canonical for f in forms):
                aliases += [f for f in forms if normalize(f) != canonical and f not in aliases]
        out.append(ProtectedValue(request_id, types.get(request_id, ""), value, aliases, accepted))
    return out


#: one line of residues.jsonl (the run-folder contract's record)
Residue = ResidueRecord


def _candidates(values: list[ProtectedValue]) -> dict[str, list[int]]:
    """word -> indexes of the values a record containing that word might match: the first
    word of each exact/alias form, and every distinctive token (a record without any of a
    value's trigger words cannot match it, so most (record, value) pairs are never tried)."""
    index: dict[str, list[int]] = defaultdict(list)
    for i, pv in enumerate(values):
        triggers = {form.split()[0] for form, _ in pv._forms if form} | set(pv._tokens)
        for word in triggers:
            index[word].append(i)
    return index


def _matches(values: list[ProtectedValue], records: Iterable[StoreRecord]):
    """Yield (record, value, kind) for every value sitting in a record."""
    index = _candidates(values)
    for record in records:
        sequence = list(normalize_tokens(record.text))
        norm = " ".join(sequence)
        words = set(sequence)
        candidates = sorted({i for w in words & index.keys() for i in index[w]})
        if not candidates:
            continue
        padded = f" {norm} "
        for i in candidates:
            kind = values[i].match(padded, words, sequence)
            if kind is not None:
                yield record, values[i], kind


def scan(instance_id: str, values: list[ProtectedValue], records: Iterable[StoreRecord]) -> list[Residue]:
    """Every (value, record) pair where a protected value sits in a store record."""
    return [
        Residue(
            instance_id=instance_id, request_id=pv.request_id, request_type=pv.request_type, value=pv.value,
            match=kind, store=record.store, record_id=record.id, snippet=pv.snippet(record.text, kind),
        )
        for record, pv, kind in _matches(values, records)
    ]


def found_values(values: list[ProtectedValue], records: Iterable[StoreRecord]) -> set[tuple[str, str]]:
    """(request id, value) pairs that appear anywhere in ``records``."""
    return {(pv.request_id, pv.value) for _, pv, _ in _matches(values, records)}


# --------------------------------------------------------------------------- the run-level audit


@dataclass
class StoreSummary:
    store: str
    records: int = 0
    residues: int = 0
    values_found: int = 0


@dataclass
class AuditSummary:
    run: str
    system: str
    instances: int = 0
    instances_reingested: int = 0
    values_protected: int = 0
    values_with_residue: int = 0
    values_stored_in_control: int | None = None
    values_with_residue_among_stored: int | None = None
    residues: int = 0
    by_match: dict[str, int] = field(default_factory=dict)
    by_request_type: dict[str, dict[str, int]] = field(default_factory=dict)
    stores: list[StoreSummary] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _run_instances(run: Path) -> list[str]:
    """Instance ids the run touched: those with answers or with a dump, in a stable order."""
    ids: list[str] = []
    answers = run / ANSWERS_NAME
    if answers.exists():
        for instance_id, _ in read_answers(answers):
            if instance_id not in ids:
                ids.append(instance_id)
    dumps = run / DUMPS_DIR
    if dumps.is_dir():
        for folder in sorted(dumps.iterdir()):
            if folder.is_dir() and folder.name not in ids:
                ids.append(folder.name)
    return ids


def audit_run(run: Path | str, *, data: Path | str | None = None) -> AuditSummary:
    """Scan the forget-version stores of every instance of ``run``; write residues files."""
    run = Path(run)
    try:
        folder = RunFolder.open(run, data=data)
    except RunFolderError as exc:
        raise AuditError(str(exc)) from None
    try:
        dataset = folder.dataset  # checks the checksum the answers were written against
    except RunFolderError as exc:
        raise AuditError(f"{exc}; pass the run's dataset with --data") from None
    meta, data_path = folder.meta, folder.data_path
    ids = _run_instances(run)
    if not ids:
        raise AuditError(f"{run}: the run has no answers and no dumps yet; run it first")
    summary = AuditSummary(run=str(run), system=meta.identity.system, instances=len(ids))
    stores: dict[str, StoreSummary] = {}
    values_found_per_store: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
    residue_values: set[tuple[str, str, str]] = set()
    stored_values: set[tuple[str, str, str]] = set()
    have_control = True
    with atomic_open(run / RESIDUES_NAME) as out:
        for instance_id in ids:
            values = protected_values(dataset.view(instance_id))
            summary.values_protected += len(values)
            forget_path = dump_path(run, instance_id, Version.FORGET)
            if forget_path.exists():
                records = read_dump(forget_path)
            else:
                records = _reingest(meta, data_path, load_instance(dataset, instance_id), Version.FORGET)
                summary.instances_reingested += 1
            for record in records:
                stores.setdefault(record.store, StoreSummary(record.store)).records += 1
            for residue in scan(instance_id, values, records):
                out.write(residue.model_dump_json() + "\n")
                summary.residues += 1
                stores[residue.store].residues += 1
                key = (instance_id, residue.request_id, residue.value)
                values_found_per_store[residue.store].add(key)
                residue_values.add(key)
                summary.by_match[residue.match] = summary.by_match.get(residue.match, 0) + 1
            control_path = dump_path(run, instance_id, Version.CONTROL)
            if control_path.exists():
                for rid, value in found_values(values, read_dump(control_path)):
                    stored_values.add((instance_id, rid, value))
            else:
                have_control = False
            for pv in values:
                row = summary.by_request_type.setdefault(pv.request_type, {"values": 0, "with_residue": 0})
                row["values"] += 1
                row["with_residue"] += (instance_id, pv.request_id, pv.value) in residue_values
    for name, store in stores.items():
        store.values_found = len(values_found_per_store[name])
    summary.stores = sorted(stores.values(), key=lambda s: s.store)
    summary.values_with_residue = len(residue_values)
    if have_control:
        summary.values_stored_in_control = len(stored_values)
        summary.values_with_residue_among_stored = len(residue_values & stored_values)
    atomic_write_json(run / SUMMARY_NAME, summary.to_json())
    return summary


def _reingest(meta: RunMeta, data_path: Path, instance: Instance, version: Version) -> list[StoreRecord]:
    """Rebuild a version's stores with the run's configuration (no dump was written): the
    runner's own ``RunConfig`` and system context, so options such as ``llm_options`` match."""
    import tempfile

    from bemula.backbones import open_backbone
    from bemula.run.ingest import feed, version_steps
    from bemula.run.runner import RunConfig, llm_kwargs, system_context
    from bemula.systems.base import create_system

    config = RunConfig.from_json(meta.config)
    with open_backbone(config.backbone, context_window=config.context_window, **llm_kwargs(config)) as (backbone, llm):
        with tempfile.TemporaryDirectory(prefix="bemula-audit-") as workdir:
            system = create_system(config.system, system_context(config, Path(workdir), backbone, llm))
            try:
                system.reset()
                feed(system, version_steps(instance.dialogue(version)))
                return system.dump()
            finally:
                system.close()
