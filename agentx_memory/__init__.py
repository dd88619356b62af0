"""agentx-memory: long-term memory for LLM agents.

from agentx_memory import AgentMemory
with AgentMemory(user_id="alice") as mem:
    cid = mem.new_conversation(title="trip planning")
    mem.store_turn(cid, role="user", content="I'm flying to Lisbon on May 3rd")
    mem.remember("when is the trip?")
"""

from __future__ import annotations

from .errors import (
    AgentMemoryError,
    ConfigurationError,
    ConflictError,
    EmbeddingDimensionError,
    GraphSyncError,
    InvalidInputError,
    NotFoundError,
    StoreError,
    StoreUnavailableError,
)
from .facade import AgentMemory
from .facade_async import AsyncAgentMemory
from .memory.working import WorkingMemory
from .memory.working_async import AsyncWorkingMemory
from .models import MemoryBundle, MemoryItem, Scope, Turn
from .settings import Settings

__all__ = [
    "AgentMemory",
    "AgentMemoryError",
    "AsyncAgentMemory",
    "AsyncWorkingMemory",
    "ConfigurationError",
    "ConflictError",
    "EmbeddingDimensionError",
    "GraphSyncError",
    "InvalidInputError",
    "MemoryBundle",
    "MemoryItem",
    "NotFoundError",
    "Scope",
    "Settings",
    "StoreError",
    "StoreUnavailableError",
    "Turn",
    "WorkingMemory",
]

__version__ = "0.1.0"
