# Generated from agentx_memory/api/procedural_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods for procedural memory. Async source of ``api/procedural.py``."""

from __future__ import annotations

from .core import FacadeCore

__all__ = ["ProceduralApi"]


class ProceduralApi(FacadeCore):
    """Procedural methods of ``AgentMemory`` (filled in by the memory-types issue)."""
