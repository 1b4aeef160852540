"""What a validation run produces: violations (file, JSON location, code, message) and a
report that counts what was checked.

Every code has a severity. **Errors** are what makes scoring wrong or a run unsafe (schema,
ids and references, version alignment, targets stated before their request, probes, gold
kinds, paths, checksums): ``bemula run`` refuses a dataset with any. **Warnings** are
heuristics about wording — a request without a listed removal verb, a turn that writes a
value in a form the normaliser does not recognise, accepted forms that are not the fact's
value or aliases — which hand-written data legitimately trips; ``--strict`` makes them fail
too (the generator's own tests use it, since its templates have no excuse)."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]

#: the heuristic codes; every other code is an error
WARNING_CODES: frozenset[str] = frozenset({
    "request-wording",   # no removal verb from the list: people also say "take that off your notes"
    "fact-value",        # a turn/statement writes the value in a form the normaliser does not match
    "value-mentioned",   # a later turn contains a removed value's words without being annotated as stating it
    "gold-forms",        # accepted/protected forms are not exactly the fact's value and aliases
    "question-leak",     # a question contains words of its own answer
    "f6-wording",        # an F6 request's text does not contain its new value as written
    "duplicate-filler",  # an ordinary turn repeats another verbatim
})


def severity_of(code: str) -> Severity:
    return "warning" if code in WARNING_CODES else "error"


@dataclass(frozen=True)
class Violation:
    """One broken invariant: where (file + JSON location), which rule (code) and why."""

    file: str
    location: str
    code: str
    message: str

    @property
    def severity(self) -> Severity:
        return severity_of(self.code)

    def __str__(self) -> str:
        mark = "warning: " if self.severity == "warning" else ""
        return f"{self.file}: {self.location}: [{self.code}] {mark}{self.message}"


@dataclass
class ValidationReport:
    root: str
    violations: list[Violation] = field(default_factory=list)
    instances: int = 0
    turns_per_version: int = 0
    questions: int = 0
    truncated: bool = False
    strict: bool = False  # warnings fail too

    @property
    def errors(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "error"]

    @property
    def warnings(self) -> list[Violation]:
        return [v for v in self.violations if v.severity == "warning"]

    @property
    def ok(self) -> bool:
        """No errors (with ``strict``: no violations at all)."""
        return not (self.violations if self.strict else self.errors)

    def by_code(self) -> dict[str, int]:
        return dict(sorted(Counter(v.code for v in self.violations).items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "ok": self.ok,
            "strict": self.strict,
            "instances": self.instances,
            "turns_per_version": self.turns_per_version,
            "questions": self.questions,
            "errors": len(self.errors),
            "warnings": len(self.warnings),
            "violations": [{**asdict(v), "severity": v.severity} for v in self.violations],
            "violations_by_code": self.by_code(),
            "truncated": self.truncated,
        }
