"""Memory systems: the protocol (``base``), built-in systems and adapters, one module each.

To add a system: write ``bemula/systems/<name>.py`` with a ``@register``-ed
``MemorySystem`` subclass and add the module to ``BUILTIN_MODULES``. Modules for optional
third-party packages call ``register_unavailable`` when their package is missing.
"""

from __future__ import annotations

import importlib
import os

BUILTIN_MODULES: tuple[str, ...] = (
    "bemula.systems.full_context",
    "bemula.systems.naive_rag",
    "bemula.systems.erasemem",
    "bemula.systems.baselines",
    "bemula.systems.adapters.mem0",
    "bemula.systems.adapters.mem0_current",
    "bemula.systems.adapters.simplemem",
    "bemula.systems.adapters.amem",
    "bemula.systems.adapters.langmem",
    "bemula.systems.adapters.lightmem",
    "bemula.systems.adapters.graphiti",
    "bemula.systems.adapters.cognee",
)

_loaded = False

#: Comma-separated modules that register more systems (a system outside bemula, e.g.
#: ``BEMULA_SYSTEM_MODULES=my_pkg.my_memory``); imported in every worker process too.
EXTRA_MODULES_ENV = "BEMULA_SYSTEM_MODULES"


def extra_system_modules() -> tuple[str, ...]:
    raw = os.environ.get(EXTRA_MODULES_ENV, "")
    return tuple(m.strip() for m in raw.split(",") if m.strip())


def load_builtin_systems() -> None:
    global _loaded
    if _loaded:
        return
    for module in BUILTIN_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            # a module not written yet, or its optional package missing, is not an error
            if exc.name and (exc.name == module or not exc.name.startswith("bemula")):
                continue
            raise
    for module in extra_system_modules():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            raise ModuleNotFoundError(f"{EXTRA_MODULES_ENV}: cannot import {module!r} ({exc})") from None
    _loaded = True
