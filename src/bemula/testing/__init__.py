"""Test support shared by every area; the product never imports it (``tests/test_layout.py``).

* ``tiny`` – a tiny, hand-written, valid dataset;
* ``corrupt`` – corrupt and hostile variants of it;
* ``samples`` – hand-made run folders over it (answers, verdicts);
* ``fake_server`` – a fault-injecting OpenAI-compatible HTTP server on loopback;
* ``scripted`` – a scripted LLM that answers the memory packages' real prompts.

Only ``tiny`` is imported here, so ``import bemula.testing`` stays light.
"""

from __future__ import annotations

from bemula.testing.tiny import tiny_instances, write_tiny_dataset

__all__ = ["tiny_instances", "write_tiny_dataset"]
