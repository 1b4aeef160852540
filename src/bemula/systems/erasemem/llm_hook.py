"""Placeholder until the LLM hook is written (see system.py)."""
