"""LLM access: one OpenAI-compatible client (retries, timeout, JSON, bounded concurrency,
token and latency accounting), a persistent SQLite request cache, the embedded local model
(llama.cpp server on loopback over weights shipped in registry packages), and a fault-
injecting fake server for tests. See docs/llm.md."""

from __future__ import annotations

from bemula.llm.client import ChatResult, LLMClient, LLMConfig, LLMError, LLMUnavailable

__all__ = ["ChatResult", "LLMClient", "LLMConfig", "LLMError", "LLMUnavailable", "open_llm"]


def __getattr__(name: str):  # lazy: backends pulls in the local-model machinery
    if name == "open_llm":
        from bemula.llm.backends import open_llm

        return open_llm
    raise AttributeError(name)
