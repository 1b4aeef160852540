"""``erasemem``: a memory that forgets at mutation time and keeps everything else.

Per user turn: detect a forget request (LLM hook when the run has an LLM backbone, rules
otherwise), resolve its targets over the whole memory, purge every representation (units,
index entries, raw-turn spans, the request's own restatement, the assistant's confirmation)
and leave content-free tombstones; or, for an ordinary turn, store its sentences as units.

Retrieval ranks live units and tombstones together (tombstones match through salted token
hashes). When the best match for a question is a tombstone — the question is about
something forgotten — nothing is returned; a question matching a suppressed conclusion
(F4) also gets nothing. Otherwise the best live units come back, best first, each as the
(redacted) user turn it came from, so the answer has its context.

Every request leaves a *deletion receipt* (``stats()["receipts"]``): which stores lost how
many entries, by id, and which tombstones were added — never the removed text.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from bemula.systems.base import (
    MemorySystem,
    RetrievedItem,
    StoreRecord,
    SystemContext,
    SystemOptions,
    TurnEvent,
    register,
)
from bemula.systems.erasemem.forms import DATE_ORDER, code_spans, numeric_date_order, redact_spans
from bemula.systems.erasemem.intent import ForgetIntent, ForgetKind, may_be_request, parse_forget_request
from bemula.systems.erasemem.owners import SELF, about_someone_else, names_someone_elses, owners_of
from bemula.systems.erasemem.resolve import GENERIC, PERSON_ALONE, Resolution, is_confirmation_sentence, resolve
from bemula.systems.erasemem.store import MemoryStore
from bemula.systems.erasemem.textutil import REDACTED, phrase_spans, split_sentences, word_spans
from bemula.systems.erasemem.tokens import tokenize
from bemula.systems.erasemem.tombstones import TombstoneSet

DEFAULT_TOP_K = 5
#: a window tombstone's match is scaled by this, so an equal match by a kept unit wins
WINDOW_TIE_LOSS = 0.999
#: how many index hits retrieval looks at before deciding (units and tombstones together)
SEARCH_DEPTH = 30
#: what a question word found only in the rest of a unit's turn counts, against one in the
#: unit itself: "he's paying £60 a week towards it" answers "how much does Tunde put towards
#: Dad's day centre?" because its turn is about the day centre
TURN_CONTEXT_WEIGHT = 0.5
#: a capitalised word (a name, or the first word of a sentence: memory decides)
_NAME_IN_TEXT = re.compile(r"\b[A-Z][\w'’-]+")
#: a kept statement said after a forgotten one answers past its tombstone when it matches the
#: question at least this share as well (an update, a later fact; ``_retrieve_units``)
NEWER_SHARE = 0.5
FORGET_REQUEST_PLACEHOLDER = "[forget request]"
#: what an LLM backbone is shown instead of an empty memory (``empty_notice``): content-free,
#: and the same for a forgotten topic as for one never mentioned
EMPTY_NOTICE = (
    "Nothing in memory answers this question. Do not guess, and do not confirm or deny "
    "anything the question suggests: say that you have no record of it."
)


_QUESTION_TAIL = re.compile(r"([^.!?:\n]*\?)\s*$")


def _same_owner(question_owners: set[str], stone_owners: frozenset[str], question_hashes: set[str],
                self_hash: str) -> bool:
    """Whether a tombstone may speak for the question, by whose thing each is about: a
    question about Jonas's number is not about the user's own deleted number, and a question
    about "my blood type" is not about Rafael's deleted one. Unknown owners (pronouns) pass."""
    names = stone_owners - {self_hash}
    if question_owners and not question_owners <= names and self_hash in stone_owners:
        return False
    return not (names and not question_owners and not names <= question_hashes)


#: words that say what kind of place or body a name is ("Heaton Road Surgery", "Leith Walk
#: Dental", "Peach State Credit Union"): shared by many names, none of them the value itself
_NAME_CLASS_WORDS = frozenset(tokenize(
    """dental dentist dentistry surgery clinic clinics hospital hospitals practice medical health centre center
    pharmacy chemist road street avenue lane drive close crescent way place square gardens terrace park grove
    court row hill mews bank credit union building society insurance school academy college university
    nursery primary secondary high library church chapel club hotel station airport terminal house hall
    group services ltd limited inc llc company partners associates solicitors vets veterinary"""))


