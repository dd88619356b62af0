"""Facade methods for semantic memory. Async source of ``api/semantic.py``."""

from __future__ import annotations

from .core_async import AsyncFacadeCore

__all__ = ["AsyncSemanticApi"]


class AsyncSemanticApi(AsyncFacadeCore):
    """Semantic methods of ``AsyncAgentMemory`` (filled in by the memory-types issue)."""
