"""Facade methods for channels and promotion to ``_global``. Async source of ``api/channels.py``."""

from __future__ import annotations

from .core_async import AsyncFacadeCore

__all__ = ["AsyncChannelsApi"]


class AsyncChannelsApi(AsyncFacadeCore):
    """Promotion of project facts to ``_global`` (filled in by the memory-types issue)."""
