"""The hand-written phrase banks of edition 2, loaded and checked.

A bank is one folder per split (``banks/dev``, ``banks/test``):

* ``facts/<category>.toml`` — per attribute: ``state`` (first statement, ``{v}`` once),
  ``mention`` (a later in-passing mention, ``{v}`` once), ``ask`` (questions as people ask
  them), ``refer`` (noun phrases naming the fact without its value, for requests), ``echo``
  (an assistant sentence reusing the value, ``{v}`` once); ``facts/derived.toml`` — per
  derived template: ``ask`` and ``refer``;
* ``threads/*.toml`` — ordinary conversations, several alternatives per turn;
* ``requests.toml`` — request phrasings per type and style, confirmations, the user's own
  words for categories, F5 window phrasings, embedding joints and decoys (messages that
  look like requests but are not).

Two splits exist so that a memory system can be developed on one (``dev``) and measured
on the other (``test``) without having seen its wording (docs/generator.md). Loading checks
every slot, count and the splits' disjointness, and a bad file gets an error naming the
file and the key.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Set
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bemula.generate.catalog import ATTRIBUTES, CATEGORIES
from bemula.generate.derived import DERIVED_TEMPLATES, NATURAL_DERIVED_TEMPLATES
from bemula.model import RequestType
from bemula.text import squash

BANKS_DIR = Path(__file__).resolve().parent.parent / "banks"
SPLITS = ("dev", "test")


class BankError(ValueError):
    """A bank file is malformed: the message names the file and the key."""


@dataclass(frozen=True)
class FactPhrases:
    state: tuple[str, ...]
    mention: tuple[str, ...]
    ask: tuple[str, ...]
    refer: tuple[str, ...]
    echo: tuple[str, ...]


@dataclass(frozen=True)
class DerivedPhrases:
    ask: tuple[str, ...]
    refer: tuple[str, ...]


@dataclass(frozen=True)
class ThreadTurn:
    user: tuple[str, ...]
    assistant: tuple[str, ...]


@dataclass(frozen=True)
class Thread:
    id: str
    about: tuple[str, ...]
    turns: tuple[ThreadTurn, ...]


@dataclass(frozen=True)
class Decoy:
    user: str
    assistant: str


@dataclass(frozen=True)
class RequestPhrases:
    #: request type -> style (direct, indirect, backref, except) -> lines
    styles: dict[RequestType, dict[str, tuple[str, ...]]]
    confirm: dict[RequestType, tuple[str, ...]]
    categories: dict[str, tuple[str, ...]]
    #: window kind (date, relative, weekday, event) -> lines
    windows: dict[str, tuple[str, ...]]
    embed_before: tuple[str, ...]
    embed_after: tuple[str, ...]
    decoys: tuple[Decoy, ...]
    #: a fact named by the conversation it came up in ("what I said about {ref} while we
    #: were on {about}"): requests that refer back by event
    refer_event: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bank:
    split: str
    facts: dict[str, FactPhrases]
    derived: dict[str, DerivedPhrases]
    threads: tuple[Thread, ...]
    requests: RequestPhrases
    #: assistant side: short acknowledgements of a personal detail, reply openers, closers
    acks: tuple[str, ...]
    openers: tuple[str, ...]
    closers: tuple[str, ...]

    def lines(self) -> list[str]:
        """Every line of the bank (for disjointness and size figures)."""
        out: list[str] = []
        for f in self.facts.values():
            out += [*f.state, *f.mention, *f.ask, *f.refer, *f.echo]
        for d in self.derived.values():
            out += [*d.ask, *d.refer]
        for t in self.threads:
            for turn in t.turns:
                out += [*turn.user, *turn.assistant]
        r = self.requests
        for styles in r.styles.values():
            for lines in styles.values():
                out += lines
        for lines in (*r.confirm.values(), *r.categories.values(), *r.windows.values(), r.refer_event):
            out += lines
        out += [d.user for d in r.decoys]
        return out


#: minimum counts per list (the bank's documented shape; docs/generator.md)
FACT_MINIMUMS = {"state": 4, "mention": 3, "ask": 3, "refer": 3, "echo": 2}
_FACT_SLOTS = {"state": {"v"}, "mention": {"v"}, "ask": set(), "refer": set(), "echo": {"v"}}
_REQUEST_SLOTS = {
    RequestType.F1: {"direct": {"ref"}, "indirect": {"ref"}, "backref": set()},
    RequestType.F2: {"direct": {"list"}, "indirect": {"list"}},
    RequestType.F3: {"direct": {"category"}, "indirect": {"category"}, "except": {"category", "keep"}},
    RequestType.F4: {"direct": {"about"}, "indirect": {"about"}},
    RequestType.F5: {"direct": {"window"}, "indirect": {"window"}},
    RequestType.F6: {"direct": {"ref", "new"}, "indirect": {"ref", "new"}},
}
_WINDOW_SLOTS = {"date": ({"date"}, {"daypart"}), "relative": ({"ago"}, set()),
                 "weekday": ({"weekday"}, {"daypart"}), "event": ({"about"}, set())}


def _slots(line: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(line) if name is not None]


def _strings(where: str, value: object, minimum: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(x, str) and x.strip() for x in value):
        raise BankError(f"{where}: must be a list of non-empty strings")
    if len(value) < minimum:
        raise BankError(f"{where}: needs at least {minimum} lines, has {len(value)}")
    return tuple(x.strip() for x in value)


def _check_slots(where: str, lines: tuple[str, ...], required: Set[str], optional: Set[str] = frozenset(),
                 *, repeat: bool = False) -> None:
    for k, line in enumerate(lines):
        try:
            names = _slots(line)
        except ValueError as exc:
            raise BankError(f"{where}[{k}]: bad braces in {line!r}: {exc}") from None
        unknown = set(names) - required - optional
        missing = required - set(names)
        if unknown or missing:
            raise BankError(f"{where}[{k}]: slots must be {sorted(required)} (optional {sorted(optional)}); "
                            f"found {names} in {line!r}")
        if not repeat and any(names.count(n) > 1 for n in required):
            raise BankError(f"{where}[{k}]: a slot appears twice in {line!r}")


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BankError(f"{path}: not valid TOML: {exc}") from None


def load_fact_file(path: Path, category: str) -> dict[str, FactPhrases]:
    """One category's fact phrasings, every attribute of the category present and checked."""
    attrs = [a for a in ATTRIBUTES if a.category == category]
    data = _read(path)
    extra = set(data) - {a.key for a in attrs}
    if extra:
        raise BankError(f"{path}: unknown attribute(s) {sorted(extra)} (not in category {category!r})")
    out: dict[str, FactPhrases] = {}
    for a in attrs:
        entry = data.get(a.key)
        if not isinstance(entry, dict):
            raise BankError(f"{path}: [{a.key}] is missing")
        lists = {}
        for name, minimum in FACT_MINIMUMS.items():
            where = f"{path}: [{a.key}].{name}"
            lines = _strings(where, entry.get(name), minimum)
            _check_slots(where, lines, _FACT_SLOTS[name])
            lists[name] = lines
        out[a.key] = FactPhrases(**lists)
    return out


