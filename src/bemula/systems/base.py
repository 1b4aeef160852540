"""The memory-system protocol (SPEC §2): what the harness may ask of a memory system.

A system sees exactly what a live agent sees — role, text, session id, timestamp — one
turn at a time, and never the dataset's annotations (fact ids, request ids, gold). Any
deletion must be the system's *own* response to the dialogue: the harness never edits a
store. Adding a system = one module with a ``MemorySystem`` subclass + ``@register`` (or,
outside bemula, an entry point in the ``bemula.systems`` group: ``bemula.registry``).
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from bemula.registry import Entry, NoOptions, Registry

if TYPE_CHECKING:  # pragma: no cover
    from bemula.index.base import TextIndex
    from bemula.llm.client import LLMClient


@dataclass(frozen=True)
class TurnEvent:
    """One dialogue turn as a live agent sees it. Deliberately has no annotation fields."""

    role: str  # "user" | "assistant"
    text: str
    session_id: str
    timestamp: datetime


@dataclass(frozen=True)
class RetrievedItem:
    """One piece of memory handed to the answering backbone."""

    text: str
    score: float = 0.0
    store: str = ""  # which store it came from, e.g. "turns", "facts"
    id: str = ""
    timestamp: datetime | None = None


@dataclass
class StoreRecord:
    """One entry of one store, as text, for the residue audit (``dump()``)."""

    store: str
    id: str
    text: str


_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


@dataclass
class SystemContext:
    """What the harness gives a system at construction.

    ``llm`` is the backbone's client when the run has an LLM backbone, else ``None`` (the
    offline default): a system that needs an LLM must raise ``SystemUnavailable`` then, or
    have a deterministic path.
    """

    workdir: Path
    llm: LLMClient | None = None
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    context_window_tokens: int | None = None  # the backbone's window, for full-context
    #: the run's one text-index kind for every system ("bm25" offline default, or "dense")
    index_kind: str = "bm25"

    def make_index(self) -> TextIndex:
        """A fresh, empty index of the run's kind (SPEC §2: one embedding model for all)."""
        from bemula.index import make_index

        return make_index(self.index_kind)

    def flag(self, key: str, default: bool) -> bool:
        """An on/off option, strictly parsed.

        Options reach a system as the CLI typed them (``-o llm_hook=false`` gives the string
        "false", which Python would treat as true), so every spelling is read here, in one
        place; anything that is not clearly on or off is an error, not a guess.
        """
        value = self.options.get(key, default)
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float)) and value in (0, 1):
            return bool(value)
        text = str(value).strip().lower()
        if text in _TRUE_WORDS:
            return True
        if text in _FALSE_WORDS:
            return False
        raise ValueError(f"option {key}={value!r}: expected one of true/false, 1/0, yes/no, on/off")


class SystemOptions(BaseModel):
    """Base of a system's options model: unknown keys are errors (``-o topk=1`` is a typo,
    not a silent default). Values arrive as the CLI typed them and are coerced here."""

    model_config = ConfigDict(extra="forbid")


class TopKOptions(SystemOptions):
    top_k: int = Field(default=10, ge=1, description="how many items retrieve() returns")


class SystemUnavailable(RuntimeError):
    """The system cannot run here (package missing, needs an LLM...); message says how to fix."""


