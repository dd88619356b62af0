"""Data models (pydantic, no I/O): what the public API accepts and returns, one module per memory kind."""

from __future__ import annotations

from .channels import PromotionCandidate
from .episodic import ROLES, MemoryBundle, MemoryItem, MemoryKind, Role, Scope, TechniqueMetric, Turn
from .goals import GOAL_END_STATUSES, Goal, GoalEndStatus, GoalStatus
from .learning import CompactionResult, ConsolidationReport, ContradictionReview
from .procedural import Strategy, StrategyMatch, ToolInvocation, ToolStats
from .profile import UserProfile
from .retrieval import QueryFilters, TimeRange
from .semantic import (
    ENTITY_RELATIONSHIPS,
    ENTITY_TYPES,
    FACT_PRIORITIES,
    FACT_TEMPORALS,
    Entity,
    EntityEdge,
    EntityGraph,
    EntityInfo,
    EntityRelationship,
    EntityType,
    Fact,
    FactPriority,
    FactTemporal,
    MemoryStats,
    Neighbour,
)
from .timeline import TIMELINE_KINDS, TimelineEntry, TimelineKind

__all__ = [
    "ENTITY_RELATIONSHIPS",
    "ENTITY_TYPES",
    "FACT_PRIORITIES",
    "FACT_TEMPORALS",
    "GOAL_END_STATUSES",
    "ROLES",
    "TIMELINE_KINDS",
    "CompactionResult",
    "ConsolidationReport",
    "ContradictionReview",
    "Entity",
    "EntityEdge",
    "EntityGraph",
    "EntityInfo",
    "EntityRelationship",
    "EntityType",
    "Fact",
    "FactPriority",
    "FactTemporal",
    "Goal",
    "GoalEndStatus",
    "GoalStatus",
    "MemoryBundle",
    "MemoryItem",
    "MemoryKind",
    "MemoryStats",
    "Neighbour",
    "PromotionCandidate",
    "QueryFilters",
    "Role",
    "Scope",
    "Strategy",
    "StrategyMatch",
    "TechniqueMetric",
    "TimeRange",
    "TimelineEntry",
    "TimelineKind",
    "ToolInvocation",
    "ToolStats",
    "Turn",
    "UserProfile",
]
