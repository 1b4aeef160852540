"""erasemem's request detection by meaning (``meaning.py``): the classifier's parts on small
hand-made examples, its data files, and end to end with MiniLM (skipped without it)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from bemula.systems.erasemem.intent import ForgetKind
from bemula.systems.erasemem.meaning import (
    Example,
    MeaningDetector,
    fit_logistic,
    frame_words,
    load_examples,
    word_features,
)

DATA = Path(__file__).parent / "data"
T0 = datetime(2026, 3, 2, 9, 0)


def test_the_fit_is_the_ridge_logistic_optimum_worked_by_hand() -> None:
    # x = -1 (class 0) and x = +1 (class 1), ridge 1: by symmetry the bias is 0, and the
    # gradient (sigma(w) - 1) * 1 + (sigma(-w) - 0) * (-1) + w = 0 gives w = 2 (1 - sigma(w)),
    # whose root is w = 0.6749 (sigma(0.6749) = 0.6626, 2 * 0.3374 = 0.6749)
    w = fit_logistic(np.array([[-1.0], [1.0]]), np.array([0.0, 1.0]), ridge=1.0)
    assert w[1] == pytest.approx(0.0, abs=1e-9)
    assert w[0] == pytest.approx(2 * (1 - 1 / (1 + math.exp(-w[0]))), abs=1e-9)
    assert w[0] == pytest.approx(0.6749, abs=1e-4)


def test_balanced_classes_move_the_bias_toward_the_rarer_class() -> None:
    # three negatives at 0 and one positive at 0: nothing tells them apart but the bias.
    # Counted once each the bias is log(1/3) = -1.10; balanced, both classes weigh 2: 0
    x, y = np.zeros((4, 1)), np.array([0.0, 0.0, 0.0, 1.0])
    assert fit_logistic(x, y, ridge=1.0, balanced=False)[1] == pytest.approx(math.log(1 / 3), abs=1e-6)
    assert fit_logistic(x, y, ridge=1.0)[1] == pytest.approx(0.0, abs=1e-6)


def test_with_more_features_than_examples_the_fit_is_still_the_optimum() -> None:
    # 3 examples, 5 features: each Newton step is solved by conjugate gradients. At the
    # optimum the gradient of the penalised loss is zero, worked out here from the weights
    x = np.array([[1.0, 0.0, 1.0, 0.0, 0.5], [0.0, 1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.5]])
    y = np.array([1.0, 0.0, 0.0])
    w = fit_logistic(x, y, ridge=0.5, balanced=False)
    design = np.hstack([x, np.ones((3, 1))])
    p = 1 / (1 + np.exp(-(design @ w)))
    penalty = np.array([0.5] * 5 + [0.0])
    assert np.abs(design.T @ (p - y) + penalty * w).max() < 1e-6
    assert p[0] > 0.5 > p[1]


def test_frame_words_are_the_ones_requests_share_and_other_messages_lack() -> None:
    examples = [
        Example("F1", "please forget my blood type", "r:1"),
        Example("F1", "forget my address please", "r:2"),
        Example("F3", "please forget everything about my job", "r:3"),
        Example("NO", "my blood type is O negative", "n:1"),
        Example("NO", "my address is 4 Elm Row", "n:2"),
        Example("NO", "please draft a note to my boss", "n:3"),
    ]
    # "forget": 3 of 3 requests, 0 of 3 others -> 1.0 vs (0 + 0.5) / 3 = 0.17, ratio 6 >= 4;
    # "please": 3 of 3 vs (1 + 0.5) / 3 = 0.5, ratio 2; "my": in every message
    assert frame_words(examples) == {"forget"}


def test_word_features_are_lower_cased_words_and_pairs() -> None:
    assert word_features("Don’t KEEP it") == {"don't", "keep", "it", "don't keep", "keep it"}


def test_a_malformed_data_line_names_its_file_and_line(tmp_path: Path) -> None:
    requests = tmp_path / "req.tsv"
    others = tmp_path / "no.txt"
    requests.write_text("# comment\nF1\tblood\tforget my blood type\nF9\tx\tforget x\n", encoding="utf-8")
    others.write_text("my cat is called Miso\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"req\.tsv:3: expected KIND<TAB>WORD<TAB>MESSAGE"):
        load_examples(requests, others)
    requests.write_text("F1\tblood\tforget my blood type\n", encoding="utf-8")
    others.write_text("fine\nmy cat\tMiso\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"no\.txt:2: one message per line"):
        load_examples(requests, others)


def test_the_shipped_examples_cover_every_type_and_share_nothing_with_the_held_out_set() -> None:
    examples = load_examples()
    kinds = {kind.value: sum(e.label == kind.value for e in examples) for kind in ForgetKind}
    assert min(kinds.values()) >= 25, kinds
    assert sum(not e.is_request for e in examples) >= 200
    # the held-out file measures how detection carries over: none of it may be learned from
    held_out = {line.split("\t")[2].strip().lower() for line in (DATA / "heldout_requests.tsv").read_text(
        encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")}
    assert not held_out & {e.text.lower() for e in examples}


class _WordEmbedder:
    """Two dimensions a reader can follow: (asks to drop, states a fact), from a few words."""

    name = "words"
    dim = 2

    def embed(self, texts: list[str]) -> np.ndarray:
        rows = []
        for text in texts:
            lower = text.lower()
            asks = sum(word in lower for word in ("forget", "drop", "lose", "erase"))
            rows.append((float(asks) + 0.1, 1.0))
        out = np.array(rows)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def _toy_detector() -> MeaningDetector:
    examples = [Example("F1", text, f"r:{i}") for i, text in enumerate(
        ["forget my blood type", "drop my address", "lose my phone number", "erase my pin code"])]
    examples += [Example("F5", text, f"t:{i}") for i, text in enumerate(
        ["forget what I said on monday", "drop everything from monday night", "erase the monday chat"])]
    examples += [Example("NO", text, f"n:{i}") for i, text in enumerate(
        ["my blood type is A", "my address is 4 Elm Row", "I walk the dog at seven", "my pin code is new",
         "I love monday mornings", "my phone number changed", "we met on monday"])]
    return MeaningDetector(_WordEmbedder(), examples, min_probability=0.5)


class _Zero:
    """An embedder that says nothing: the dense rows are the word features alone."""

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.zeros((len(texts), 1))


def test_reading_by_words_alone_agrees_with_the_dense_rows() -> None:
    """``embeddings=False`` reads without building a row per text (and skips messages whose
    bound cannot reach the threshold); it must read exactly as the dense rows would."""
    examples = [e for e in _toy_detector().examples]
    sparse = MeaningDetector(examples=examples, min_probability=0.5, embeddings=False)
    dense = MeaningDetector(_Zero(), examples, min_probability=0.5)
    texts = [
        "please forget my blood type",
        "The bus was late again. Also, please forget my address. Thanks!",
        "my blood type is O negative and I walk the dog at seven",
        "ok. yes. please forget everything about my job",
        "Nothing to see here at all",
        "I walk the dog at seven and my blood type is A and we met on monday. Please erase my pin code.",
    ]
    for text in texts:
        a, b = sparse.read(text), dense.read(text)
        assert (a.kind, a.piece if a.kind else None) == (b.kind, b.piece if b.kind else None), text
        if a.kind is not None:
            assert a.probability == pytest.approx(b.probability, abs=1e-9)
    # (neither reads all or nothing: the agreement is over both outcomes, and a sentence
    # that asks wins over the message around it)
    assert sparse.read(texts[0]).kind == ForgetKind.FACT and sparse.read(texts[2]).kind is None
    assert sparse.read(texts[-1]).piece == "Please erase my pin code."


def test_a_request_inside_a_longer_message_is_found_and_typed() -> None:
    detector = _toy_detector()
    assert detector.detect("I walk the dog at seven.") is None
    intent = detector.detect("The dog is fine. Please lose my phone number.")
    assert intent is not None and intent.kind == ForgetKind.FACT
    assert intent.directives == ["Please lose my phone number."]
    assert "phone number" in intent.targets[0]
    assert intent.statements == ["The dog is fine."]
    window = detector.detect("erase what I said on monday night")
    assert window is not None and window.kind == ForgetKind.TIME_WINDOW


def _minilm_or_skip() -> None:
    from bemula.llm.embeddings import EmbedderUnavailable, make_embedder

    try:
        make_embedder("minilm-numpy")
    except EmbedderUnavailable as exc:
        pytest.skip(f"MiniLM runtime not installed: {exc}")


# requests the rules do not read (no removal verb they know, or none at all), and turns
# beside them that must stay; written for this test, in none of the data files
TURNS = [
    ("S1", 0, "user", "My passport number is PX4471920 and it expires in 2031."),
    ("S1", 0, "user", "I walk the dog every morning at seven before work."),
    ("S2", 1, "user", "I would rather my passport number was not kept anywhere in your memory."),
]


@pytest.mark.parametrize("semantic_detect", [False, True])
def test_a_request_the_rules_miss_is_read_by_meaning(tmp_path: Path, semantic_detect: bool) -> None:
    _minilm_or_skip()
    from bemula.systems.base import SystemContext, TurnEvent, create_system
    from bemula.systems.erasemem.intent import parse_forget_request

    assert parse_forget_request(TURNS[-1][3]) is None  # the rules' miss this test is about
    # (semantic_detect off and the words-only classifier off: the rules alone)
    options = {"semantic": True, "semantic_detect": semantic_detect, "meaning_words": False}
    system = create_system("erasemem", SystemContext(workdir=tmp_path, options=options))
    for i, (sid, day, role, text) in enumerate(TURNS):
        system.ingest(TurnEvent(role, text, sid, T0 + timedelta(days=day, minutes=i)))
    stored = " ".join(record.text for record in system.dump() if record.store == "units").lower()
    assert "walk the dog" in stored
    if semantic_detect:
        assert "px4471920" not in stored
        assert system.receipts and system.receipts[-1]["method"] == "meaning"
    else:
        assert "px4471920" in stored and not system.receipts


def test_erasemem_reads_by_words_by_default_what_the_rules_miss(tmp_path: Path) -> None:
    """No removal verb the rules know ("make it so you no longer know"), but the words of
    the hand-written examples say it asks: read by default, without MiniLM, and the other
    shoe size stays. With ``meaning_words=false`` the rules alone read nothing."""
    from bemula.systems.base import SystemContext, TurnEvent, create_system
    from bemula.systems.erasemem.intent import parse_forget_request

    turns = [
        ("S1", 0, "user", "My shoe size is 44, annoyingly wide."),
        ("S1", 0, "user", "My brother takes a 42 in boots."),
        ("S2", 1, "user", "Please make it so you no longer know my shoe size."),
    ]
    assert parse_forget_request(turns[-1][3]) is None  # the rules' miss this test is about
    for options, read in (({}, True), ({"meaning_words": False}, False)):
        system = create_system("erasemem", SystemContext(workdir=tmp_path, options=options))
        for i, (sid, day, role, text) in enumerate(turns):
            system.ingest(TurnEvent(role, text, sid, T0 + timedelta(days=day, minutes=i)))
        stored = " ".join(record.text for record in system.dump() if record.store == "units")
        assert "42 in boots" in stored
        assert ("44" not in stored) == read, options
        assert [r["method"] for r in system.receipts] == (["meaning"] if read else [])