_EMAIL_DOMAIN = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")


def _shared_name_words(store: MemoryStore, purge: frozenset[str], removed_texts: list[str]) -> frozenset[str]:
    """Words of a removed name of several words that a kept sentence also says with none of
    the removed value's other words, when they only say what kind of place the name is (or
    are the mail domain of a removed address):
    "Dental" of "Leith Walk Dental" when "… got in at Portobello Family Dental" stays. Such a
    word is blanked only beside the rest of the name. (Not a person's first name: "Sarah" of
    "Sarah Jones" answers "who is my ex?" on its own.)"""
    in_names: set[str] = set()
    domains: set[str] = set()
    for text in removed_texts:
        # ("btinternet" of "h.ashworth1939@btinternet.com" beside "dorothy.ashworth@btinternet.com")
        domains |= {t for m in _EMAIL_DOMAIN.finditer(text) for t in tokenize(m.group(1))} & purge
        spans = word_spans(text)
        for n, (_, _, toks) in enumerate(spans):
            if toks & purge and any(spans[m][2] & purge - toks for m in (n - 1, n + 1) if 0 <= m < len(spans)):
                in_names |= toks & purge
    candidates = in_names & _NAME_CLASS_WORDS | domains
    if not candidates:
        return frozenset()
    return frozenset(t for t in candidates
                     if any(len(unit.tokens & purge) == 1 for unit in store.units_containing({t})))


def _focus_tokens(question: str) -> frozenset[str]:
    """Tokens of the question's last interrogative clause, when a preamble precedes it."""
    m = _QUESTION_TAIL.search(question.strip())
    if not m:
        return frozenset()
    focus = frozenset(tokenize(m.group(1)))
    return focus if focus and focus != frozenset(tokenize(question)) else frozenset()


@dataclass
class _PendingRedaction:
    """Hashed value tokens of the session's requests: later turns of that session
    (the assistant's confirmation, a user's "thanks") are redacted against them."""

    session_id: str
    hashes: set[str] = field(default_factory=set)


#: number words too common to purge as a value ("two" of "two trams", "three" of "three kilos")
_SMALL_NUMBERS = frozenset("one two three four five six seven eight nine ten eleven twelve".split())


