"""Facade methods for profile memory. Async source of ``api/profile.py``."""

from __future__ import annotations

from .core_async import AsyncFacadeCore

__all__ = ["AsyncProfileApi"]


class AsyncProfileApi(AsyncFacadeCore):
    """Profile methods of ``AsyncAgentMemory`` (filled in by the memory-types issue)."""
