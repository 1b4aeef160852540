"""Adapters that drive third-party memory systems through the protocol: the paper's, and
the ones people use today.

One module per package (``mem0``, ``simplemem``, ``amem``, ``langmem``, ``lightmem``,
``graphiti``). Each
imports its package lazily: when the package is missing the module registers the system as
unavailable with its install hint, so ``bemula systems`` lists it instead of failing.
"""
