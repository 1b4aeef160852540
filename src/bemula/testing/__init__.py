"""Test helpers shared by every area: a tiny, hand-written, valid dataset (``tiny``)."""

from __future__ import annotations

from bemula.testing.tiny import tiny_instances, write_tiny_dataset

__all__ = ["tiny_instances", "write_tiny_dataset"]
