"""Facade methods for goals memory. Async source of ``api/goals.py``."""

from __future__ import annotations

from .core_async import AsyncFacadeCore

__all__ = ["AsyncGoalsApi"]


class AsyncGoalsApi(AsyncFacadeCore):
    """Goals methods of ``AsyncAgentMemory`` (filled in by the memory-types issue)."""
