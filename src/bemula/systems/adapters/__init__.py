"""Adapters that drive the paper's third-party memory systems through the protocol.

One module per package (``mem0``, ``simplemem``, ``amem``, ``langmem``, ``lightmem``). Each
imports its package lazily: when the package is missing the module registers the system as
unavailable with its install hint, so ``bemula systems`` lists it instead of failing.
"""
