# Generated from agentx_memory/api/profile_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for profile memory. Async source of ``api/profile.py``."""

from __future__ import annotations

from .core import FacadeCore

__all__ = ["ProfileApi"]


class ProfileApi(FacadeCore):
    """Profile methods of ``AgentMemory`` (filled in by the memory-types issue)."""
