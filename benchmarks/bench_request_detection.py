"""How well erasemem's rules read forget requests written by people, per request type.

Each line of a TSV file is ``kind <TAB> word <TAB> message``: the request type (F1–F6, or
``NO`` for a message that is not a request), a word the parsed targets must hold (``-``
for none) and the message. A request counts as **read right** when it is detected, typed
right and its targets hold the word; a ``NO`` line counts when nothing is detected.

The default file is the held-out half of a set written by an author who had not seen the
rules (``tests/systems/erasemem/data/heldout_requests.tsv``): it was never used to write or
tune them, so it says how the rules carry over to wording they were not built on. So are
``heldout_2026-12-07c.tsv`` (minimal pairs) and ``heldout_2026-12-07d.tsv`` (type
boundaries) and ``heldout_2026-12-07e.tsv`` (three more writers: casual texting, non-native
and formal writers, hard non-requests), the unread halves of sets whose other halves
(``written_2026-12-07c.tsv``, ``written_2026-12-07d.tsv``, ``written_2026-12-07e.tsv``) were
developed on, as were ``written_2026-12-07.tsv``, ``written_2026-12-07b.tsv``,
``requests.tsv`` and ``not_requests.txt``.

With ``--meaning``, what the rules do not read is read by erasemem's classifier over MiniLM
embeddings too (``-o semantic_detect=true``, ``meaning.py``), as the system does; its
training files (``src/bemula/systems/erasemem/data/meaning_*``) share no message with these.
With ``--words``, by the same classifier's words alone, asked only about messages that pass
the rules' quick screen: erasemem's default (``-o meaning_words=true``).

Usage::

    python benchmarks/bench_request_detection.py [FILE.tsv ...] [--show] [--meaning | --words]
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from bemula.systems.erasemem.intent import may_be_request, parse_forget_request

if TYPE_CHECKING:
    from bemula.systems.erasemem.meaning import MeaningDetector

DATA = Path(__file__).resolve().parent.parent / "tests" / "systems" / "erasemem" / "data"


def rows(path: Path) -> list[tuple[str, str, str]]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise SystemExit(f"{path}:{number}: expected kind<TAB>word<TAB>message, got {len(parts)} columns")
        out.append((parts[0], parts[1], parts[2]))
    return out


def measure(path: Path, show: bool, meaning: MeaningDetector | None = None, screened: bool = False) -> None:
    right: Counter[str] = Counter()
    detected: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for kind, word, text in rows(path):
        total[kind] += 1
        intent = parse_forget_request(text)
        if intent is None and meaning is not None and (not screened or may_be_request(text)):
            intent = meaning.detect(text)
        if kind == "NO":
            ok = intent is None
        else:
            detected[kind] += intent is not None
            ok = intent is not None and intent.kind.value == kind and (
                word == "-" or any(word in t.lower() for t in [*intent.targets, intent.time_phrase]))
        right[kind] += ok
        if show and not ok:
            got = "nothing" if intent is None else f"{intent.kind.value} {intent.targets}"
            print(f"  miss {kind} ({word}): {got} | {text[:120]}")
    print(f"{path}")
    print(f"  {'kind':<5} {'read right':>11} {'detected':>9}")
    for kind in sorted(total):
        share = f"{right[kind]}/{total[kind]}"
        found = "" if kind == "NO" else f"{detected[kind]}/{total[kind]}"
        print(f"  {kind:<5} {share:>11} {found:>9}")
    requests = [k for k in total if k != "NO"]
    n = sum(total[k] for k in requests)
    if n:
        print(f"  requests read right {sum(right[k] for k in requests)}/{n} "
              f"({100 * sum(right[k] for k in requests) / n:.0f}%), detected {sum(detected[k] for k in requests)}/{n}")
    if total["NO"]:
        print(f"  non-requests left alone {right['NO']}/{total['NO']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DATA / "heldout_requests.tsv"])
    parser.add_argument("--show", action="store_true", help="print every message read wrong")
    parser.add_argument("--meaning", action="store_true",
                        help="what the rules miss, read by meaning too (erasemem's semantic_detect; needs MiniLM)")
    parser.add_argument("--words", action="store_true",
                        help="what the rules miss in a screened message, read by the classifier's words alone "
                             "(erasemem's default)")
    args = parser.parse_args()
    if args.meaning and args.words:
        parser.error("--meaning and --words are two readers: choose one")
    meaning = None
    if args.meaning or args.words:
        from bemula.systems.erasemem.meaning import MeaningDetector

        meaning = MeaningDetector(embeddings=args.meaning)
    for path in args.files:
        measure(path, args.show, meaning, screened=args.words)


if __name__ == "__main__":
    main()