@register
class EraseMem(MemorySystem):
    name = "erasemem"
    description = (
        "reference forgetting memory: mutation-time forget requests (F1-F6), whole-memory "
        "target resolution, purge of every store, hashed tombstones, deletion receipts"
    )
    supports_fork = True

    class Options(SystemOptions):
        top_k: int = Field(default=DEFAULT_TOP_K, ge=1, description="how many items retrieve() returns")
        item_text: Literal["turn", "unit"] = Field(
            default="turn", description="what an item shows: the whole (redacted) turn or the matched unit")
        empty_notice: bool | None = Field(
            default=None, description="say when nothing is found (default: on with an LLM backbone)")
        llm_hook: bool = Field(default=True, description="ask the backbone LLM whether a turn asks to forget")
        llm_first: bool = Field(default=False, description="ask the LLM before the rules, not only when they miss")
        semantic: bool = Field(
            default=False,
            description="when a request's words match no memory, take the nearest by MiniLM embedding "
                        "(needs the dense extra's MiniLM runtime)")
        semantic_detect: bool | None = Field(
            default=None,
            description="when the rules read no request, ask a classifier over MiniLM embeddings and the "
                        "words of hand-written examples (default: on with semantic)")
        meaning_words: bool = Field(
            default=True,
            description="when the rules read no request in a turn with a removal or memory word, ask a "
                        "classifier over the words of hand-written examples (no embeddings; off: rules only)")

    def __init__(self, context: SystemContext) -> None:
        super().__init__(context)
        self.top_k = int(context.options.get("top_k", DEFAULT_TOP_K))
        self.item_text = str(context.options.get("item_text", "turn"))
        if self.item_text not in ("turn", "unit"):
            raise ValueError(f"erasemem: item_text must be 'turn' or 'unit', got {self.item_text!r}")
        # an LLM reads what retrieve returns: tell it plainly when memory holds nothing
        self.empty_notice = context.flag("empty_notice", context.llm is not None)
        self._detector = None
        if context.llm is not None and context.flag("llm_hook", True):
            from bemula.systems.erasemem.llm_hook import LLMForgetHook

            self._detector = LLMForgetHook(context.llm, llm_first=context.flag("llm_first", False))
        self._semantic = None
        if context.flag("semantic", False):
            from bemula.systems.erasemem.semantic import SemanticMatcher

            self._semantic = SemanticMatcher()
        self._meaning = None
        if context.flag("semantic_detect", self._semantic is not None):
            from bemula.systems.erasemem.meaning import shared_detector

            self._meaning = shared_detector(embeddings=True)
        elif context.flag("meaning_words", True):
            from bemula.systems.erasemem.meaning import shared_detector

            self._meaning = shared_detector(embeddings=False)
        self._read_by = "rules"
        self._asking = ""  # the user turn being read for a request
        self.reset()

    # ------------------------------------------------------------------ lifecycle

    def reset(self) -> None:
        self.store = MemoryStore(index=self.context.make_index())
        self.tombstones = TombstoneSet()
        self.receipts: list[dict[str, Any]] = []
        self._pending: _PendingRedaction | None = None
        self._requests = 0
        self._turns_seen = 0

    def fork(self) -> EraseMem:
        other = object.__new__(EraseMem)
        other.context = self.context
        other.top_k = self.top_k
        other.item_text = self.item_text
        other.empty_notice = self.empty_notice
        other._detector = self._detector
        other._semantic = self._semantic
        other._meaning = self._meaning
        other._read_by = self._read_by
        other.store = self.store.copy()
        other.tombstones = self.tombstones.copy()
        other.receipts = [dict(r) for r in self.receipts]
        other._pending = (
            _PendingRedaction(self._pending.session_id, set(self._pending.hashes)) if self._pending else None
        )
        other._requests = self._requests
        other._turns_seen = self._turns_seen
        return other

    def end_session(self, session_id: str) -> None:
        if self._pending is not None and self._pending.session_id == session_id:
            self._pending = None

    # ------------------------------------------------------------------ ingestion

    def ingest(self, turn: TurnEvent) -> None:
        self._turns_seen += 1
        if self._pending is not None and self._pending.session_id != turn.session_id:
            self._pending = None
        if turn.role == "user":
            intent = self._detect(turn)
            if intent is not None:
                self._handle_request(turn, intent)
                return
            # the user's own later words are kept as said: a new, similar fact is relearning
            raw = self.store.add_turn("user", turn.session_id, turn.timestamp, turn.text)
            for sentence in split_sentences(raw.text):
                self.store.add_unit(raw, sentence)
        else:
            text = turn.text
            if self._pending is not None:
                kept = [REDACTED if is_confirmation_sentence(s) else s for s in split_sentences(text)]
                text = self._scrub(" ".join(kept))
            self.store.add_turn(turn.role, turn.session_id, turn.timestamp, text)

    def _detect(self, turn: TurnEvent) -> ForgetIntent | None:
        self._asking = turn.text
        if self._detector is not None:
            intent = self._detector.detect(turn.text, turn.timestamp)
            self._read_by = self._detector.last_method
        else:
            intent = parse_forget_request(turn.text, known=self._holds)
            self._read_by = "rules"
        # (the words-only classifier reads only turns that pass the rules' quick screen: its
        # cost on every turn would break the ingestion budget, and of the requests it reads
        # that the rules miss in the developed sets, 12 of 13 pass that screen)
        if intent is None and self._meaning is not None and (
                not self._meaning.words_only or may_be_request(turn.text)):
            # what the rules (and the LLM, if any) did not read as a request, by meaning
            intent = self._meaning.detect(turn.text, known=self._holds)
            if intent is not None:
                self._read_by = "meaning"
        return intent

    def _holds(self, phrase: str) -> bool:
        """Whether memory holds what ``phrase`` names: at least half its content words are in
        stored sentences ("the coffee" yes; "the formal tone" of a draft, no)."""
        if PERSON_ALONE.fullmatch(phrase.strip()):
            # "Zsofi asked to be taken off. Please forget her completely.": a person named in
            # the message that memory holds
            return any(self.store.df(t) for m in _NAME_IN_TEXT.finditer(self._asking) for t in tokenize(m.group(0)))
        tokens = list(dict.fromkeys(tokenize(phrase)))
        # "what he takes": a description in common words is judged by those words
        words = [t for t in tokens if t not in GENERIC] or tokens
        return bool(words) and 2 * sum(1 for t in words if self.store.df(t)) >= len(words)

    def _scrub(self, text: str) -> str:
        """Blank words of this session's forgotten values (compared by salted hash)."""
        if self._pending is None or not self._pending.hashes:
            return text
        pieces: list[str] = []
        last = 0
        for start, end, toks in word_spans(text):
            if any(self.tombstones.hash_token(t) in self._pending.hashes for t in toks):
                pieces.append(text[last:start])
                pieces.append(REDACTED)
                last = end
        pieces.append(text[last:])
        return "".join(pieces)

    def _handle_request(self, turn: TurnEvent, intent: ForgetIntent) -> None:
        self._requests += 1
        request_no = self._requests
        raw = self.store.add_turn("user", turn.session_id, turn.timestamp, FORGET_REQUEST_PLACEHOLDER)
        # ("forget the 3rd of April thing" in a memory that writes "3/4" for it and "4/3" for
        # 4 March: its dates in figures are read the way it writes them)
        order = DATE_ORDER.set(numeric_date_order([t.text for t in self.store.turns.values()]))
        try:
            resolution = resolve(intent, self.store, turn.timestamp, turn.session_id, raw.id, semantic=self._semantic)
            resolution.method = self._read_by
            receipt = self._apply(resolution, intent, request_no, turn, raw.id)
        finally:
            DATE_ORDER.reset(order)
        self.receipts.append(receipt)

    def _apply(
        self, res: Resolution, intent: ForgetIntent, request_no: int, turn: TurnEvent, request_turn_id: str
    ) -> dict[str, Any]:
        store = self.store
        removed_ids: list[str] = []
        touched_turns: set[str] = set()
        removed_texts: list[str] = []
        for uid in res.delete_units:
            unit = store.delete_unit(uid)
            if unit is not None:
                removed_ids.append(uid)
                removed_texts.append(unit.text)
                touched_turns.add(unit.turn_id)
        trimmed = 0
        for uid, (part, rest) in res.trims.items():
            removed_texts.append(part)
            turn_id = store.trim_unit(uid, part, rest)
            if turn_id is not None:
                trimmed += 1
                touched_turns.add(turn_id)
        # every other record: blank the value words (assistant echoes, incidental mentions)
        words_redacted = 0
        units_edited = 0
        # short numbers ("24" of a phone number) are everywhere: blank them only inside what
        # was deleted, never in other memories (a stored value is a sequence, not one "24")
        # (a small number, in digits or words, is in too many sentences to be one value)
        purge = frozenset(t for t in res.value_tokens if not (t.isdigit() and len(t) < 3) and t not in _SMALL_NUMBERS)
        if purge:
            shared = _shared_name_words(store, purge, removed_texts)
            # turns first: an untouched user turn is screened by its units' tokens, which
            # must still be the words it says (blanking a unit first hid its turn's value)
            for raw_turn in store.turns_containing(purge):
                tid = raw_turn.id
                count = store.redact_turn(tid, purge, shared)
                if count:
                    words_redacted += count
                    touched_turns.add(tid)
            for unit in store.units_containing(purge):
                if unit.tokens & purge and store.redact_unit(unit.id, purge, shared):
                    units_edited += 1
        # every other spelling of a removed code or number ("SV5520781" for "SV-5520-781")
        if res.code_keys:
            for unit in list(store.units.values()):
                spans = code_spans(unit.text, res.code_keys)
                if spans and store.rewrite_unit(unit.id, redact_spans(unit.text, spans, REDACTED)):
                    units_edited += 1
            for raw_turn in list(store.turns.values()):
                spans = code_spans(raw_turn.text, res.code_keys)
                if spans:
                    store.set_turn_text(raw_turn.id, redact_spans(raw_turn.text, spans, REDACTED))
                    words_redacted += len(spans)
                    touched_turns.add(raw_turn.id)
        # a value the user said again word for word ("aisle seat near the front"): the run goes
        # as one span wherever it stands, its words stay everywhere else
        if res.phrases:
            # a text holds a phrase only if it holds its rarest word: screen by those alone
            words = {min(phrase, key=store.df) for phrase in res.phrases}
            for unit in store.units_containing(words):
                spans = phrase_spans(unit.text, res.phrases) if words & unit.tokens else []
                if spans and store.rewrite_unit(unit.id, redact_spans(unit.text, spans, REDACTED)):
                    units_edited += 1
            for raw_turn in store.turns_containing(words):
                spans = phrase_spans(raw_turn.text, res.phrases)
                if spans:
                    store.set_turn_text(raw_turn.id, redact_spans(raw_turn.text, spans, REDACTED))
                    words_redacted += len(spans)
                    touched_turns.add(raw_turn.id)
        blanked = 0
        for tid in res.redact_whole_turns:
            if store.turns[tid].text != REDACTED:
                store.set_turn_text(tid, REDACTED)
                blanked += 1
                touched_turns.add(tid)

        # tombstones, in the index beside the live units (a named fact's record when it was said:
        # what the user said after it answers past it; a category's or a window's many
        # sentences keep hiding what they match best)
        named = intent.kind in (ForgetKind.FACT, ForgetKind.FACTS)
        added = {"unit": 0, "phrase": 0, "value": 0, "window": 0, "conclusion": 0}
        for kind, groups in (("unit", res.unit_ghosts), ("phrase", res.phrase_ghosts), ("value", res.value_ghosts),
                             ("window", res.window_ghosts)):
            for tokens in groups:
                head = res.ghost_heads.get(tokens, tokens[-1]) if kind == "phrase" else None
                owners = res.ghost_owners.get(tokens, ())
                stone = self.tombstones.add(kind, tokens, request_no, turn.timestamp, head=head, owners=owners,
                                            said=res.ghost_said.get(tokens) if kind == "unit" and named else None)
                if stone is not None:
                    store.index.add_tokens(stone.id, " ".join(stone.hashes), list(stone.hashes))
                    added[kind] += 1
        # F4: the conclusion's words — a ranked tombstone (a question closer to the conclusion
        # than to any kept memory gets nothing) and, when two of them match, a hard stop
        if res.conclusion_heads:
            stone = self.tombstones.add("conclusion", sorted(res.conclusion_heads), request_no, turn.timestamp)
            if stone is not None:
                store.index.add_tokens(stone.id, " ".join(stone.hashes), list(stone.hashes))
                added["conclusion"] += 1
        if len(res.conclusion_tokens) >= 2:
            if self.tombstones.add("conclusion-words", sorted(res.conclusion_tokens), request_no, turn.timestamp):
                added["conclusion"] += 1

        # the request's own statements (F6 new value, chit-chat) are kept, minus the values
        value_hashes = {self.tombstones.hash_token(t) for t in res.value_tokens}
        if self._pending is None or self._pending.session_id != turn.session_id:
            self._pending = _PendingRedaction(turn.session_id)
        self._pending.hashes |= value_hashes
        kept_units = 0
        if res.statements or res.rewrites:
            text = self._scrub(" ".join(res.statements))
            raw = store.turns[request_turn_id]
            store.set_turn_text(request_turn_id, " ".join([FORGET_REQUEST_PLACEHOLDER, text, *res.rewrites]))
            joined = text if intent.kind == ForgetKind.REPLACEMENT else None
            pieces = ([joined] if joined else split_sentences(text)) + list(res.rewrites)
            for sentence in pieces:
                if store.add_unit(raw, sentence) is not None:
                    kept_units += 1

        return {
            "request_no": request_no,
            "session_id": turn.session_id,
            "timestamp": turn.timestamp.isoformat(),
            "request_kind": intent.kind.value,
            "method": res.method,
            "targets": len(intent.targets) or len(intent.categories),
            "removed": {
                "units": len(removed_ids),
                "index_entries": len(removed_ids),
                "units_edited": units_edited,
                "units_trimmed": trimmed,
                "turns_redacted": len(touched_turns),
                "turn_words_redacted": words_redacted,
                "assistant_turns_blanked": blanked,
                "request_turn": 1,
            },
            "tombstones_added": added,
            "unit_ids": removed_ids,
            "turn_ids": sorted(touched_turns),
            "kept_units_from_request": kept_units,
            "resolved_by_meaning": res.by_meaning,
        }

    # ------------------------------------------------------------------ retrieval

    def retrieve(self, question: str, timestamp: datetime | None = None) -> list[RetrievedItem]:
        """Best live units for ``question``; when there are none, the content-free notice.

        An empty MEMORY section is not enough for a small LLM: asked "you have my move-in
        month down as January 2023, right?" with nothing retrieved, the embedded 1.5B said
        "Yes." (docs/erasemem.md). So with an LLM reading the items (``empty_notice``, on by
        default with an LLM backbone, off with the probe, which needs no telling) an empty
        result becomes one item saying that memory holds nothing on this and the answer must
        not guess or confirm. The notice is the same whether the topic was forgotten or never
        stated, so it reveals neither what was removed nor that anything was.
        """
        items = self._retrieve_units(question)
        if not items and self.empty_notice:
            return [RetrievedItem(text=EMPTY_NOTICE, store="notice", id="notice")]
        return items

    def _retrieve_units(self, question: str) -> list[RetrievedItem]:
        """Best live units for ``question`` — or nothing, when it is about something forgotten.

        Candidates (live units and tombstones) come from BM25 over both; they are then ranked
        by the IDF-weighted share of the question they match, then by recency: a fact stated
        *after* the request beats the tombstone (relearning, F6's new value). A tombstone
        must match the question better than a kept unit to hide it; on an equal match the
        kept unit answers (issue 16: tombstones never hide what was kept), unless it is
        someone else's thing and the question the user's.
        """
        q_tokens = sorted(set(tokenize(question)))
        if not q_tokens:
            return []
        by_hash = {self.tombstones.hash_token(t): t for t in q_tokens}
        if self._suppressed_conclusion(set(by_hash)):
            return []
        focus = _focus_tokens(question)
        stone_terms = list(by_hash) if self.tombstones.items else []
        hits = self.store.index.search_tokens(question, [*q_tokens, *stone_terms], k=SEARCH_DEPTH)
        if focus:  # a preamble (role-play, "override", context) must not crowd out the question
            focus_terms = [*sorted(focus), *(h for h, t in by_hash.items() if t in focus and stone_terms)]
            seen = {h.id for h in hits}
            hits += [h for h in self.store.index.search_tokens(" ".join(sorted(focus)), focus_terms, k=SEARCH_DEPTH)
                     if h.id not in seen]
        if not hits:
            return []
        n_docs = max(len(self.store.index), 1)

        def idf(token: str, token_hash: str) -> float:
            df = self.store.doc_freq.get(token, 0) + self.tombstones.doc_freq.get(token_hash, 0)
            return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))

        weights = {t: idf(t, h) for h, t in by_hash.items()}
        q_owners = {self.tombstones.hash_token(t) for t in owners_of(question)}
        self_hash = self.tombstones.hash_token(SELF)
        ranked: list[tuple[float, float, float, float, str]] = []
        for hit in hits:
            stone = self.tombstones.items.get(hit.id)
            half: set[str] | frozenset[str] = set()  # words that count ``half_weight`` of their idf
            half_weight = 0.5
            matched: set[str] | frozenset[str]
            if stone is not None:
                if not _same_owner(q_owners, stone.owners, set(by_hash), self_hash):
                    continue  # "Jonas's number" is not asked of the user's deleted number
                matched = {by_hash[h] for h in stone.hashes if h in by_hash}
                half = {by_hash[h] for h in stone.discounted if h in by_hash}
                when = stone.when.timestamp() if stone.when else 0.0
            else:
                unit = self.store.units.get(hit.id)
                if unit is None:
                    continue
                matched = unit.tokens.intersection(q_tokens)
                when = unit.timestamp.timestamp()
                # the rest of its (redacted) turn: what the sentence is about, said before it
                half = self.store.turns[unit.turn_id].token_set().intersection(q_tokens) - matched
                half_weight = TURN_CONTEXT_WEIGHT
                matched = matched | half
            coverage = sum(weights[t] * (half_weight if t in half else 1.0) for t in matched)
            if stone is not None and stone.kind == "window":
                # a window's sentences were many and about many things: one of them must
                # match the question better than anything kept, not just as well
                coverage *= WINDOW_TIE_LOSS
            focused = (sum(weights[t] * (half_weight if t in half else 1.0) for t in matched if t in focus)
                       * (WINDOW_TIE_LOSS if stone is not None and stone.kind == "window" else 1.0)) if focus else coverage
            ranked.append((-round(focused, 6), -round(coverage, 6), -when, -hit.score, hit.id))
        ranked.sort()
        stones = self.tombstones.items
        q_about_others = about_someone_else(question)

        def speaks_for_question(doc_id: str) -> bool:
            """A kept unit that may answer instead of a tombstone it ties with: any, unless
            it is someone else's thing and the question the user's ("Jonas's number" or
            "my mum's GP" is no answer to "my number", "my GP")."""
            return doc_id not in stones and (q_about_others or not names_someone_elses(self.store.units[doc_id].text))

        chosen: list[tuple[str, float]] = []
        for pos, (focused_key, coverage_key, _, neg_score, doc_id) in enumerate(ranked):
            if doc_id in stones:
                # the question is closer to something forgotten than to what follows — but a
                # tombstone must match it *better* than a kept fact to hide it: "Where does
                # Priyanka work?" matches her deleted birthday's tombstone and her kept job
                # alike, and the job answers it. Nor does it hide what the user said after
                # the forgotten statement and kept, matching the question half as well: "I've
                # switched banks, salary now goes to Corrie Mutual" is the answer once "the
                # Halden details" are purged, not the Halden account's tombstone
                said = stones[doc_id].said
                chosen += [(d, -s) for f, c, _, s, d in ranked[pos + 1:]
                           if speaks_for_question(d) and ((f, c) == (focused_key, coverage_key) or (
                               said is not None and self.store.units[d].timestamp > said
                               and f <= NEWER_SHARE * focused_key))]
                break
            chosen.append((doc_id, -neg_score))

        items: list[RetrievedItem] = []
        seen_turns: set[str] = set()
        for doc_id, score in chosen:
            unit = self.store.units[doc_id]
            if self.item_text == "turn":
                if unit.turn_id in seen_turns:
                    continue
                seen_turns.add(unit.turn_id)
                text = self.store.turns[unit.turn_id].text.replace(FORGET_REQUEST_PLACEHOLDER, "").strip()
            else:
                text = unit.text
            items.append(RetrievedItem(text=text, score=score, store="units", id=unit.id,
                                       timestamp=unit.timestamp))
            if len(items) >= self.top_k:
                break
        return items

    def _suppressed_conclusion(self, question_hashes: set[str]) -> bool:
        """F4: the question names a conclusion the user asked us not to draw."""
        for stone in self.tombstones.of_kind("conclusion-words"):
            if len(question_hashes & set(stone.hashes)) >= 2:
                return True
        return False

    # ------------------------------------------------------------------ audit & stats

    def dump(self) -> list[StoreRecord]:
        records = [StoreRecord("turns", t.id, f"{t.role}: {t.text}") for t in self.store.turns.values()]
        records += [StoreRecord("units", u.id, u.text) for u in self.store.units.values()]
        records += [StoreRecord("tombstones", s.id, f"{s.kind}: {' '.join(s.hashes)}")
                    for s in self.tombstones.items.values()]
        records += [StoreRecord("receipts", f"r{r['request_no']}", json.dumps(r, sort_keys=True))
                    for r in self.receipts]
        return records

    def stats(self) -> dict[str, Any]:
        return {
            "turns": len(self.store.turns),
            "units": len(self.store.units),
            "index_entries": len(self.store.index),
            "tombstones": len(self.tombstones.items),
            "requests_detected": self._requests,
            "llm_hook": (
                {"calls": self._detector.calls, "failures": self._detector.failures}
                if self._detector is not None else None
            ),
            "receipts": list(self.receipts),
        }
