"""Procedural models: tool invocations, per-tool statistics and learned strategies."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Strategy", "StrategyMatch", "ToolInvocation", "ToolStats"]


class ToolInvocation(BaseModel):
    """One call of a tool during a conversation, as stored in the ``tool_invocations`` ledger table."""

    model_config = ConfigDict(frozen=True)

    id: str
    conversation_id: str
    user_id: str
    channel: str
    turn_index: int | None
    tool_name: str
    tool_input: dict[str, Any] = Field(default_factory=dict)
    tool_output: Any = None
    success: bool
    latency_ms: float
    error_message: str | None = None
    created_at: datetime


class ToolStats(BaseModel):
    """Usage of one tool by one user (across channels: a tool is keyed by user and name)."""

    model_config = ConfigDict(frozen=True)

    tool_name: str
    usage_count: int
    success_count: int
    #: ``success_count / usage_count``; ``None`` for a tool that is only named by strategies.
    success_rate: float | None
    #: Running mean over every recorded invocation (0.0 before the first one).
    avg_latency_ms: float
    last_used: datetime | None = None


class Strategy(BaseModel):
    """A reusable way of solving a kind of task: which tools, in which order, and how often it worked."""

    model_config = ConfigDict(frozen=True)

    id: str
    user_id: str
    channel: str
    description: str
    context_pattern: str
    tool_sequence: list[str]
    success_count: int
    failure_count: int
    source_conversation_id: str | None = None
    created_at: datetime
    updated_at: datetime
    #: Review state: a *proposed* strategy (learned from experience) is never recalled until published.
    status: Literal["proposed", "published", "rejected"] = "published"
    #: What was tried and failed on the way (a proposal learned from a conversation's tool calls).
    what_failed: list[str] = Field(default_factory=list)
    #: When the strategy applies, in words.
    applies_when: str | None = None
    #: When a conversation last took this path (set by the ``patterns`` job); None: never seen since.
    last_used: datetime | None = None


class StrategyMatch(BaseModel):
    """A strategy found for a task, with the parts of its ranking score."""

    model_config = ConfigDict(frozen=True)

    strategy: Strategy
    #: Cosine similarity of the task to the strategy's description and context pattern.
    similarity: float
    #: Laplace-smoothed success rate ``(s + 1) / (s + f + 2)``.
    success_rate: float
    #: What the matches are ordered by (see ``memory.procedural.strategy_score``).
    score: float
