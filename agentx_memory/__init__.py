"""agentx-memory: long-term memory for LLM agents.

from agentx_memory import AgentMemory
with AgentMemory(user_id="alice") as mem:
    cid = mem.new_conversation(title="trip planning")
    mem.store_turn(cid, role="user", content="I'm flying to Lisbon on May 3rd")
    mem.remember("when is the trip?")
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

from .errors import (
    AgentMemoryError,
    ClosedError,
    ConfigurationError,
    ConflictError,
    EmbeddingDimensionError,
    GraphSyncError,
    InvalidInputError,
    NotFoundError,
    RateLimitedError,
    SchemaVersionError,
    StoreError,
    StoreUnavailableError,
)
from .models import (
    Entity,
    EntityEdge,
    EntityGraph,
    EntityInfo,
    Fact,
    Goal,
    GoalStatus,
    MemoryBundle,
    MemoryItem,
    MemoryStats,
    Neighbour,
    PromotionCandidate,
    Scope,
    Strategy,
    StrategyMatch,
    ToolInvocation,
    ToolStats,
    Turn,
    TurnSpec,
    UserProfile,
)
from .settings import Settings

if _typing.TYPE_CHECKING:
    from .facade import AgentMemory
    from .facade_async import AsyncAgentMemory
    from .memory.working import WorkingMemory
    from .memory.working_async import AsyncWorkingMemory

# The facades pull in every driver (psycopg, redis, neo4j, onnxruntime); importing them on first use
# keeps `agentx-memory status` and other light entry points fast.
_LAZY = {
    "AgentMemory": ".facade",
    "AsyncAgentMemory": ".facade_async",
    "WorkingMemory": ".memory.working",
    "AsyncWorkingMemory": ".memory.working_async",
}


def __getattr__(name: str) -> _typing.Any:
    if name in _LAZY:
        value = getattr(_importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AgentMemory",
    "AgentMemoryError",
    "AsyncAgentMemory",
    "AsyncWorkingMemory",
    "ClosedError",
    "ConfigurationError",
    "ConflictError",
    "EmbeddingDimensionError",
    "Entity",
    "EntityEdge",
    "EntityGraph",
    "EntityInfo",
    "Fact",
    "Goal",
    "GoalStatus",
    "GraphSyncError",
    "InvalidInputError",
    "MemoryBundle",
    "MemoryItem",
    "MemoryStats",
    "Neighbour",
    "NotFoundError",
    "PromotionCandidate",
    "RateLimitedError",
    "SchemaVersionError",
    "Scope",
    "Settings",
    "StoreError",
    "StoreUnavailableError",
    "Strategy",
    "StrategyMatch",
    "ToolInvocation",
    "ToolStats",
    "Turn",
    "TurnSpec",
    "UserProfile",
    "WorkingMemory",
]

__version__ = "0.1.0"
