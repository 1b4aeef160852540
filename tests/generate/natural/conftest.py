"""A small, mechanical phrase bank for testing the edition-2 machinery (not its wording).

The real banks are hand-written data; these tests pin the renderer's invariants and the
loader's errors, so they build a bank from the catalog in a temporary folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bemula.generate.catalog import ATTRIBUTES, CATEGORIES
from bemula.generate.derived import DERIVED_TEMPLATES, NATURAL_DERIVED_TEMPLATES


def _thread(k: int) -> list[str]:
    lines = ["[[thread]]", f'id = "topic-{k}"', f'about = ["the topic number {k} project"]']
    for step in range(5):
        lines += ["[[thread.turn]]",
                  "user = " + json.dumps([f"Step {step} of plan {k}, variant {v}: what should I try next with the "
                                          f"shelf-{k} build{' I started {daypart}' if step == 1 else ''}?"
                                          for v in range(3)]),
                  "assistant = " + json.dumps([f"For shelf {k} at step {step} (reply {v}), sand the edges, check "
                                               "the level twice, and pre-drill every hole so the wood does not "
                                               "split; then tell me how it sits." for v in range(2)])]
    return lines


def write_bank(root: Path, split: str = "dev") -> Path:
    folder = root / split
    (folder / "facts").mkdir(parents=True)
    (folder / "threads").mkdir()
    for c in CATEGORIES:
        lines: list[str] = []
        for a in (a for a in ATTRIBUTES if a.category == c.key):
            lines += [f"[{a.key}]",
                      "state = " + json.dumps([f"Mine is {{v}}, about the {a.noun} (s{i})." for i in range(4)]),
                      "mention = " + json.dumps([f"still {{v}} there (m{i})" for i in range(3)]),
                      "ask = " + json.dumps([f"Which {a.noun} did I mention (q{i})?" for i in range(3)]),
                      "refer = " + json.dumps([f"the {a.noun} detail {i}" for i in range(3)]),
                      "echo = " + json.dumps([f"With {{v}} in mind, that works (e{i})." for i in range(2)])]
        (folder / "facts" / f"{c.key}.toml").write_text("\n".join(lines))
    derived = []
    for t in (*DERIVED_TEMPLATES, *NATURAL_DERIVED_TEMPLATES):
        derived += [f"[{t.key}]", "ask = " + json.dumps([f"{t.question} ({i})" for i in range(3)]),
                    "refer = " + json.dumps([f"{t.about} {i}" for i in range(3)])]
    (folder / "facts" / "derived.toml").write_text("\n".join(derived))
    (folder / "threads" / "t.toml").write_text("\n".join(line for k in range(12) for line in _thread(k)))
    (folder / "assistant.toml").write_text(
        "acks = " + json.dumps([f"Thanks, ack {i}." for i in range(5)]) + "\n"
        + "openers = " + json.dumps([f"Opener {i}." for i in range(5)]) + "\n"
        + "closers = " + json.dumps([f"Closer {i}?" for i in range(5)]) + "\n")
    req = []
    kinds = {"F1": {"direct": "Please forget {ref}", "indirect": "Don't keep {ref} around",
                    "backref": "Scratch that, don't keep it"},
             "F2": {"direct": "Please delete {list}", "indirect": "Don't hold on to {list}"},
             "F3": {"direct": "Forget {category}", "indirect": "Don't keep {category}",
                    "except": "Drop {category} but keep {keep}"},
             "F4": {"direct": "Forget {about}", "indirect": "Don't keep {about}"},
             "F5": {"direct": "Forget {window}", "indirect": "Don't keep {window}"},
             "F6": {"direct": "{ref} is {new} now, forget the old one",
                    "indirect": "{ref} is {new} now, drop the old one"}}
    for rtype, styles in kinds.items():
        req.append(f"[{rtype}]")
        req += [f"{k} = " + json.dumps([f"{v} (x{i})." for i in range(3)]) for k, v in styles.items()]
    req.append("[confirm]")
    req += [f"{t} = " + json.dumps([f"Done with that ({t} {i})." for i in range(3)]) for t in kinds]
    req.append("[categories]")
    req += [f"{c.key} = " + json.dumps([f"all my {c.key} things", f"anything {c.key}-ish"]) for c in CATEGORIES]
    req += ["[windows]", 'date = ["what I said on {date}", "the {daypart} of {date}"]',
            'relative = ["what I said {ago}", "our chat {ago}"]',
            'weekday = ["last {weekday}", "{weekday} {daypart}"]',
            'event = ["when we talked about {about}", "the chat on {about}"]',
            "[refer]", 'event = ["{ref} from {about} (a)", "{ref}, said during {about} (b)", "{ref} at {about} (c)"]',
            "[embed]", 'before = ["Anyway,", "Back to it:", "Separately,"]',
            'after = ["Oh, and", "Also:", "One more thing:"]']
    for i in range(12):
        req += ["[[decoy]]", f'user = "Make the tone less formal, draft {i}."',
                f'assistant = "Sure, here is a looser version of draft {i}."']
    (folder / "requests.toml").write_text("\n".join(req))
    return root


@pytest.fixture
def bank_root(tmp_path: Path) -> Path:
    return write_bank(tmp_path / "banks")
