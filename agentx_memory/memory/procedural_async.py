"""Procedural memory: tool invocations, tool counters, strategies. Async source of ``memory/procedural.py``.

Invocations go to the ledger (``tool_invocations``) first, then to the graph, where one statement
creates ``(:Conversation)-[:USED_TOOL]->(:ToolInvocation)-[:INVOKED]->(:Tool)`` and moves the tool's
counters atomically, only when it created the invocation (a replay of the same id counts once).
Strategies live in the graph (with a ``memory_timeline`` row); they are ranked by :func:`strategy_score`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from ..crypto import Encryptor, seal_text
from ..errors import AgentMemoryError, GraphSyncError, NotFoundError
from ..models import Scope
from ..models.procedural import Strategy, StrategyMatch, ToolInvocation, ToolStats
from ..stores.graph_async import AsyncGraphStore
from ..stores.ports_async import AsyncLedger
from ..timecodec import epoch_ms, now_ms
from .episodic_async import AsyncEpisodicMemory
from .procedural_pure import (
    ProposalDraft,
    invocation_from_row,
    proposal_from_invocations,
    proposal_task,
    rank_strategies,
    strategy_from_graph,
    tool_key,
    tool_stats_from_graph,
)
from .scoping import scope_params
from .timeline_async import AsyncTimeline

__all__ = ["AsyncProceduralMemory"]

#: Turns read to find the user's first request in a conversation (it opens the conversation).
_FIRST_TURNS = 20


class AsyncProceduralMemory:
    """Tools, invocations and strategies over the ledger and the graph (inputs already validated)."""

    def __init__(
        self,
        ledger: AsyncLedger,
        graph: AsyncGraphStore,
        episodic: AsyncEpisodicMemory,
        timeline: AsyncTimeline,
        encryptor: Encryptor | None = None,
    ) -> None:
        self._ledger = ledger
        self._graph = graph
        self._episodic = episodic
        self._timeline = timeline
        self._encryptor = encryptor  # seals the graph's copy of tool inputs and outputs

    async def record_invocation(
        self, scope: Scope, invocation: ToolInvocation
    ) -> tuple[ToolInvocation, bool]:
        """Store ``invocation`` (ledger, then graph); returns the stored one and whether it is new.

        Idempotent on ``invocation.id``: a replay returns the stored row and re-runs the graph write,
        which counts the invocation only if the graph has not seen it. Raises :class:`NotFoundError`
        if the conversation is not this user's, :class:`GraphSyncError` if only the graph write failed.
        """
        row = await self._ledger.fetch_one(
            "insert_tool_invocation",
            {
                "id": invocation.id,
                "conversation_id": invocation.conversation_id,
                "turn_index": invocation.turn_index,
                "user_id": scope.user_id,
                "channel": scope.channel,
                "tool_name": invocation.tool_name,
                "tool_input": Jsonb(invocation.tool_input),
                "tool_output": None if invocation.tool_output is None else Jsonb(invocation.tool_output),
                "success": invocation.success,
                "latency_ms": invocation.latency_ms,
                "error_message": invocation.error_message,
                "created_at": invocation.created_at,
            },
        )
        created = row is not None
        if row is None:
            row = await self._ledger.fetch_one(
                "get_tool_invocation", {"id": invocation.id, "user_id": scope.user_id}
            )
        if row is None or row["conversation_id"] != invocation.conversation_id:
            raise NotFoundError(
                f"conversation {invocation.conversation_id} does not exist for user {scope.user_id!r}"
            )
        stored = invocation_from_row(row)
        await self.sync_invocation(stored)
        return stored, created

    async def sync_invocation(self, invocation: ToolInvocation) -> None:
        """Mirror a ledger invocation into the graph and mark it synced; raises :class:`GraphSyncError`
        on failure (the row stays unsynced and the reconcile job replays it)."""
        try:
            await self._graph_invocation(invocation)
            await self._ledger.execute_relaxed(
                "mark_invocation_synced", {"id": invocation.id, "user_id": invocation.user_id}
            )
        except AgentMemoryError as exc:
            raise GraphSyncError(
                f"tool invocation {invocation.id} is safe in the ledger but the graph write failed ({exc}); "
                "it is marked unsynced and the reconcile job replays it (`agentx-memory jobs run reconcile`)",
                invocation,
            ) from exc

    async def unsynced_invocations(self, limit: int) -> list[ToolInvocation]:
        """Invocations of every user not yet confirmed in the graph, oldest first (for reconcile only)."""
        rows = await self._ledger.fetch_all("unsynced_invocations", {"limit": limit})
        return [invocation_from_row(row) for row in rows]

    async def _graph_invocation(self, invocation: ToolInvocation) -> None:
        params = {
            "id": invocation.id,
            "user_id": invocation.user_id,
            "channel": invocation.channel,
            "conversation_id": invocation.conversation_id,
            "turn_index": invocation.turn_index,
            "tool_name": invocation.tool_name,
            "tool_key": tool_key(invocation.user_id, invocation.tool_name),
            "tool_input": seal_text(self._encryptor, invocation.tool_input, invocation.user_id),
            "tool_output": seal_text(self._encryptor, invocation.tool_output, invocation.user_id),
            "success": invocation.success,
            "latency_ms": float(invocation.latency_ms),
            "error_message": invocation.error_message,
            "created_at": epoch_ms(invocation.created_at),
        }
        if await self._graph.run("record_tool_invocation", params):
            return
        # The conversation node is missing (its own graph write failed earlier): create it from the ledger.
        await self._episodic.restore_graph_conversation(invocation.user_id, invocation.conversation_id)
        if not await self._graph.run("record_tool_invocation", params):
            raise NotFoundError(f"conversation {invocation.conversation_id} is missing from the graph")

    async def learn_strategy(
        self,
        scope: Scope,
        *,
        strategy_id: str,
        description: str,
        context_pattern: str,
        tool_sequence: Sequence[str],
        conversation_id: str | None,
        success: bool,
        embedding: Sequence[float],
        created_at: datetime,
        status: str = "published",
        what_failed: Sequence[str] = (),
        applies_when: str | None = None,
    ) -> Strategy:
        """Create the strategy node, its ``USES_TOOL`` edges (with positions) and ``SUCCEEDED_IN``."""
        rows = await self._graph.run(
            "create_strategy",
            {
                "id": strategy_id,
                "user_id": scope.user_id,
                "channel": scope.channel,
                "description": description,
                "context_pattern": context_pattern,
                "tool_names": list(tool_sequence),
                "tool_keys": [tool_key(scope.user_id, name) for name in tool_sequence],
                "success_count": 1 if success else 0,
                "failure_count": 0 if success else 1,
                "success": success,
                "conversation_id": conversation_id,
                "created_at": epoch_ms(created_at),
                "embedding": list(embedding),
                "status": status,
                "what_failed": list(what_failed),
                "applies_when": applies_when,
            },
        )
        strategy = strategy_from_graph(rows[0]["item"])
        await self.ensure_timeline(scope, strategy)
        return strategy

    async def ensure_timeline(self, scope: Scope, strategy: Strategy) -> None:
        """The strategy's timeline row, written if missing (a write that died between graph and ledger)."""
        await self._timeline.record(
            scope,
            memory_type="strategy",
            memory_id=strategy.id,
            summary=strategy.description,
            conversation_id=strategy.source_conversation_id,
            event_time=strategy.created_at,
        )

    async def find_strategies(
        self,
        scope: Scope,
        vector: Sequence[float],
        top_k: int,
        candidates: int,
        channels: Sequence[str] | None = None,
    ) -> list[StrategyMatch]:
        """The ``candidates`` nearest strategies (active channel and ``_global``), re-ranked to ``top_k``."""
        rows = await self._graph.vector_search(
            "Strategy",
            vector,
            user_id=scope.user_id,
            channels=scope.read_channels if channels is None else channels,
            top_k=candidates,
        )
        hits = [(strategy_from_graph(row["item"]), float(row["similarity"])) for row in rows]
        return rank_strategies(hits, top_k)

    async def reinforce_strategy(self, scope: Scope, strategy_id: str, success: bool) -> Strategy:
        rows = await self._graph.run(
            "reinforce_strategy",
            {
                "id": strategy_id,
                "user_id": scope.user_id,
                "channels": scope.read_channels,
                "success": success,
                "updated_at": now_ms(),
            },
        )
        if not rows:
            raise NotFoundError(f"strategy {strategy_id} does not exist for user {scope.user_id!r}")
        return strategy_from_graph(rows[0]["item"])

    async def tool_stats(self, scope: Scope, task_type: str | None, limit: int) -> list[ToolStats]:
        if task_type is None:
            rows = await self._graph.run("tool_stats", {"user_id": scope.user_id, "limit": limit})
        else:
            rows = await self._graph.run(
                "tool_stats_for_task",
                {
                    "user_id": scope.user_id,
                    "channels": scope.read_channels,
                    "task_type": task_type,
                    "limit": limit,
                },
            )
        return [tool_stats_from_graph(row["item"]) for row in rows]

    async def set_status(
        self, scope: Scope, strategy_id: str, status: str, allowed: Sequence[str], reason: str | None
    ) -> Strategy | None:
        """Move a strategy to ``status`` if it is in one of ``allowed``; None if not (or not the user's)."""
        rows = await self._graph.run(
            "set_strategy_status",
            scope_params(
                scope, id=strategy_id, status=status, allowed=list(allowed), reason=reason, now=now_ms()
            ),
        )
        return strategy_from_graph(rows[0]["item"]) if rows else None

    async def get_strategy(self, scope: Scope, strategy_id: str) -> Strategy | None:
        rows = await self._graph.run("get_strategy", scope_params(scope, id=strategy_id))
        return strategy_from_graph(rows[0]["item"]) if rows else None

    async def proposed(self, scope: Scope, limit: int) -> list[Strategy]:
        rows = await self._graph.run("proposed_strategies", scope_params(scope, limit=limit))
        return [strategy_from_graph(row["item"]) for row in rows]

    async def conversation_proposal(self, scope: Scope, conversation_id: str) -> ProposalDraft | None:
        """What this user's conversation's tool calls teach (see :func:`proposal_from_invocations`), or
        None when they did not end in success; :class:`NotFoundError` if the conversation is not theirs."""
        title = await self._episodic.conversation_title(scope, conversation_id)
        found = proposal_from_invocations(await self.conversation_invocations(scope, conversation_id))
        if found is None:
            return None
        steps, failed = found
        turns = await self._episodic.turns_from(scope, conversation_id, 0, _FIRST_TURNS)
        first = next((turn.content for turn in turns if turn.role == "user"), None)
        task, description = proposal_task(title, first, steps)
        return ProposalDraft(task_type=task, description=description, steps=steps, what_failed=failed)

    async def pattern_strategies(self, scope: Scope) -> list[dict[str, Any]]:
        """Every strategy of the user (any channel and review state): id, steps, status, source
        conversation; oldest first. What the ``patterns`` job matches mined conversations against."""
        return await self._graph.run("pattern_strategies", {"user_id": scope.user_id})

    async def record_use(
        self, scope: Scope, strategy_id: str, credits: Mapping[str, int], last_used: datetime, now: datetime
    ) -> Strategy | None:
        """Count successful conversations on the strategy, ``credits`` mapping a key (a conversation
        id) to how many each stands for, every key at most once ever (a rerun credits nothing twice);
        move its ``last_used`` forward to ``last_used``. None if the strategy is not the user's."""
        rows = await self._graph.run(
            "record_strategy_use",
            {
                "id": strategy_id,
                "user_id": scope.user_id,
                "credits": [{"key": key, "n": n} for key, n in credits.items()],
                "last_used": epoch_ms(last_used),
                "now": epoch_ms(now),
            },
        )
        return strategy_from_graph(rows[0]["item"]) if rows else None

    async def conversation_invocations(self, scope: Scope, conversation_id: str) -> list[ToolInvocation]:
        rows = await self._ledger.fetch_all(
            "conversation_invocations", {"conversation_id": conversation_id, "user_id": scope.user_id}
        )
        return [invocation_from_row(row) for row in rows]