class MemorySystem(abc.ABC):
    """Base class of every memory system.

    Lifecycle per instance × version: ``reset()``; for each session, ``ingest()`` every
    turn, then ``end_session()``; then ``retrieve()`` once per question (each question is a
    fresh session: a system must not treat questions as dialogue to remember); ``dump()``
    for the audit; ``close()``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: True when ``fork()`` returns an independent copy (used to share the forget/control prefix)
    supports_fork: ClassVar[bool] = False
    #: True when the system needs an LLM client (cannot run on the retrieval probe alone)
    requires_llm: ClassVar[bool] = False
    #: what it needs to run, for ``bemula systems`` ("" = derived from ``requires_llm``)
    needs: ClassVar[str] = ""
    #: the options it accepts (``-o KEY=VALUE``): a pydantic model that rejects unknown keys
    Options: ClassVar[type[BaseModel]] = NoOptions
    #: scheduling hints for executors (``num_cpus``, ``memory_gb``)
    resources: ClassVar[dict[str, float]] = {}

    def __init__(self, context: SystemContext) -> None:
        self.context = context

    @classmethod
    def package_version(cls) -> str:
        """The version of the third-party package behind the system ("" for built-ins)."""
        return ""

    @abc.abstractmethod
    def reset(self) -> None:
        """Forget everything: a fresh, empty memory."""

    @abc.abstractmethod
    def ingest(self, turn: TurnEvent) -> None:
        """See one dialogue turn, live."""

    def end_session(self, session_id: str) -> None:  # noqa: B027 - optional hook
        """The session ``session_id`` has ended (systems that consolidate per session act here)."""

    @abc.abstractmethod
    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        """What the system gives the backbone for ``question``, asked in a fresh session."""

    @abc.abstractmethod
    def dump(self) -> list[StoreRecord]:
        """Every store's content as text: raw turns, facts, notes, summaries, histories,
        the text behind vectors, caches. The audit searches this for forgotten values."""

    def fork(self) -> MemorySystem:
        """An independent copy of the current state (only if ``supports_fork``)."""
        raise NotImplementedError(f"{self.name} does not support fork()")

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release files, processes, connections."""

    def stats(self) -> dict[str, Any]:
        """Optional counters the runner records (LLM calls, store sizes, receipts...)."""
        return {}


SystemFactory = Callable[[SystemContext], MemorySystem]

#: a registered system: ``factory`` is the ``MemorySystem`` subclass (None when not installed)
SystemInfo = Entry[type[MemorySystem]]


def _load_builtins() -> None:
    from bemula.systems import load_builtin_systems

    load_builtin_systems()


def _adopt(name: str, obj: object, source: str) -> SystemInfo:
    """An entry point of group ``bemula.systems``: a ``MemorySystem`` subclass (a module that
    registers its systems on import is accepted too: its systems are already added)."""
    if isinstance(obj, type) and issubclass(obj, MemorySystem):
        if obj.name and obj.name != name:
            raise ValueError(f"entry point {name!r} names a system called {obj.name!r}")
        return _entry(obj, name=name, source=source)
    if SYSTEMS.entries_added_by(obj):
        return SYSTEMS.get_raw(name)
    raise TypeError(f"entry point {name!r} is {type(obj).__name__}, not a MemorySystem subclass")


class _SystemRegistry(Registry[type[MemorySystem]]):
    def entries_added_by(self, module: object) -> bool:
        module_name = getattr(module, "__name__", None)
        return any(
            e.factory is not None and e.factory.__module__ == module_name for e in self._entries.values()
        )

    def get_raw(self, name: str) -> SystemInfo:
        return self._entries[name]


#: every memory system bemula can run (``bemula systems`` lists it)
SYSTEMS = _SystemRegistry("system", "bemula.systems", load_builtins=_load_builtins, adopt=_adopt)


def _entry(cls: type[MemorySystem], *, name: str | None = None, source: str = "bemula") -> SystemInfo:
    return Entry(
        name=name or cls.name,
        description=cls.description,
        factory=cls,
        available=True,
        needs=cls.needs or ("an LLM backbone" if cls.requires_llm else "nothing"),
        version=cls.package_version(),
        options=cls.Options,
        source=source,
        resources=dict(cls.resources),
    )


def register(cls: type[MemorySystem]) -> type[MemorySystem]:
    """Class decorator: make ``cls`` runnable as ``bemula run --system <cls.name>``."""
    if not cls.name:
        raise ValueError(f"{cls.__qualname__} has no name")
    SYSTEMS.add(_entry(cls))
    return cls


def register_unavailable(name: str, description: str, install_hint: str, needs: str = "") -> None:
    """List a system whose package is not installed, with how to install it."""
    SYSTEMS.add(Entry(name=name, description=description, factory=None, available=False,
                      needs=needs or install_hint, install_hint=install_hint))


def registry() -> dict[str, SystemInfo]:
    return SYSTEMS.entries()


def create_system(name: str, context: SystemContext) -> MemorySystem:
    info = SYSTEMS.get(name)
    if not info.available or info.factory is None:
        raise SystemUnavailable(f"system {name!r} is not installed: {info.install_hint}")
    return info.factory(context)
