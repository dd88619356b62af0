# Generated from agentx_memory/api/channels_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for channels and promotion to ``_global``. Async source of ``api/channels.py``."""

from __future__ import annotations

from .core import FacadeCore

__all__ = ["ChannelsApi"]


class ChannelsApi(FacadeCore):
    """Promotion of project facts to ``_global`` (filled in by the memory-types issue)."""
