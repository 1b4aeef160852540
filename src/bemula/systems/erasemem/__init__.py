"""erasemem — the reference memory system that forgets on request (issue #6).

Importing the package registers the system as ``erasemem`` (``bemula run --system erasemem``).
"""

from __future__ import annotations

from bemula.systems.erasemem.system import EraseMem

__all__ = ["EraseMem"]
