"""``validate_instance``: every within-instance invariant, in a fixed order."""

from __future__ import annotations

from bemula.model import Instance, Version
from bemula.validate.context import InstanceContext
from bemula.validate.dialogue import (
    check_alignment,
    check_derived,
    check_facts_stated,
    check_filler,
    check_timestamps,
    check_turn_annotations,
    check_unique_ids,
)
from bemula.validate.questions import check_questions
from bemula.validate.report import Violation
from bemula.validate.requests import (
    check_not_restated,
    check_relearning_facts,
    check_request,
)


def validate_instance(instance: Instance, file: str) -> list[Violation]:
    """Every within-instance invariant; ``file`` is only used to label the violations."""
    ctx = InstanceContext(instance, file)
    check_unique_ids(ctx)
    check_derived(ctx)
    check_timestamps(ctx, Version.FORGET)
    check_timestamps(ctx, Version.CONTROL)
    check_turn_annotations(ctx)
    check_alignment(ctx)
    check_facts_stated(ctx)
    for i, r in enumerate(instance.requests):
        check_request(ctx, i, r)
    check_relearning_facts(ctx)
    check_not_restated(ctx)
    check_questions(ctx)
    check_filler(ctx)
    return ctx.out
