"""Facade methods for procedural memory. Async source of ``api/procedural.py``."""

from __future__ import annotations

from .core_async import AsyncFacadeCore

__all__ = ["AsyncProceduralApi"]


class AsyncProceduralApi(AsyncFacadeCore):
    """Procedural methods of ``AsyncAgentMemory`` (filled in by the memory-types issue)."""
