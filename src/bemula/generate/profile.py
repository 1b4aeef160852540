"""Build one synthetic user: name, atomic facts with values and statements, derived facts.

Stage function :func:`build_profile` returns plain :class:`bemula.model.Profile` objects,
so an LLM pipeline can produce (or rewrite) profiles in the same shape. Values are chosen
so that no value or alias of one fact overlaps another's (a judge looking for one fact's
protected value must not fire on a different fact).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bemula.generate.catalog import (
    ATTRIBUTE_BY_KEY,
    ATTRIBUTES,
    CATEGORIES,
    Attribute,
    Value,
    attributes_in,
)
from bemula.generate.derived import DERIVED_TEMPLATES, DerivedTemplate
from bemula.generate.phrasing import GENERIC_CORES, STATEMENT_LEADS, STATEMENT_TAILS, pick, upper_first
from bemula.model import DerivedFact, Fact, Profile, Sensitivity
from bemula.text import plain

FIRST_NAMES = ("Maya", "Jonas", "Amara", "Lukas", "Noor", "Elif", "Mateo", "Freya", "Kofi", "Aiko", "Sven",
               "Lucia", "Ravi", "Hanna", "Omar", "Zara", "Emil", "Chiara", "Idris", "Mirela", "Tomasz",
               "Leila", "Bram", "Anouk", "Kenji", "Sofia", "Dario", "Ines", "Nils", "Yara")
LAST_NAMES = ("Janssen", "Moreau", "Okafor", "Lindberg", "Rossi", "Novak", "Haddad", "Fischer", "Sato",
              "Costa", "Kowalczyk", "Berg", "Mendes", "Dubois", "Nakamura", "Petrov", "Silva", "Visser",
              "Horvat", "Keller", "Brennan", "Aalto", "Duarte", "Ferreira", "Olsen")

#: share of atomic facts with medium/high sensitivity (paper: 1,056 of 2,993)
SENSITIVE_SHARE = 0.343  # tuned so sources + relearning facts land on 1,056 / 2,993
#: unused attributes kept free in every category, for relearning facts
RELEARN_RESERVE = 2


@dataclass
class ValueRegistry:
    """Every value form used in one instance, to keep them mutually non-overlapping."""

    forms: list[str] = field(default_factory=list)

    def clashes(self, value: Value) -> bool:
        for form in value.forms:
            f = f" {plain(form)} "
            for other in self.forms:
                o = f" {other} "
                if f in o or o in f:
                    return True
        return False

    def add(self, value: Value) -> None:
        self.forms.extend(plain(f) for f in value.forms)


def statement_for(rng: random.Random, attr: Attribute, value: str) -> str:
    """One sentence that states a fact, from a lead, a core and a tail."""
    cores = attr.cores + (GENERIC_CORES if attr.use_generic else ())
    core = pick(rng, cores).format(noun=attr.noun, v=value)
    lead = pick(rng, STATEMENT_LEADS)
    text = lead + core if lead else upper_first(core)
    return text + pick(rng, STATEMENT_TAILS)


def pick_value(rng: random.Random, attr: Attribute, registry: ValueRegistry, exclude: tuple[str, ...] = ()) -> Value | None:
    options = [v for v in attr.values if v.text not in exclude and not registry.clashes(v)]
    if not options:
        return None
    return options[rng.randrange(len(options))]


@dataclass
class ProfileBuilder:
    """Accumulates facts for one user; ids are assigned in creation order."""

    rng: random.Random
    registry: ValueRegistry = field(default_factory=ValueRegistry)
    facts: list[Fact] = field(default_factory=list)
    derived: list[DerivedFact] = field(default_factory=list)
    used_attributes: set[str] = field(default_factory=set)

    def add_fact(self, attr: Attribute, value: Value, relearns: str | None = None) -> Fact:
        fact = Fact(
            id=f"A{len(self.facts) + 1:03d}",
            category=attr.category,
            attribute=attr.key,
            value=value.text,
            aliases=list(value.aliases),
            sensitivity=attr.sensitivity,
            statement=statement_for(self.rng, attr, value.text),
            relearns=relearns,
        )
        self.registry.add(value)
        self.used_attributes.add(attr.key)
        self.facts.append(fact)
        return fact

    def add_derived(self, template: DerivedTemplate) -> bool:
        if any(k in self.used_attributes for k in template.source_keys):
            return False
        for _attempt in range(30):
            d = template.derive(self.rng)
            values = [*d.sources.values(), d.conclusion]
            trial = ValueRegistry(list(self.registry.forms))
            ok = True
            for v in values:
                if trial.clashes(v):
                    ok = False
                    break
                trial.add(v)
            if ok:
                break
        else:
            return False
        source_ids = [self.add_fact(ATTRIBUTE_BY_KEY[k], d.sources[k]).id for k in template.source_keys]
        self.registry.add(d.conclusion)
        self.derived.append(DerivedFact(
            id=f"D{len(self.derived) + 1:02d}",
            category=template.category,
            attribute=template.key,
            value=d.conclusion.text,
            aliases=list(d.conclusion.aliases),
            sensitivity=template.sensitivity,
            statement=template.statement.format(v=d.conclusion.text),
            source_fact_ids=source_ids,
            rationale=d.rationale,
        ))
        return True

    def profile(self, user: dict[str, str]) -> Profile:
        return Profile(user=user, facts=list(self.facts), derived_facts=list(self.derived))

    def free_attributes(self, category: str | None = None) -> list[Attribute]:
        pool = attributes_in(category) if category else list(ATTRIBUTES)
        return [a for a in pool if not a.derived_only and a.key not in self.used_attributes]


def build_profile(rng: random.Random, n_facts: int, n_derived: int,
                  templates: Sequence[DerivedTemplate] | None = None) -> tuple[dict[str, str], ProfileBuilder]:
    """User attributes and a builder holding ``n_facts`` atomic facts (derived sources
    included) and ``n_derived`` derived facts. The builder is returned (not a finished
    :class:`Profile`) so later stages add relearning facts under the same value registry;
    :meth:`ProfileBuilder.profile` makes the final model. ``templates``: the derived
    templates to draw from, in the order to try them (default: edition 1's, shuffled)."""
    first = pick(rng, FIRST_NAMES)
    last = pick(rng, LAST_NAMES)
    b = ProfileBuilder(rng)
    # the user's name is a value too: filler addresses the user by it
    b.registry.add(Value(first))
    b.registry.add(Value(f"{first} {last}"))

    if templates is None:
        templates = list(DERIVED_TEMPLATES)
        rng.shuffle(templates)
    for template in templates:
        if len(b.derived) >= n_derived:
            break
        b.add_derived(template)

    n_sensitive = round(SENSITIVE_SHARE * n_facts)
    have_sensitive = sum(1 for f in b.facts if f.sensitivity != Sensitivity.LOW)
    reserve = {c.key: RELEARN_RESERVE for c in CATEGORIES}

    def candidates(sensitive: bool) -> list[Attribute]:
        out = []
        for a in b.free_attributes():
            if (a.sensitivity != Sensitivity.LOW) != sensitive:
                continue
            if len(b.free_attributes(a.category)) <= reserve[a.category]:
                continue
            out.append(a)
        return out

    while len(b.facts) < n_facts:
        want_sensitive = have_sensitive < n_sensitive
        pool = candidates(want_sensitive) or candidates(not want_sensitive)
        if not pool:
            reserve = {k: max(0, r - 1) for k, r in reserve.items()}
            if not any(reserve.values()) and not candidates(True) and not candidates(False):
                break
            continue
        attr = pool[rng.randrange(len(pool))]
        value = pick_value(rng, attr, b.registry)
        if value is None:
            b.used_attributes.add(attr.key)  # no compatible value: skip this attribute
            continue
        fact = b.add_fact(attr, value)
        if fact.sensitivity != Sensitivity.LOW:
            have_sensitive += 1

    age = 2026 - int(next((f.value for f in b.facts if f.attribute == "birth_year"), str(rng.randint(1975, 2000))))
    user = {"name": f"{first} {last}", "first_name": first, "age": str(age)}
    return user, b
