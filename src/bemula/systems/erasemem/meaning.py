"""Request detection by meaning: a classifier over MiniLM embeddings of hand-written examples.

The rules in ``intent.py`` read a request by its grammar — a removal verb and what it
governs. They miss what people say without that grammar ("Unremember my passport number",
"Whatever I vented about over Christmas, I'd like you to forget it all", "I'm vegetarian
now, so … use the new diet instead"); writing one more rule per wording fits the wording we
have seen and carries over to nothing (docs/erasemem.md: rules written for half of a
held-out set moved the other half by nothing).

So erasemem also asks a classifier when the rules find nothing: by default over the words
of the examples alone, in turns that pass the rules' quick screen (``meaning_words``, no
embeddings, cheap enough for every such turn); with ``-o semantic=true`` (or
``semantic_detect``) over MiniLM vectors and the words, in every turn.
It is trained when the system starts, in a second, on two hand-written data files that
no rule was written from (``data/meaning_requests.tsv``: forget requests by type;
``data/meaning_not_requests.txt``: statements, questions, tasks and talk about forgetting
that are not requests):

* **whether** a message asks: a logistic regression (ridge, fitted by Newton's method, so
  the same data give the same weights) over the MiniLM vector beside the message's words
  and word pairs (those in at least two examples). MiniLM alone places a message mostly by
  its topic — "forget my blood type" sits near "my blood type is O negative" — and
  separated the examples worse (10-fold cross-validation on the examples: area under the
  ROC curve 0.91 for MiniLM, 0.95 for the words, 0.97 for both). A message is scored as a
  whole and sentence by sentence, and the most request-like piece counts, so a request
  inside a longer message is found;
* **which type**: one such regression per type, over the request examples alone; the
  likeliest type wins (cross-validated on the examples: 129 of 180 typed right; the
  nearest examples by MiniLM cosine voting, 81);
* **what**: the piece without the words that frame requests in the examples (words much
  commoner in the requests than in the other messages: "forget", "please", "memory"); what
  is left names the thing, and resolution finds it by its words or, with ``semantic``, by
  meaning.

The rules read first and are never overruled; the MiniLM path needs the MiniLM runtime.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from bemula.systems.erasemem.categories import categories_in
from bemula.systems.erasemem.intent import (
    ForgetIntent,
    ForgetKind,
    clean_target,
    conversation_topic,
    split_targets,
    states_new_value,
)
from bemula.systems.erasemem.textutil import sentence_pieces
from bemula.systems.erasemem.timeparse import parse_time_reference
from bemula.systems.erasemem.tokens import tokenize

if TYPE_CHECKING:  # pragma: no cover
    from bemula.llm.embeddings import Embedder

KINDS = tuple(kind.value for kind in ForgetKind)
NOT_A_REQUEST = "NO"

#: how sure the classifier must be that a piece asks to forget. On real dialogue a lower bar
#: reads pleasantries and updates as requests: among the user turns of 8 dev-bank instances
#: that are not requests, 0.9 flagged 39 of 2583, 0.97 flagged 15, 0.99 flagged 6 (and 7 of
#: 789 in the hand-written set); the examples' cross-validation alone would pick 0.8
MIN_PROBABILITY = 0.99
#: the fewest content words a sentence needs to be read on its own
MIN_PIECE_WORDS = 3
#: ridge penalty of the logistic regression (both feature blocks have unit length)
RIDGE = 0.03
#: a word or word pair is a feature when at least this many examples hold it
MIN_FEATURE_COUNT = 2
#: a word frames requests when it is in at least this many request examples ...
FRAME_MIN_COUNT = 3
#: ... and this many times more often (per example) than in the other messages
FRAME_RATIO = 4.0

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’\-]*")
#: "now" for asking whether a phrase holds a time reference at all (the rules ask the same way)
_ANY_DAY = datetime(2000, 1, 1)


def word_features(text: str) -> set[str]:
    """The lower-cased words of ``text`` and its adjacent word pairs."""
    words = _WORD.findall(text.lower().replace("’", "'"))
    return {*words, *map(" ".join, zip(words, words[1:]))}


@dataclass(frozen=True)
class Example:
    """One hand-written message and what it is: a request type (F1-F6) or ``NO``."""

    label: str
    text: str
    source: str  # file:line, for errors and for reading the data back

    @property
    def is_request(self) -> bool:
        return self.label != NOT_A_REQUEST


def _data_file(name: str) -> Path:
    return Path(str(resources.files("bemula.systems.erasemem").joinpath("data", name)))


def load_examples(requests: Path | None = None, not_requests: Path | None = None) -> list[Example]:
    """The training messages: ``KIND<TAB>WORD<TAB>MESSAGE`` lines and one-message lines.
    A malformed line is an error that names the file and the line."""
    requests = requests or _data_file("meaning_requests.tsv")
    not_requests = not_requests or _data_file("meaning_not_requests.txt")
    examples: list[Example] = []
    for number, line in enumerate(requests.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[0] not in KINDS or not parts[2].strip():
            raise ValueError(f"{requests}:{number}: expected KIND<TAB>WORD<TAB>MESSAGE with KIND in "
                             f"{', '.join(KINDS)}, got {line[:80]!r}")
        examples.append(Example(parts[0], parts[2].strip(), f"{requests.name}:{number}"))
    for number, line in enumerate(not_requests.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        if "\t" in line:
            raise ValueError(f"{not_requests}:{number}: one message per line, no tabs, got {line[:80]!r}")
        examples.append(Example(NOT_A_REQUEST, line.strip(), f"{not_requests.name}:{number}"))
    labels = Counter(e.is_request for e in examples)
    if not labels[True] or not labels[False]:
        raise ValueError(f"{requests}, {not_requests}: need both requests and other messages to learn from")
    return examples


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE, iterations: int = 50,
                 balanced: bool = True) -> np.ndarray:
    """Ridge logistic regression by Newton's method: weights with the bias last.
    ``balanced``: the two classes count equally (there are more other messages than
    requests); otherwise every example counts once.

    With more features than examples (the word features alone: 3,360 against 780) each
    Newton step is solved by conjugate gradients on curvature-vector products instead of
    forming the curvature matrix: the same weights (to the solver's tolerance), in a second
    instead of half a minute."""
    n, d = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    positive = float(y.sum())
    if balanced and 0 < positive < n:
        sample_weight = np.where(y > 0, n / (2 * positive), n / (2 * (n - positive)))
    else:
        sample_weight = np.ones(n)
    penalty = np.full(d + 1, ridge)
    penalty[-1] = 0.0  # the bias is not shrunk
    w = np.zeros(d + 1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        gradient = design.T @ (sample_weight * (p - y)) + penalty * w
        weight = sample_weight * p * (1 - p)
        if d + 1 <= n:
            curvature = (design * weight[:, None]).T @ design + np.diag(penalty)
            step = np.linalg.solve(curvature, gradient)
        else:
            step = _conjugate_gradients(_curvature_product(design, weight, penalty), gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w


def _curvature_product(design: np.ndarray, weight: np.ndarray, penalty: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """v -> (Xᵀ diag(weight) X + diag(penalty)) v, without forming the matrix."""

    def product(v: np.ndarray) -> np.ndarray:
        return np.asarray(design.T @ (weight * (design @ v)) + penalty * v)

    return product


def _conjugate_gradients(product: Callable[[np.ndarray], np.ndarray], b: np.ndarray,
                         tolerance: float = 1e-10, max_steps: int = 500) -> np.ndarray:
    """x with ``product(x) == b`` for a symmetric positive definite operator."""
    x = np.zeros_like(b)
    residual = b.copy()
    direction = residual.copy()
    size = float(residual @ residual)
    stop = tolerance * tolerance * max(size, 1e-300)
    for _ in range(max_steps):
        if size <= stop:
            break
        moved = product(direction)
        alpha = size / float(direction @ moved)
        x += alpha * direction
        residual -= alpha * moved
        new_size = float(residual @ residual)
        direction = residual + (new_size / size) * direction
        size = new_size
    return x


def frame_words(examples: list[Example]) -> frozenset[str]:
    """Words that frame requests rather than name their object: in at least
    ``FRAME_MIN_COUNT`` requests and ``FRAME_RATIO`` times commoner there (per message)."""
    requests = [e for e in examples if e.is_request]
    others = [e for e in examples if not e.is_request]
    in_requests = Counter(w for e in requests for w in {m.lower() for m in _WORD.findall(e.text)})
    in_others = Counter(w for e in others for w in {m.lower() for m in _WORD.findall(e.text)})
    frame = set()
    for word, count in in_requests.items():
        if count < FRAME_MIN_COUNT:
            continue
        rate_requests = count / len(requests)
        rate_others = (in_others[word] + 0.5) / len(others)
        if rate_requests >= FRAME_RATIO * rate_others:
            frame.add(word)
    return frozenset(frame)


@dataclass
class Reading:
    """The classifier's reading of a message: the most request-like piece and its type."""

    probability: float
    piece: str
    kind: ForgetKind | None  # None when the probability is below the threshold


class MeaningDetector:
    """Reads forget requests by meaning (see the module docstring).

    ``embeddings=False``: the word features alone, no MiniLM (erasemem's default path,
    option ``meaning_words``): training and reading need nothing but numpy."""

    def __init__(self, embedder: Embedder | None = None, examples: list[Example] | None = None,
                 min_probability: float = MIN_PROBABILITY, embeddings: bool = True) -> None:
        if embedder is None and embeddings:
            from bemula.systems.erasemem.semantic import minilm_embedder

            embedder = minilm_embedder()
        self.embedder = embedder if embeddings else None
        self.examples = examples if examples is not None else load_examples()
        self.min_probability = min_probability
        texts = [e.text for e in self.examples]
        counts = Counter(f for e in self.examples for f in word_features(e.text))
        self.vocabulary = {f: i for i, f in enumerate(sorted(f for f, n in counts.items() if n >= MIN_FEATURE_COUNT))}
        labels = np.array([1.0 if e.is_request else 0.0 for e in self.examples])
        features = self._features(texts)
        self.weights = fit_logistic(features, labels)
        requests = features[labels > 0]
        kinds = [e.label for e in self.examples if e.is_request]
        self.kinds = [ForgetKind(k) for k in KINDS if k in kinds]
        self.kind_weights = np.array(
            [fit_logistic(requests, np.array([1.0 if k == kind.value else 0.0 for k in kinds]), balanced=False)
             for kind in self.kinds])
        self.frame = frame_words(self.examples)
        # the word weights by feature, for reading without building a row per text
        offset = 0 if self.embedder is None else features.shape[1] - len(self.vocabulary)
        self._word_weight = {f: float(self.weights[offset + i]) for f, i in self.vocabulary.items()}
        self._word_kinds = {f: self.kind_weights[:, offset + i] for f, i in self.vocabulary.items()}

    @property
    def words_only(self) -> bool:
        """Reading by the word features alone (no embeddings)."""
        return self.embedder is None

    def _features(self, texts: list[str]) -> np.ndarray:
        """Each text's MiniLM vector (with embeddings) beside its unit-length bag of known
        words and pairs."""
        bags = np.zeros((len(texts), len(self.vocabulary)))
        for row, text in enumerate(texts):
            for feature in word_features(text):
                column = self.vocabulary.get(feature)
                if column is not None:
                    bags[row, column] = 1.0
        norms = np.linalg.norm(bags, axis=1, keepdims=True)
        bags = bags / np.where(norms > 0, norms, 1.0)
        if self.embedder is None:
            return bags
        vectors = np.asarray(self.embedder.embed(texts), dtype=np.float64)
        return np.hstack([vectors, bags])

    def _scores(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """Each text's request probability, and its score for each type."""
        if self.embedder is None:
            bags = [word_features(text) for text in texts]
            logits = np.array([self._word_logit(bag) for bag in bags])
            kind_scores = np.array([self._word_kind_scores(bag) for bag in bags])
        else:
            features = self._features(texts)
            logits = features @ self.weights[:-1] + self.weights[-1]
            kind_scores = features @ self.kind_weights[:, :-1].T + self.kind_weights[:, -1]
        return 1.0 / (1.0 + np.exp(-logits)), kind_scores

    def probabilities(self, texts: list[str]) -> np.ndarray:
        """How likely each text is to ask for a removal from memory."""
        return self._scores(texts)[0]

    def pieces(self, text: str) -> list[str]:
        """The message and, when it has several, each of its sentences that could name a
        thing: a sentence of fewer than ``MIN_PIECE_WORDS`` content words ("Yes, please.",
        "All dry now, thank you!") is all politeness, which requests share, and the
        classifier cannot tell one from the other."""
        sentences = sentence_pieces(text)
        if len(sentences) <= 1:
            return [text.strip()]
        return [text.strip(), *(s for s in sentences if len(tokenize(s)) >= MIN_PIECE_WORDS)]

    def _word_logit(self, features: set[str]) -> float:
        """Words only: the request logit of a text with these features (its bag has unit
        length, so the sum of its known features' weights over the root of their number)."""
        known = [w for f in features if (w := self._word_weight.get(f)) is not None]
        total = sum(known) / math.sqrt(len(known)) if known else 0.0
        return total + float(self.weights[-1])

    def _word_kind_scores(self, features: set[str]) -> np.ndarray:
        known = [k for f in features if (k := self._word_kinds.get(f)) is not None]
        scores = self.kind_weights[:, -1].copy()
        if known:
            scores += np.sum(known, axis=0) / math.sqrt(len(known))
        return np.asarray(scores)

    def _read_words(self, text: str) -> Reading:
        """``read`` without embeddings, cheap enough for every screened turn: a piece's
        features are among the whole message's, and a set of them scores at most the best
        mean-times-root of its top positive weights, so a message whose bound is below the
        threshold is not split at all (an exact bound: no reading changes); type scores are
        worked out for the winning piece only."""
        whole = word_features(text)
        positive = sorted((w for f in whole if (w := self._word_weight.get(f, 0.0)) > 0), reverse=True)
        bound = total = 0.0
        for k, weight in enumerate(positive, 1):
            total += weight
            bound = max(bound, total / math.sqrt(k))
        if bound + float(self.weights[-1]) < self._threshold_logit():
            return Reading(0.0, text.strip(), None)
        # the pieces of ``pieces``, with a sentence's length checked only when it would win
        sentences = sentence_pieces(text)
        pieces = [text.strip(), *sentences] if len(sentences) > 1 else [text.strip()]
        features = [whole if i == 0 else word_features(piece) for i, piece in enumerate(pieces)]
        logits = [self._word_logit(f) for f in features]
        # the first of equals wins: the whole message, then the earlier sentence
        best = next(i for i in sorted(range(len(pieces)), key=lambda i: (-logits[i], i))
                    if i == 0 or len(tokenize(pieces[i])) >= MIN_PIECE_WORDS)
        probability = float(1.0 / (1.0 + np.exp(-logits[best])))  # (numpy: no overflow error)
        if probability < self.min_probability:
            return Reading(probability, pieces[best], None)
        return Reading(probability, pieces[best], self.kinds[int(self._word_kind_scores(features[best]).argmax())])

    def _threshold_logit(self) -> float:
        """The logit of ``min_probability``: below it no piece reads as a request."""
        if self.min_probability <= 0.0:
            return -math.inf
        if self.min_probability >= 1.0:
            return math.inf
        return math.log(self.min_probability / (1.0 - self.min_probability))

    def read(self, text: str) -> Reading:
        if self.embedder is None:
            return self._read_words(text)
        pieces = self.pieces(text)
        probabilities, kind_scores = self._scores(pieces)
        # the whole message wins ties: its sentences are only there to find a request inside
        best = int(probabilities.argmax())
        probability = float(probabilities[best])
        if probability < self.min_probability:
            return Reading(probability, pieces[best], None)
        return Reading(probability, pieces[best], self.kinds[int(kind_scores[best].argmax())])

    def target_of(self, piece: str) -> str:
        """The piece without its framing words: what is left names the thing."""
        kept = [w for w in _WORD.findall(piece) if w.lower() not in self.frame]
        return clean_target(" ".join(kept))

    def detect(self, text: str, known: Callable[[str], bool] | None = None) -> ForgetIntent | None:
        """The request in ``text`` by meaning, or ``None``. ``known`` (optional) says whether
        memory holds what a phrase names: a request for a thing memory does not hold is
        taken for a misreading (a time window names no thing, so it is not asked)."""
        reading = self.read(text)
        if reading.kind is None:
            return None
        target = self.target_of(reading.piece)
        if not tokenize(target):
            return None
        if known is not None and reading.kind != ForgetKind.TIME_WINDOW and not known(target):
            return None
        statements = [s for s in sentence_pieces(text) if s != reading.piece]
        kind = reading.kind
        if kind == ForgetKind.CATEGORY:
            return ForgetIntent(kind, targets=[target], categories=categories_in(target), statements=statements,
                                directives=[reading.piece])
        if kind == ForgetKind.TIME_WINDOW:
            # a window needs a time or a conversation to point at; without one, resolution
            # would guess a session by shared words ("Thank you for listening, it helped")
            when = conversation_topic(reading.piece) or (
                reading.piece if parse_time_reference(reading.piece, _ANY_DAY) is not None else None)
            if when is None:
                return None
            return ForgetIntent(kind, targets=[target], time_phrase=when, statements=statements,
                                directives=[reading.piece])
        if kind == ForgetKind.REPLACEMENT:
            # the change is stated in the message: every sentence of it says what is new. A
            # "change" with no new value in it ("It rides beautifully now, thank you", most
            # of what the classifier took for F6 in dev-bank dialogue) replaces nothing
            sentences = sentence_pieces(text)
            if not states_new_value(sentences, [reading.piece]):
                return None
            return ForgetIntent(kind, targets=[target], statements=sentences, directives=[reading.piece])
        targets = [t for t in split_targets(target) if tokenize(t)] or [target]
        kind = ForgetKind.FACTS if len(targets) >= 2 else ForgetKind.FACT
        return ForgetIntent(kind, targets=targets, statements=statements, directives=[reading.piece])


@lru_cache(maxsize=2)
def shared_detector(embeddings: bool = True) -> MeaningDetector:
    """One detector per process and kind: every erasemem instance of a run reads with the
    same one (training embeds every example, about a second and a half; the words alone,
    about a second)."""
    return MeaningDetector(embeddings=embeddings)
