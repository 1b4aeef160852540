"""The hand-written bank files in the package parse and keep their format.

Checked file by file, so a bank that is still being written is held to its format for the
files it has; `load_bank` itself refuses a bank with a missing file (test_edition2)."""

from __future__ import annotations

import pytest

from bemula.generate.catalog import CATEGORIES
from bemula.generate.natural.bank import BANKS_DIR, SPLITS, load_fact_file, load_thread_file
from bemula.generate.natural.voice import load_personas

CATEGORY_KEYS = {c.key for c in CATEGORIES}
FACT_FILES = sorted(p for s in SPLITS for p in (BANKS_DIR / s / "facts").glob("*.toml") if p.stem in CATEGORY_KEYS)
THREAD_FILES = sorted(p for s in SPLITS for p in (BANKS_DIR / s / "threads").glob("*.toml"))


@pytest.mark.parametrize("path", FACT_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_fact_file(path) -> None:
    assert load_fact_file(path, path.stem)


@pytest.mark.parametrize("path", THREAD_FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_thread_file(path) -> None:
    threads = load_thread_file(path)
    assert threads and all(len(t.turns) >= 2 for t in threads)


def test_personas_parse_and_cover_a_dozen_voices() -> None:
    personas = load_personas()
    assert len(personas) >= 12 and len({p.register for p in personas}) == len(personas)
