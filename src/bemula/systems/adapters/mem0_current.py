"""``mem0-current``: the newest ``mem0ai`` the registry serves (2.2.x), beside the paper's 1.0.x.

What changed in 2.x, and why it matters for forgetting: ``Memory.add`` makes **one** LLM call,
an additive extraction ("Your sole operation is ADD"). There is no update prompt and so no
UPDATE/DELETE decision in dialogue — a forget request is just another message to extract
memories from, and a careful model following that prompt records the request itself ("User
asked to forget their penicillin allergy"), value included. Deleting is only
``Memory.delete(id)``, which the harness never calls (SPEC §2). 2.x also keeps every raw
message in its SQLite ``messages`` table (the last ten per session feed the next extraction)
and, with its optional spaCy extra, an entity collection linked to memories; both are
dumped for the audit. spaCy and its ``en_core_web_sm`` model are not installed (the model is
not on the registry and mem0 would download it at run time), so entity linking and BM25
lemmatisation are off — mem0 falls back to plain semantic search, as it logs.

Same distribution as 1.x, so it cannot share an environment with ``bemula[mem0]``: install
``bemula[mem0-current]`` in its own (``docs/systems.md``). The stores, the fork and the dump
are the 1.x adapter's (``Mem0System``); this module changes what differs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bemula.systems.adapters.common import package_version
from bemula.systems.adapters.mem0 import DISTRIBUTION, USER_ID, Mem0System
from bemula.systems.base import StoreRecord, register, register_unavailable

PINNED_VERSION = "2.2.1"
SUPPORTED_SERIES = "2.2."
INSTALL_HINT = (
    "pip install 'bemula[mem0-current]'  (mem0ai==2.2.1) in its own environment: it is the same "
    "distribution as mem0 1.0.x (docs/systems.md)"
)
DESCRIPTION = "Mem0 (mem0ai 2.2.x, current): one additive LLM extraction per add, no in-dialogue delete; Qdrant + SQLite"
NEEDS = "LLM backbone + embeddings"
#: mem0 2.x's entity collection (``<collection>_entities``), filled only with spaCy installed
ENTITY_STORE = "mem0.entities"


class Mem0CurrentSystem(Mem0System):
    """mem0 2.2.x fed one exchange (user turn + assistant reply) per ``Memory.add``.

    Options: ``top_k`` (memories per question; default: mem0 2.x's own ``search`` default,
    20), ``embedding_base_url`` / ``embedding_model`` / ``embedding_dims`` (see ``common``).
    """

    name: ClassVar[str] = "mem0-current"
    description: ClassVar[str] = DESCRIPTION
    needs: ClassVar[str] = NEEDS

    def _search_kwargs(self) -> dict[str, Any]:
        # 2.x scopes a search by ``filters`` (a top-level user_id is an error) and calls the
        # result count ``top_k``
        kwargs: dict[str, Any] = {"filters": {"user_id": USER_ID}}
        if self.top_k is not None:
            kwargs["top_k"] = self.top_k
        return kwargs

    def dump(self) -> list[StoreRecord]:
        """The 1.x dump (vectors, every SQLite table — here also ``messages``, the raw
        dialogue — and turns not yet added) plus the entity collection when it exists."""
        records = super().dump()
        store = self._memory.vector_store
        entities = f"{store.collection_name}_entities"
        if store.client.collection_exists(entities):
            records += self._collection_records(entities, ENTITY_STORE)
        return records

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "mem0_series": "2.x (additive)"}


def _register() -> None:
    version = package_version(DISTRIBUTION)
    if version.startswith(SUPPORTED_SERIES):
        register(Mem0CurrentSystem)
    elif version.startswith("1.0."):
        register_unavailable(
            "mem0-current",
            DESCRIPTION,
            f"this environment has mem0ai {version} (the paper's, `mem0`): {INSTALL_HINT}",
            needs=NEEDS,
        )
    elif version:
        register_unavailable("mem0-current", DESCRIPTION, f"installed mem0ai {version} is not 2.2.x: {INSTALL_HINT}", needs=NEEDS)
    else:
        register_unavailable("mem0-current", DESCRIPTION, INSTALL_HINT, needs=NEEDS)


_register()
