"""Judges by name: ``rules``, ``llm``, ``cascade``, and any a package adds through the
``bemula.judges`` entry-point group (``bemula.registry``).

A judge's factory takes a ``JudgeContext`` — the LLM client when the judge needs one — and
returns a ``Judge`` (``judge.base``). ``open_judge`` opens the client an LLM judge needs and
hands back the judge; ``judge_folder`` (``judge.pipeline``) and ``bemula judge`` use it, so a
judge added by a package works everywhere a built-in one does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bemula.judge.base import Judge
from bemula.registry import Entry, Registry

if TYPE_CHECKING:  # pragma: no cover
    from bemula.llm.client import LLMClient

#: ``Entry.needs`` of a judge that calls an LLM
NEEDS_LLM = "an LLM"


@dataclass(frozen=True)
class JudgeContext:
    """What a judge factory gets: the LLM client (``None`` for judges that need none)."""

    llm: LLMClient | None = None
    #: the endpoint decodes under a JSON schema (the embedded llama.cpp server does)
    structured: bool = False
    options: dict[str, Any] = field(default_factory=dict)


JudgeFactory = Callable[[JudgeContext], Judge]
JudgeEntry = Entry[JudgeFactory]


def _rules(context: JudgeContext) -> Judge:
    from bemula.judge.rules import RuleJudge

    return RuleJudge()


def _llm(context: JudgeContext) -> Judge:
    from bemula.judge.llm import LLMJudge

    assert context.llm is not None, "the llm judge needs an LLM client"
    return LLMJudge(context.llm, structured=context.structured)


def _cascade(context: JudgeContext) -> Judge:
    from bemula.judge.cascade import CascadeJudge

    return CascadeJudge(_llm(context))  # type: ignore[arg-type]


def _load_builtins() -> None:
    for name, factory, needs, description in (
        ("rules", _rules, "nothing", "deterministic rules: gold values, protected values, refusals (docs/judging.md)"),
        ("llm", _llm, NEEDS_LLM, "an LLM reads question, gold and answer and returns a JSON verdict"),
        ("cascade", _cascade, NEEDS_LLM, "the rules decide clear cases, the LLM the rest"),
    ):
        JUDGES.add(Entry(name=name, factory=factory, needs=needs, description=description))


def _adopt(name: str, obj: object, source: str) -> JudgeEntry:
    """An entry point of group ``bemula.judges``: an ``Entry`` or a factory function (whose
    ``needs`` attribute, if any, says "an LLM")."""
    if isinstance(obj, Entry):
        return obj if obj.name == name else Entry(**{**obj.__dict__, "name": name})
    if callable(obj):
        doc = (getattr(obj, "__doc__", "") or "").strip().splitlines()
        return Entry(name=name, factory=obj, needs=str(getattr(obj, "needs", "nothing")),
                     description=doc[0] if doc else "", source=source)
    raise TypeError(f"entry point {name!r} is {type(obj).__name__}, not a judge factory")


#: every judge ``bemula judge --judge NAME`` accepts
JUDGES: Registry[JudgeFactory] = Registry("judge", "bemula.judges", load_builtins=_load_builtins, adopt=_adopt)


def needs_llm(name: str) -> bool:
    return JUDGES.get(name).needs == NEEDS_LLM


@contextmanager
def open_judge(
    name: str,
    *,
    backbone: str = "local",
    model: str | None = None,
    base_url: str | None = None,
    llm_cache: Path | None = None,
    llm_options: dict[str, Any] | None = None,
) -> Iterator[Judge]:
    """The judge ``name``, with an LLM client open for as long as the block runs when it
    needs one (``backbone``: local = the embedded model, openai = any endpoint)."""
    entry = JUDGES.get(name)
    if not entry.available or entry.factory is None:
        raise KeyError(f"judge {name!r} is not installed: {entry.install_hint}")
    if entry.needs != NEEDS_LLM:
        yield entry.factory(JudgeContext())
        return
    from bemula.llm.backends import open_llm

    with open_llm(backbone, model=model, base_url=base_url, cache_path=llm_cache, **(llm_options or {})) as client:
        yield entry.factory(JudgeContext(llm=client, structured=backbone == "local"))


def describe_judge(judge: Judge) -> str:
    """The counters a judge keeps (LLM judges: model, unparseable replies, failed calls), as
    one clause for summaries; "" for judges that keep none."""
    counts = getattr(judge, "counts", None)
    return counts() if callable(counts) else ""
