"""The adapters' shared pieces: exchange buffering, SQLite dumps, endpoint settings."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from bemula.systems.adapters.common import ExchangeBuffer, chat_endpoint, embedding_endpoint, sqlite_records
from bemula.systems.base import SystemContext, SystemUnavailable, TurnEvent

T0 = datetime(2026, 3, 2, 9, 0)


def _t(role: str, text: str) -> TurnEvent:
    return TurnEvent(role=role, text=text, session_id="S01", timestamp=T0)


def test_exchange_is_handed_over_when_the_next_user_turn_arrives() -> None:
    buffer = ExchangeBuffer()
    assert buffer.push(_t("user", "u1")) is None
    assert buffer.push(_t("assistant", "a1")) is None
    assert buffer.push(_t("assistant", "a1b")) is None  # two replies stay in one exchange
    ready = buffer.push(_t("user", "u2"))
    assert [t.text for t in ready] == ["u1", "a1", "a1b"]
    # two user turns in a row are one exchange too
    assert buffer.push(_t("user", "u3")) is None
    assert [r.text for r in buffer.records("pending")] == ["user: u2", "user: u3"]
    assert [t.text for t in buffer.flush()] == ["u2", "u3"]
    assert buffer.flush() is None


def test_sqlite_records_show_every_row_of_every_table(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE history (id TEXT, old_memory TEXT, new_memory TEXT, event TEXT)")
        db.execute("INSERT INTO history VALUES ('h1', 'allergic to penicillin', NULL, 'DELETE')")
        db.execute("CREATE TABLE notes (body TEXT)")
        db.execute("INSERT INTO notes VALUES ('likes tea')")
    db.close()
    records = sqlite_records(path, "x")
    assert [(r.store, r.id) for r in records] == [("x.history", "h1"), ("x.notes", "0")]
    assert records[0].text == "id=h1 | old_memory=allergic to penicillin | event=DELETE"
    assert sqlite_records(tmp_path / "missing.db", "x") == []


def test_a_system_without_backbone_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(SystemUnavailable, match="needs an LLM backbone"):
        chat_endpoint(SystemContext(workdir=tmp_path), "mem0")


def test_embedding_dims_are_probed_from_the_endpoint(context: SystemContext, scripted) -> None:
    server, _ = scripted
    settings = embedding_endpoint(context, "mem0")
    assert settings.base_url == server.base_url
    assert settings.dims == server.embedding_dim == 64
    configured = embedding_endpoint(
        dataclasses.replace(context, options={**context.options, "embedding_dims": 12, "embedding_model": "m"}),
        "mem0",
    )
    assert (configured.dims, configured.model) == (12, "m")


def test_without_an_endpoint_the_runs_local_model_is_served(tmp_path: Path, monkeypatch) -> None:
    import openai

    monkeypatch.setenv("BEMULA_EMBEDDER", "hashing")  # the weightless model: no weights needed
    monkeypatch.delenv("BEMULA_EMBED_BASE_URL", raising=False)
    from bemula.systems.adapters import embedding_server

    monkeypatch.setattr(embedding_server, "_SERVER", None)
    settings = embedding_endpoint(SystemContext(workdir=tmp_path), "mem0")
    assert settings.base_url.startswith("http://127.0.0.1:") and settings.model == "hashing"
    client = openai.OpenAI(base_url=settings.base_url, api_key="x")
    vectors = client.embeddings.create(input=["flat white", "green tea"], model=settings.model).data
    assert len(vectors) == 2 and len(vectors[0].embedding) == settings.dims == 256
    embedding_server._SERVER.stop()
