"""Check a dataset folder against every invariant of SPEC §1 (``bemula validate``).

Synthetic data carries label errors — a target never stated, a control version that differs
somewhere else too, a probe asked with other words — and each one silently biases a metric.
So the validator checks everything a metric relies on and reports each violation with the
file, a JSON location inside it (``$.forget.sessions[2].turns[5].text``), a stable code and
a one-line message. It streams: one instance file is read, parsed and checked at a time.

Layout: ``folder`` (manifest, checksums, counts, Lite ids, unlisted files) streams each file
through ``instance.validate_instance``, which runs the checks of ``dialogue``, ``requests``
and ``questions`` over an ``InstanceContext`` (indexes built once per instance, ``context``);
``report`` holds the ``Violation`` and ``ValidationReport`` types.

The invariants, by code (``docs/dataset-format.md`` explains the format they protect). Codes
marked *(warning)* are wording heuristics (``report.WARNING_CODES``): reported, but they fail
validation only with ``strict=True`` (``bemula validate --strict``); every other code is an
error, and ``bemula run`` refuses a dataset with any error:

==================== ==========================================================================
code                 meaning
==================== ==========================================================================
json                 a file is not valid JSON (location = line and column)
schema               a file does not match the data model (location = JSON path)
file-missing         a file listed in the manifest does not exist
file-type            a listed file is not a readable regular file (directory, pipe, loop, size)
unlisted-file        a file in the dataset folder is not listed in the manifest
manifest-entry       manifest entry disagrees with its instance (id, tier, path, duplicates)
checksum             an instance file's sha256 differs from the manifest's
manifest-checksum    the manifest's dataset checksum is not the one its entries give
manifest-count       a count in the manifest differs from the files
lite-ids             Lite ids are not exactly the short + medium instances
format-version       the manifest's format version is not one this package reads
duplicate-id         two facts / sessions / turns / requests / questions share an id
unknown-ref          an id refers to nothing (fact, request, session, turn, question)
derived-source       a derived fact's sources are not >= 2 distinct atomic facts
version-misaligned   forget and control differ in sessions, turn ids, roles or timestamps
version-differs      forget and control differ outside a request <-> neutral exchange
segment              segment / request_id annotations inconsistent with the version
request-turn         a request's turn is not a user turn marked segment=request for it
request-text         a request's text is not the text of its turn
request-wording      (warning) a request's text has no removal verb (forget, delete, erase, remove, ...)
request-type         the request's fields do not fit its type (targets, new value, ...)
target-not-stated    a target (F4: a source) is not stated in a session before the request
derived-stated       a derived conclusion is annotated as stated in the dialogue
fact-unstated        an atomic fact is never stated in the dialogue
fact-value           (warning) a fact's statement, or a turn said to state it, lacks its value and aliases
                     (compared in the judge's normal form: numbers, dates, ordinals)
restated             a turn after a request is annotated as stating a removed target
value-mentioned      (warning) a turn after a request contains a removed value's words (not annotated)
f3-category          an F3 request's category is missing or does not match its targets
f3-incomplete        a fact of the F3 category stated before the request is not a target
f5-window            an F5 window is missing, inverted, after the request, or misses a target
f5-incomplete        a fact stated only inside the F5 window is not a target
f6-new-value         an F6 request has no new value
f6-wording           (warning) an F6 request's text does not contain its new value (normalised)
relearning           a relearning fact is not stated (only) after its request
question-version     a question is on the wrong version for its suite
question-ref         a question lacks, or has the wrong, request / fact for its suite
question-leak        (warning) a question (other than a boolean attack) contains its own fact's value
value-clash          a forget-version question expects a value another question protects
preservation-target  a preservation question asks about a fact some request removes
probe                a control probe is missing, differs from its question, or does not link back
frame                a frame on a non-attack question, or an attack question without one
gold                 gold kind wrong for the suite; nothing accepted/protected; a form both accepted
                     and protected
gold-forms           (warning) accepted forms not (part of) the fact's value/aliases; protected forms that
                     do not cover every alias; an F6 question not accepting the new value
timestamp            timestamps decrease within a session or sessions are out of order
duplicate-filler     (warning) a filler turn repeats another turn of the instance verbatim
==================== ==========================================================================
"""

from __future__ import annotations

from bemula.validate.folder import validate_dataset
from bemula.validate.instance import validate_instance
from bemula.validate.report import ValidationReport, Violation

__all__ = ["ValidationReport", "Violation", "validate_dataset", "validate_instance"]
