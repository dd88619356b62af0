# Generated from agentx_memory/api/semantic_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for semantic memory. Async source of ``api/semantic.py``."""

from __future__ import annotations

from .core import FacadeCore

__all__ = ["SemanticApi"]


class SemanticApi(FacadeCore):
    """Semantic methods of ``AgentMemory`` (filled in by the memory-types issue)."""