def _load_facts(folder: Path) -> tuple[dict[str, FactPhrases], dict[str, DerivedPhrases]]:
    facts: dict[str, FactPhrases] = {}
    derived: dict[str, DerivedPhrases] = {}
    by_category = {c.key: [a for a in ATTRIBUTES if a.category == c.key] for c in CATEGORIES}
    for category in by_category:
        path = folder / f"{category}.toml"
        if not path.is_file():
            raise BankError(f"{path}: missing (one file per catalog category)")
        facts.update(load_fact_file(path, category))
    path = folder / "derived.toml"
    data = _read(path) if path.is_file() else {}
    for t in (*DERIVED_TEMPLATES, *NATURAL_DERIVED_TEMPLATES):
        entry = data.get(t.key)
        if not isinstance(entry, dict):
            raise BankError(f"{path}: [{t.key}] is missing")
        ask = _strings(f"{path}: [{t.key}].ask", entry.get("ask"), 3)
        refer = _strings(f"{path}: [{t.key}].refer", entry.get("refer"), 3)
        _check_slots(f"{path}: [{t.key}].ask", ask, set())
        _check_slots(f"{path}: [{t.key}].refer", refer, set())
        derived[t.key] = DerivedPhrases(ask, refer)
    return facts, derived


def _load_threads(folder: Path) -> tuple[Thread, ...]:
    threads: list[Thread] = []
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise BankError(f"{folder}: no thread files")
    for path in files:
        threads.extend(load_thread_file(path))
    ids = [t.id for t in threads]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise BankError(f"{folder}: thread ids used twice: {dupes}")
    return tuple(threads)


