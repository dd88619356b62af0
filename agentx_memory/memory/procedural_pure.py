"""Procedural memory's pure functions and constants, shared by the async source and its generated twin."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from ..models.procedural import Strategy, StrategyMatch, ToolInvocation, ToolStats
from ..timecodec import maybe_from_epoch_ms

__all__ = [
    "SIMILARITY_WEIGHT",
    "ProposalDraft",
    "invocation_from_row",
    "laplace_success_rate",
    "proposal_from_invocations",
    "proposal_id",
    "proposal_task",
    "rank_strategies",
    "strategy_from_graph",
    "strategy_score",
    "tool_key",
    "tool_stats_from_graph",
]


#: Share of the ranking score taken by similarity; the rest is the smoothed success rate.
SIMILARITY_WEIGHT = 0.7


def tool_key(user_id: str, tool_name: str) -> str:
    """The unique key of a user's Tool node (user ids cannot contain ':', so keys never collide)."""
    return f"{user_id}:{tool_name}"


def laplace_success_rate(successes: int, failures: int) -> float:
    """``(s + 1) / (s + f + 2)``: 0.5 with no evidence, moving towards the observed rate as it grows."""
    return (successes + 1) / (successes + failures + 2)


def strategy_score(similarity: float, successes: int, failures: int) -> float:
    """``0.7 · max(similarity, 0) + 0.3 · (s + 1) / (s + f + 2)``, in [0, 1].

    Similarity dominates, so a strategy for another kind of task never wins on its track record alone;
    among similar strategies the one that worked more often comes first.
    """
    relevance = min(max(similarity, 0.0), 1.0)
    return SIMILARITY_WEIGHT * relevance + (1 - SIMILARITY_WEIGHT) * laplace_success_rate(successes, failures)


def rank_strategies(hits: Sequence[tuple[Strategy, float]], top_k: int) -> list[StrategyMatch]:
    """The ``top_k`` best hits by :func:`strategy_score` (ties: more similar, then newer first)."""
    matches = [
        StrategyMatch(
            strategy=strategy,
            similarity=similarity,
            success_rate=laplace_success_rate(strategy.success_count, strategy.failure_count),
            score=strategy_score(similarity, strategy.success_count, strategy.failure_count),
        )
        for strategy, similarity in hits
    ]
    matches.sort(key=lambda m: (m.score, m.similarity, m.strategy.created_at), reverse=True)
    return matches[:top_k]


def strategy_from_graph(item: dict[str, Any]) -> Strategy:
    return Strategy(
        id=item["id"],
        user_id=item["user_id"],
        channel=item["channel"],
        description=item["description"],
        context_pattern=item["context_pattern"],
        tool_sequence=list(item["tool_sequence"]),
        success_count=item["success_count"],
        failure_count=item["failure_count"],
        source_conversation_id=item.get("source_conversation_id"),
        created_at=datetime.fromtimestamp(item["created_at"] / 1000, tz=UTC),
        updated_at=datetime.fromtimestamp(item["updated_at"] / 1000, tz=UTC),
        status=item.get("status") or "published",
        what_failed=list(item.get("what_failed") or []),
        applies_when=item.get("applies_when"),
        last_used=maybe_from_epoch_ms(item.get("last_used")),
    )


def proposal_from_invocations(invocations: Sequence[ToolInvocation]) -> tuple[list[str], list[str]] | None:
    """``(steps, what failed)`` of a conversation whose tool calls ended in success (at least two
    calls, the last one successful), else None: the path that worked, in order, each tool once."""
    if len(invocations) < 2 or not invocations[-1].success:
        return None
    steps = list(dict.fromkeys(call.tool_name for call in invocations if call.success))
    failed = [
        f"{call.tool_name}: {' '.join((call.error_message or 'failed').split())[:120]}"
        for call in invocations
        if not call.success
    ]
    return steps, list(dict.fromkeys(failed))


#: Words of the first user turn that name the task of a proposal learned from a conversation.
TASK_WORDS: Final = 8
#: Words of the first user turn kept as that proposal's description.
DESCRIPTION_WORDS: Final = 40
#: Namespace of the ids of proposals learned from conversations (one per user and conversation).
_PROPOSALS: Final = uuid.UUID("5b0f1d0e-6c2a-4f7e-9a51-3f1d2c7b8e40")


@dataclass(frozen=True, slots=True)
class ProposalDraft:
    """What a conversation's tool calls teach, before it becomes a proposed strategy."""

    task_type: str
    description: str
    steps: list[str]
    what_failed: list[str]


def proposal_id(user_id: str, conversation_id: str) -> str:
    """The id of the proposal learned from a conversation: the same on every call, so a second call (or
    a concurrent one: the graph MERGEs on the id) finds the first one's strategy instead of adding one."""
    return str(uuid.uuid5(_PROPOSALS, f"{user_id}/{conversation_id}"))


def proposal_task(title: str | None, first_user_turn: str | None, steps: Sequence[str]) -> tuple[str, str]:
    """``(task_type, description)`` of a proposal: the task is the conversation's title, else the first
    words of the user's first turn, else the steps; the description is the user's request when known."""
    request = " ".join((first_user_turn or "").split())
    fallback = " → ".join(steps)
    task = " ".join((title or "").split()) or " ".join(request.split()[:TASK_WORDS]) or fallback
    description = " ".join(request.split()[:DESCRIPTION_WORDS]) or task
    return task, description


def tool_stats_from_graph(item: dict[str, Any]) -> ToolStats:
    usage = int(item.get("usage_count") or 0)
    successes = int(item.get("success_count") or 0)
    return ToolStats(
        tool_name=item["name"],
        usage_count=usage,
        success_count=successes,
        success_rate=successes / usage if usage else None,
        avg_latency_ms=float(item.get("avg_latency_ms") or 0.0),
        last_used=maybe_from_epoch_ms(item.get("last_used")),
    )


def invocation_from_row(row: dict[str, Any]) -> ToolInvocation:
    return ToolInvocation(
        id=row["id"],
        conversation_id=row["conversation_id"],
        user_id=row["user_id"],
        channel=row["channel"],
        turn_index=row["turn_index"],
        tool_name=row["tool_name"],
        tool_input=row["tool_input"] or {},
        tool_output=row["tool_output"],
        success=row["success"],
        latency_ms=row["latency_ms"],
        error_message=row["error_message"],
        created_at=row["created_at"],
    )
