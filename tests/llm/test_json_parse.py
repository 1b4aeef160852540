from __future__ import annotations

import pytest

from bemula.llm.client import _NOT_JSON, parse_json_text, redact_url


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": [1, 2]}\n```', {"a": [1, 2]}),
        ('Sure! Here it is: {"ok": true} hope that helps', {"ok": True}),
        ("[1, 2]", [1, 2]),
        ("null", None),
    ],
)
def test_parse_json_text(text: str, expected: object) -> None:
    assert parse_json_text(text) == expected


@pytest.mark.parametrize("text", ["", "yes", "{broken", "} {"])
def test_parse_json_text_refuses(text: str) -> None:
    assert parse_json_text(text) is _NOT_JSON


def test_redact_url_drops_credentials_and_query() -> None:
    assert redact_url("https://user:pw@host.example:8443/v1?key=abc") == "https://host.example:8443/v1"
    assert redact_url("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8080/v1"


def test_strict_only_for_strict_compatible_schemas() -> None:
    from bemula.llm.client import strict_schema_ok

    closed = {"type": "object", "additionalProperties": False, "required": ["a"],
              "properties": {"a": {"type": "array", "items": {
                  "type": "object", "additionalProperties": False, "required": ["b"],
                  "properties": {"b": {"type": "string"}}}}}}
    assert strict_schema_ok(closed)
    open_inner = {**closed, "properties": {"a": {"type": "array", "items": {"type": "object",
                                                                            "properties": {"b": {}}}}}}
    assert not strict_schema_ok(open_inner)
    assert not strict_schema_ok({"type": "object", "properties": {"a": {}}, "required": ["a"]})
    assert not strict_schema_ok({"type": "object", "additionalProperties": False,
                                 "properties": {"a": {}, "b": {}}, "required": ["a"]})
    assert strict_schema_ok({"type": "string"})
