"""What a validation run produces: violations (file, JSON location, code, message) and a
report that counts what was checked."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Violation:
    """One broken invariant: where (file + JSON location), which rule (code) and why."""

    file: str
    location: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.location}: [{self.code}] {self.message}"


@dataclass
class ValidationReport:
    root: str
    violations: list[Violation] = field(default_factory=list)
    instances: int = 0
    turns_per_version: int = 0
    questions: int = 0
    truncated: bool = False

    @property
    def ok(self) -> bool:
        return not self.violations

    def by_code(self) -> dict[str, int]:
        return dict(sorted(Counter(v.code for v in self.violations).items()))

    def to_json(self) -> dict[str, Any]:
        return {
            "root": self.root,
            "ok": self.ok,
            "instances": self.instances,
            "turns_per_version": self.turns_per_version,
            "questions": self.questions,
            "violations": [asdict(v) for v in self.violations],
            "violations_by_code": self.by_code(),
            "truncated": self.truncated,
        }
