"""One registry pattern for everything a user can add: systems, backbones, judges, metrics.

Each kind has a ``Registry``: name → ``Entry`` (a factory, whether it can run here, how to
install it, what it needs, and a pydantic model of its options that rejects unknown keys).
Built-ins register when their module is imported; a third-party package adds its own by
declaring an entry point in the kind's group and being installed — no change to bemula::

    [project.entry-points."bemula.systems"]
    my-memory = "my_pkg.memory:MyMemory"     # a MemorySystem subclass

    [project.entry-points."bemula.judges"]
    strict = "my_pkg.judges:strict_judge"    # a JudgeEntry (or a factory function)

    [project.entry-points."bemula.metrics"]
    LEAK = "my_pkg.metrics:LEAK"             # a Metric

The entry point's object is handed to the kind's ``adopt`` function, which turns it into an
``Entry`` (each kind knows what its objects look like). A broken entry point does not break
bemula: it is listed as unavailable, with the import error as its install hint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from importlib import metadata
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

T = TypeVar("T")


class NoOptions(BaseModel):
    """The options model of something that takes none: any key is an error."""

    model_config = ConfigDict(extra="forbid")


class OptionsError(ValueError):
    """Options a component does not accept; the message is one line naming the component,
    the key and the accepted keys."""


@dataclass(frozen=True)
class Entry(Generic[T]):
    """One registered component."""

    name: str
    factory: T | None
    description: str = ""
    available: bool = True
    #: what it needs to run, in words ("nothing", "an LLM backbone", "pip install bemula[mem0]")
    needs: str = ""
    install_hint: str = ""
    version: str = ""
    options: type[BaseModel] = NoOptions
    #: where it came from: "bemula", or the distribution that declared the entry point
    source: str = "bemula"
    #: scheduling hints for executors (``num_cpus``, ``memory_gb``)
    resources: dict[str, float] = field(default_factory=dict)
    #: what the stages need to know about it, as words, not its name (a backbone's "llm")
    tags: frozenset[str] = frozenset()

    def validate_options(self, options: dict[str, Any]) -> BaseModel:
        """``options`` checked against the entry's model; unknown keys and bad values raise
        ``OptionsError`` (one line)."""
        try:
            return self.options.model_validate(options)
        except ValidationError as exc:
            raise OptionsError(describe_options_error(self.name, self.options, exc)) from None


def describe_options_error(name: str, model: type[BaseModel], exc: ValidationError) -> str:
    known = ", ".join(sorted(model.model_fields)) or "none"
    problems = []
    for error in exc.errors():
        key = ".".join(str(p) for p in error["loc"])
        if error["type"] == "extra_forbidden":
            problems.append(f"unknown option {key!r}")
        else:
            problems.append(f"option {key}={error.get('input')!r}: {error['msg']}")
    return f"{name}: {'; '.join(problems)} (accepted: {known})"


class Registry(Generic[T]):
    """Name → ``Entry`` for one kind of component.

    ``load_builtins`` imports bemula's own modules (which call ``add``); ``adopt`` turns an
    entry point's object into an ``Entry``. Both run once, on first use.
    """

    def __init__(
        self,
        kind: str,
        group: str,
        *,
        load_builtins: Callable[[], None] | None = None,
        adopt: Callable[[str, Any, str], Entry[T]] | None = None,
    ) -> None:
        self.kind = kind
        self.group = group
        self._entries: dict[str, Entry[T]] = {}
        self._load_builtins = load_builtins
        self._adopt = adopt
        self._loaded = False
        self._loading = False

    # -- adding -----------------------------------------------------------------------------
    def add(self, entry: Entry[T], *, replace_unavailable: bool = True) -> Entry[T]:
        """Register ``entry``; a second, different entry under one name is an error (an
        unavailable placeholder is replaced by the real thing)."""
        old = self._entries.get(entry.name)
        if old is not None and old.factory is not entry.factory:
            if not (replace_unavailable and not old.available):
                if not entry.available:
                    return old  # a placeholder never hides a real entry
                raise ValueError(f"{self.kind} name {entry.name!r} registered twice ({old.source}, {entry.source})")
        self._entries[entry.name] = entry
        return entry

    def remove(self, name: str) -> None:
        self._entries.pop(name, None)

    # -- reading ----------------------------------------------------------------------------
    def _ensure_loaded(self) -> None:
        if self._loaded or self._loading:
            return
        self._loading = True
        try:
            if self._load_builtins is not None:
                self._load_builtins()
            self._load_entry_points()
            self._loaded = True
        finally:
            self._loading = False

    def _load_entry_points(self) -> None:
        for point in metadata.entry_points(group=self.group):
            source = point.dist.name if point.dist is not None else "?"
            try:
                obj = point.load()
                entry = self._adopt(point.name, obj, source) if self._adopt else None
            except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break bemula
                self.add(Entry(name=point.name, factory=None, available=False, source=source,
                               install_hint=f"entry point {point.value!r} of {source} failed to load: {exc}",
                               needs=f"a working {source}"))
                continue
            if entry is not None:
                self.add(replace(entry, source=source) if entry.source == "bemula" else entry)

    def entries(self) -> dict[str, Entry[T]]:
        self._ensure_loaded()
        return dict(self._entries)

    def __contains__(self, name: object) -> bool:
        self._ensure_loaded()
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries())

    def get(self, name: str) -> Entry[T]:
        """The entry ``name``; ``KeyError`` with a one-line message listing the known names."""
        entries = self.entries()
        if name not in entries:
            raise KeyError(f"unknown {self.kind} {name!r}; known: {', '.join(sorted(entries)) or 'none'}")
        return entries[name]
