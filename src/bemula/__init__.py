"""bemula: the BEMULA memory-unlearning benchmark, harness and reference stack."""

from __future__ import annotations

__version__ = "0.1.0"
