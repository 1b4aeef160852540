"""The LLM hook, against the scripted OpenAI-compatible fake server (no model needed)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from bemula.llm.client import LLMClient, LLMConfig
from bemula.systems.base import SystemContext, TurnEvent
from bemula.systems.erasemem import EraseMem
from bemula.systems.erasemem.intent import ForgetKind
from bemula.systems.erasemem.llm_hook import LLMForgetHook
from bemula.testing.fake_server import FakeOpenAIServer, ScriptedResponder

NOW = datetime(2026, 3, 12, 15, 0)


def _answer(**fields: object) -> str:
    base = {"is_forget_request": True, "request_type": "F1", "targets": [], "category": "",
            "time_reference": "", "new_value": "", "kept_statements": []}
    base.update(fields)
    return json.dumps(base)


def _client(server: FakeOpenAIServer) -> LLMClient:
    return LLMClient(LLMConfig(model="fake", base_url=server.base_url, max_retries=0), backoff_base_s=0.0)


def test_llm_reads_a_phrasing_the_rules_miss() -> None:
    text = "Honestly I'm not comfortable with you holding on to my blood type."
    reply = _answer(request_type="F1", targets=["my blood type"])
    with FakeOpenAIServer(ScriptedResponder([reply])) as server:
        hook = LLMForgetHook(_client(server))
        intent = hook.detect(text, NOW)
        assert len(server.requests) == 1
        sent = json.dumps(server.requests[0][1])
    assert intent is not None and intent.kind == ForgetKind.FACT and intent.targets == ["my blood type"]
    assert hook.last_method == "llm"
    assert "not comfortable" in sent  # the turn itself went to the model


def test_screen_keeps_ordinary_turns_away_from_the_llm() -> None:
    with FakeOpenAIServer(ScriptedResponder([])) as server:
        hook = LLMForgetHook(_client(server))
        assert hook.detect("We went hiking in the Alps and the weather was great.", NOW) is None
        assert server.requests == []


def test_bad_json_falls_back_to_the_rules() -> None:
    with FakeOpenAIServer(ScriptedResponder(["this is not json"])) as server:
        hook = LLMForgetHook(_client(server), llm_first=True)
        intent = hook.detect("Please forget my shoe size.", NOW)
    assert intent is not None and intent.targets == ["my shoe size"]
    assert hook.last_method == "rules (llm failed)" and hook.failures == 1


def test_llm_category_and_replacement_fields() -> None:
    replies = [
        _answer(request_type="F3", targets=["my money matters"], category="finance"),
        _answer(request_type="F6", targets=["Denver"], new_value="Austin",
                kept_statements=["I moved from Denver to Austin"]),
        _answer(is_forget_request=False, request_type="none"),
    ]
    with FakeOpenAIServer(ScriptedResponder(replies)) as server:
        hook = LLMForgetHook(_client(server), llm_first=True)
        f3 = hook.detect("Wipe my money matters from your memory.", NOW)
        f6 = hook.detect("I moved from Denver to Austin, so forget Denver.", NOW)
        no = hook.detect("Don't forget my dentist appointment.", NOW)
    assert f3 is not None and f3.kind == ForgetKind.CATEGORY and f3.categories == ["finance"]
    assert f6 is not None and f6.kind == ForgetKind.REPLACEMENT and f6.new_value == "Austin"
    assert f6.statements == ["I moved from Denver to Austin"]
    assert no is None


def test_system_deletes_what_the_llm_names(tmp_path: Path) -> None:
    turns = [
        ("S1", "user", "My blood type is AB negative."),
        ("S1", "user", "I work as a welder at Hadley Forge."),
        ("S2", "user", "Honestly I'm not comfortable with you holding on to my blood type."),
    ]
    reply = _answer(request_type="F1", targets=["my blood type"])
    with FakeOpenAIServer(ScriptedResponder([reply])) as server:
        system = EraseMem(SystemContext(workdir=tmp_path, llm=_client(server)))
        for i, (sid, role, text) in enumerate(turns):
            system.ingest(TurnEvent(role, text, sid, NOW + timedelta(hours=i)))
        calls = len(server.requests)
    assert calls == 1  # only the screened-in turn reached the model
    assert not any("negative" in r.text.lower() for r in system.dump())
    assert [item.store for item in system.retrieve("What is my blood type?")] == ["notice"]
    assert "Hadley Forge" in system.retrieve("Where do I work as a welder?")[0].text
    stats = system.stats()
    assert stats["receipts"][0]["method"] == "llm" and stats["llm_hook"] == {"calls": 1, "failures": 0}


def test_llm_first_cannot_veto_a_request_the_rules_find() -> None:
    with FakeOpenAIServer(ScriptedResponder([_answer(is_forget_request=False, request_type="none")])) as server:
        hook = LLMForgetHook(_client(server), llm_first=True)
        intent = hook.detect("Please don't keep any conclusion about where I commute.", NOW)
        assert len(server.requests) == 1
    assert intent is not None and intent.kind == ForgetKind.CONCLUSION
    assert hook.last_method == "rules (llm said no)"


def test_by_default_the_rules_type_what_they_detect_and_the_llm_is_not_asked() -> None:
    # the 1.5B typed this F4 request as F6 in a measured run; the rules type it F4
    text = "I don't want you drawing or keeping any conclusion about what time I leave home. Delete it."
    with FakeOpenAIServer(ScriptedResponder([_answer(request_type="F6", targets=["home"])])) as server:
        hook = LLMForgetHook(_client(server))
        intent = hook.detect(text, NOW)
        assert server.requests == []
    assert intent is not None and intent.kind == ForgetKind.CONCLUSION and hook.last_method == "rules"
    assert hook.calls == 0


def test_remarks_about_the_users_own_memory_never_reach_the_llm() -> None:
    # paraphrases of turns the 1.5B read as requests (none asks the assistant to forget)
    remarks = [
        "Oh, before I forget: if anyone asks, my instrument is the theremin.",
        "Hmm, I keep forgetting the bread knife. How do I make sure I remember tomorrow?",
        "My passport number is X123, in case you need it. I never remember details like that.",
        "Remind me to buy a birthday card, I always forget.",
        "Oh, and I keep forgetting coat hangers. How do I make sure I remember late tonight?",
    ]
    with FakeOpenAIServer(ScriptedResponder([_answer(targets=["instrument"])] * 5)) as server:
        hook = LLMForgetHook(_client(server))
        for text in remarks:
            assert hook.detect(text, NOW) is None, text
            assert hook.last_method == "screen"
        assert server.requests == []


def test_a_removal_word_beside_a_self_memory_remark_still_reaches_the_llm() -> None:
    text = "Before I forget, I'm not comfortable with you having my locker code at all."
    with FakeOpenAIServer(ScriptedResponder([_answer(targets=["my locker code"])])) as server:
        hook = LLMForgetHook(_client(server))
        intent = hook.detect(text, NOW)
        assert len(server.requests) == 1
    assert intent is not None and intent.targets == ["my locker code"] and hook.last_method == "llm"


def test_llm_failure_on_a_turn_the_rules_found_nothing_in_keeps_it_stored() -> None:
    with FakeOpenAIServer(ScriptedResponder(["not json"])) as server:
        hook = LLMForgetHook(_client(server))
        assert hook.detect("Honestly I'm not comfortable with you holding on to my blood type.", NOW) is None
    assert hook.last_method == "rules (llm failed)" and hook.failures == 1