def load_thread_file(path: Path) -> list[Thread]:
    """One file's threads, checked (slots, at least two turns, an id and an `about`)."""
    threads: list[Thread] = []
    for i, raw in enumerate(_read(path).get("thread", [])):
        where = f"{path}: thread[{i}]"
        tid = raw.get("id")
        if not isinstance(tid, str) or not tid:
            raise BankError(f"{where}: needs an id")
        about = _strings(f"{where}.about", raw.get("about"), 1)
        turns = []
        for k, t in enumerate(raw.get("turn", [])):
            user = _strings(f"{where}.turn[{k}].user", t.get("user"), 1)
            assistant = _strings(f"{where}.turn[{k}].assistant", t.get("assistant"), 1)
            _check_slots(f"{where}.turn[{k}].user", user, set(), {"daypart"})
            _check_slots(f"{where}.turn[{k}].assistant", assistant, set())
            turns.append(ThreadTurn(user, assistant))
        if len(turns) < 2:
            raise BankError(f"{where} ({tid}): needs at least two turns")
        threads.append(Thread(tid, about, tuple(turns)))
    return threads


def _load_requests(path: Path) -> RequestPhrases:
    data = _read(path)
    styles: dict[RequestType, dict[str, tuple[str, ...]]] = {}
    for rtype, kinds in _REQUEST_SLOTS.items():
        table = data.get(rtype.value)
        if not isinstance(table, dict):
            raise BankError(f"{path}: [{rtype.value}] is missing")
        styles[rtype] = {}
        for kind, required in kinds.items():
            where = f"{path}: [{rtype.value}].{kind}"
            lines = _strings(where, table.get(kind), 3)
            _check_slots(where, lines, required, repeat=rtype == RequestType.F6)
            styles[rtype][kind] = lines
    confirm: dict[RequestType, tuple[str, ...]] = {}
    for rtype in RequestType:
        where = f"{path}: [confirm].{rtype.value}"
        lines = _strings(where, data.get("confirm", {}).get(rtype.value), 3)
        _check_slots(where, lines, set(), {"new"} if rtype == RequestType.F6 else set())
        confirm[rtype] = lines
    categories = {}
    for c in CATEGORIES:
        where = f"{path}: [categories].{c.key}"
        categories[c.key] = _strings(where, data.get("categories", {}).get(c.key), 2)
        _check_slots(where, categories[c.key], set())
    windows = {}
    for kind, (required, optional) in _WINDOW_SLOTS.items():
        where = f"{path}: [windows].{kind}"
        windows[kind] = _strings(where, data.get("windows", {}).get(kind), 2)
        _check_slots(where, windows[kind], required, optional)
    embed = data.get("embed", {})
    before = _strings(f"{path}: [embed].before", embed.get("before"), 3)
    after = _strings(f"{path}: [embed].after", embed.get("after"), 3)
    refer_event = _strings(f"{path}: [refer].event", data.get("refer", {}).get("event"), 3)
    _check_slots(f"{path}: [refer].event", refer_event, {"ref", "about"})
    decoys = []
    for i, d in enumerate(data.get("decoy", [])):
        if not (isinstance(d, dict) and isinstance(d.get("user"), str) and isinstance(d.get("assistant"), str)):
            raise BankError(f"{path}: decoy[{i}] needs user and assistant strings")
        decoys.append(Decoy(d["user"].strip(), d["assistant"].strip()))
    if len(decoys) < 5:
        raise BankError(f"{path}: needs at least 5 [[decoy]] entries, has {len(decoys)}")
    return RequestPhrases(styles, confirm, categories, windows, before, after, tuple(decoys), refer_event)


def _load_assistant(path: Path) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    data = _read(path)
    acks = _strings(f"{path}: acks", data.get("acks"), 5)
    openers = _strings(f"{path}: openers", data.get("openers"), 5)
    closers = _strings(f"{path}: closers", data.get("closers"), 5)
    for name, lines in (("acks", acks), ("openers", openers), ("closers", closers)):
        _check_slots(f"{path}: {name}", lines, set())
    return acks, openers, closers


@lru_cache(maxsize=4)
def load_bank(split: str, root: Path = BANKS_DIR) -> Bank:
    if split not in SPLITS:
        raise BankError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    folder = root / split
    if not folder.is_dir():
        raise BankError(f"{folder}: the {split} bank is missing")
    facts, derived = _load_facts(folder / "facts")
    acks, openers, closers = _load_assistant(folder / "assistant.toml")
    return Bank(split, facts, derived, _load_threads(folder / "threads"), _load_requests(folder / "requests.toml"),
                acks, openers, closers)


def shared_lines(a: Bank, b: Bank) -> list[str]:
    """Lines both banks contain (after case and space folding): must be none."""
    theirs = {squash(x) for x in b.lines()}
    return sorted({x for x in a.lines() if squash(x) in theirs})
