"""Data models (pydantic, no I/O): what the public API accepts and returns, one module per memory kind."""

from __future__ import annotations

from .episodic import ROLES, MemoryBundle, MemoryItem, MemoryKind, Role, Scope, Turn

__all__ = ["ROLES", "MemoryBundle", "MemoryItem", "MemoryKind", "Role", "Scope", "Turn"]
