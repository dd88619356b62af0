# Generated from agentx_memory/api/goals_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for goals memory. Async source of ``api/goals.py``."""

from __future__ import annotations

from .core import FacadeCore

__all__ = ["GoalsApi"]


class GoalsApi(FacadeCore):
    """Goals methods of ``AgentMemory`` (filled in by the memory-types issue)."""
