"""bemula: the BEMULA memory-unlearning benchmark, harness and reference stack.

``bemula.evaluate()`` (``bemula.pipeline``) runs the whole chain as a library call; the
``bemula`` command is a shell over the same functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["EvalResult", "__version__", "evaluate"]

if TYPE_CHECKING:  # pragma: no cover
    from bemula.pipeline import EvalResult, evaluate


def __getattr__(name: str) -> Any:
    """``bemula.evaluate`` without importing the whole harness on ``import bemula``."""
    if name in ("evaluate", "EvalResult"):
        from bemula import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module 'bemula' has no attribute {name!r}")
