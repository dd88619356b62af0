"""Facade methods for procedural memory. Async source of ``api/procedural.py``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ..backends_async import AsyncBackends
from ..errors import InvalidInputError, NotFoundError
from ..memory.procedural_pure import proposal_id
from ..models.procedural import Strategy, StrategyMatch, ToolInvocation, ToolStats
from ..validation import (
    idempotent_id,
    validate_content,
    validate_flag,
    validate_index,
    validate_json_object,
    validate_json_value,
    validate_latency,
    validate_strings,
    validate_tool_name,
    validate_tool_sequence,
    validate_top_k,
    validate_uuid,
)
from .core_async import AsyncFacadeCore

__all__ = ["AsyncProceduralApi"]


class AsyncProceduralApi(AsyncFacadeCore):
    """Procedural methods of ``AsyncAgentMemory``: tool usage and learned strategies."""

    async def record_invocation(
        self,
        conversation_id: str,
        turn_index: int | None,
        tool_name: str,
        tool_input: dict[str, Any] | None,
        tool_output: Any,
        success: bool,
        latency_ms: float,
        error_message: str | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> ToolInvocation:
        """Record one tool call of a conversation of this user and update the tool's statistics.

        The ``tool_invocations`` row is written first, then the graph, where the tool's usage_count,
        success_count and running avg_latency_ms move in the same statement. Raises
        :class:`NotFoundError` if the conversation is not this user's. With ``idempotency_key`` (e.g.
        the LLM API's tool-call id) a retry of a call that failed midway, or succeeded unseen, returns
        the invocation stored the first time and counts it once.
        """
        limits = self.settings.limits
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        if turn_index is not None:
            turn_index = validate_index(turn_index)
        tool_name = validate_tool_name(tool_name)
        checked_input = validate_json_object(tool_input, limits, "tool_input")
        tool_output = validate_json_value(tool_output, limits, "tool_output")
        success = validate_flag(success, "success")
        latency_ms = validate_latency(latency_ms)
        if error_message is not None:
            error_message = validate_content(error_message, limits, "error_message")
        stable_id = idempotent_id(idempotency_key, limits, self.scope.user_id, conversation_id)
        backends = await self._open_backends()
        invocation = ToolInvocation(
            id=stable_id or str(uuid.uuid4()),
            conversation_id=conversation_id,
            user_id=self.scope.user_id,
            channel=self.scope.channel,
            turn_index=turn_index,
            tool_name=tool_name,
            tool_input=checked_input,
            tool_output=tool_output,
            success=success,
            latency_ms=float(latency_ms),
            error_message=error_message,
            created_at=datetime.now(UTC),
        )
        procedural = backends.procedural
        stored, created = await procedural.record_invocation(self.scope, invocation)
        if created:
            await backends.audit.log_write(
                self.scope,
                "record_invocation",
                "tool_invocation",
                stored.id,
                {"tool_name": tool_name, "success": success, "conversation_id": conversation_id},
                {"tool_input": checked_input, "tool_output": tool_output, "error_message": error_message},
            )
        return stored

    async def learn_strategy(
        self,
        description: str,
        context_pattern: str,
        tool_sequence: Sequence[str],
        from_conversation_id: str | None,
        success: bool,
        *,
        idempotency_key: str | None = None,
    ) -> Strategy:
        """Remember a way of solving a kind of task: the tools it used, in order, and whether it worked.

        ``(:Strategy)-[:USES_TOOL {position}]->(:Tool)`` for each step and, when ``success``,
        ``(:Strategy)-[:SUCCEEDED_IN]->(:Conversation)``. Raises :class:`NotFoundError` if
        ``from_conversation_id`` is not a conversation of this user. With ``idempotency_key`` a
        retried call returns the strategy the first one stored instead of a second.
        """
        limits = self.settings.limits
        description = validate_content(description, limits, "description")
        context_pattern = validate_content(context_pattern, limits, "context_pattern")
        tools = validate_tool_sequence(tool_sequence)
        success = validate_flag(success, "success")
        conversation_id = (
            None
            if from_conversation_id is None
            else validate_uuid(from_conversation_id, "from_conversation_id")
        )
        stable_id = idempotent_id(idempotency_key, limits, self.scope.user_id, "learn_strategy")
        backends = await self._open_backends()
        if (stored := await self._stored_strategy(backends, stable_id)) is not None:
            return stored
        if conversation_id is not None and not await backends.episodic.conversation_exists(
            self.scope, conversation_id
        ):
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {self.scope.user_id!r}"
            )
        embedding = await backends.embed_one(f"{description}\n{context_pattern}")
        strategy = await backends.procedural.learn_strategy(
            self.scope,
            strategy_id=stable_id or str(uuid.uuid4()),
            description=description,
            context_pattern=context_pattern,
            tool_sequence=tools,
            conversation_id=conversation_id,
            success=success,
            embedding=embedding,
            created_at=datetime.now(UTC),
        )
        await backends.audit.log_write(
            self.scope,
            "learn_strategy",
            "strategy",
            strategy.id,
            {"tools": tools, "success": success, "conversation_id": conversation_id},
            {"description": description, "context_pattern": context_pattern},
        )
        return strategy

    async def find_strategies(self, task_description: str, top_k: int = 5) -> list[StrategyMatch]:
        """Strategies of this user (active channel and ``_global``) for a task, best first.

        Ranked by ``0.7 · similarity + 0.3 · (s + 1) / (s + f + 2)`` (see
        :func:`agentx_memory.memory.procedural.strategy_score`) over the nearest candidates.
        """
        limits = self.settings.limits
        task_description = validate_content(task_description, limits, "task_description")
        top_k = validate_top_k(top_k, limits)
        backends = await self._open_for_recall("find_strategies")
        vector = await backends.embed_query(task_description)
        matches = await backends.procedural.find_strategies(
            self.scope, vector, top_k, candidates=min(top_k * 4, limits.max_top_k)
        )
        await backends.audit.log_read(
            self.scope,
            "find_strategies",
            {"top_k": top_k, "results": len(matches)},
            {"task_description": task_description},
        )
        return matches

    async def reinforce_strategy(self, strategy_id: str, success: bool) -> Strategy:
        """Count one more success or failure; :class:`NotFoundError` if the strategy is not this user's."""
        strategy_id = validate_uuid(strategy_id, "strategy_id")
        success = validate_flag(success, "success")
        backends = await self._open_backends()
        strategy = await backends.procedural.reinforce_strategy(self.scope, strategy_id, success)
        await backends.audit.log_write(
            self.scope, "reinforce_strategy", "strategy", strategy_id, {"success": success}
        )
        return strategy

    async def get_tool_stats(self, task_type: str | None = None) -> list[ToolStats]:
        """Usage statistics of this user's tools, most used first.

        With ``task_type``, only the tools used by this user's strategies (active channel and
        ``_global``) whose ``context_pattern`` contains ``task_type`` (case-insensitive).
        """
        limits = self.settings.limits
        if task_type is not None:
            task_type = validate_content(task_type, limits, "task_type")
        backends = await self._open_backends()
        stats = await backends.procedural.tool_stats(self.scope, task_type, limits.max_top_k)
        await backends.audit.log_read(
            self.scope, "get_tool_stats", {"task_type": task_type, "results": len(stats)}
        )
        return stats

    # -- skill proposals (agent experience → strategies under review) -----------------------------

    async def propose_strategy(
        self,
        description: str,
        context_pattern: str,
        tool_sequence: Sequence[str],
        *,
        what_failed: Sequence[str] = (),
        applies_when: str | None = None,
        from_conversation_id: str | None = None,
        idempotency_key: str | None = None,
    ) -> Strategy:
        """Record a way of doing a task as a *proposal*: it is never recalled (``find_strategies``,
        ``remember``, ``get_context``) until :meth:`publish_strategy`. With ``idempotency_key`` a
        retried call returns the proposal the first one stored instead of a second."""
        limits = self.settings.limits
        description = validate_content(description, limits, "description")
        context_pattern = validate_content(context_pattern, limits, "context_pattern")
        tools = validate_tool_sequence(tool_sequence)
        failed = [
            validate_content(item, limits, "what_failed")
            for item in validate_strings(what_failed, "what_failed must be a sequence of strings")
        ]
        if applies_when is not None:
            applies_when = validate_content(applies_when, limits, "applies_when")
        conversation_id = (
            None
            if from_conversation_id is None
            else validate_uuid(from_conversation_id, "from_conversation_id")
        )
        stable_id = idempotent_id(idempotency_key, limits, self.scope.user_id, "propose_strategy")
        backends = await self._open_backends()
        if (stored := await self._stored_strategy(backends, stable_id)) is not None:
            return stored
        return await self._propose(
            backends,
            description,
            context_pattern,
            tools,
            failed,
            applies_when,
            conversation_id,
            strategy_id=stable_id,
        )

    async def _stored_strategy(self, backends: AsyncBackends, strategy_id: str | None) -> Strategy | None:
        """The strategy a retried write stored the first time (its timeline row ensured), if any."""
        if strategy_id is None:
            return None
        stored = await backends.procedural.get_strategy(self.scope, strategy_id)
        if stored is not None:
            await backends.procedural.ensure_timeline(self.scope, stored)
        return stored

    async def _propose(
        self,
        backends: AsyncBackends,
        description: str,
        context_pattern: str,
        tools: list[str],
        failed: list[str],
        applies_when: str | None,
        conversation_id: str | None,
        *,
        strategy_id: str | None = None,
    ) -> Strategy:
        if conversation_id is not None and not await backends.episodic.conversation_exists(
            self.scope, conversation_id
        ):
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {self.scope.user_id!r}"
            )
        strategy = await backends.procedural.learn_strategy(
            self.scope,
            strategy_id=strategy_id or str(uuid.uuid4()),
            description=description,
            context_pattern=context_pattern,
            tool_sequence=tools,
            conversation_id=conversation_id,
            success=True,
            embedding=await backends.embed_one(f"{description}\n{context_pattern}"),
            created_at=datetime.now(UTC),
            status="proposed",
            what_failed=failed,
            applies_when=applies_when,
        )
        await backends.audit.log_write(
            self.scope,
            "propose_strategy",
            "strategy",
            strategy.id,
            {"tools": tools, "what_failed": failed, "conversation_id": conversation_id},
            {"description": description},
        )
        return strategy

    async def propose_from_conversation(self, conversation_id: str) -> Strategy | None:
        """Propose the path a conversation's tool calls took when they ended in success (at least two
        calls, the last one successful): the tools that worked in order, and what failed on the way.
        The task is the conversation's title, else the first words of the user's first turn.

        Idempotent: the conversation's existing proposal is returned (whatever its review state). None
        when there is nothing to learn; :class:`NotFoundError` if the conversation is not this user's.
        """
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_backends()
        strategy, _ = await self._propose_from_conversation(backends, conversation_id)
        return strategy

    async def _propose_from_conversation(
        self, backends: AsyncBackends, conversation_id: str
    ) -> tuple[Strategy | None, bool]:
        """The conversation's proposal and whether this call created it (consolidation counts new ones)."""
        strategy_id = proposal_id(self.scope.user_id, conversation_id)
        existing = await backends.procedural.get_strategy(self.scope, strategy_id)
        if existing is not None:
            return existing, False
        draft = await backends.procedural.conversation_proposal(self.scope, conversation_id)
        if draft is None:
            return None, False
        strategy = await self._propose(
            backends,
            draft.description,
            draft.task_type,
            draft.steps,
            draft.what_failed,
            None,
            conversation_id,
            strategy_id=strategy_id,
        )
        return strategy, True

    async def publish_strategy(self, strategy_id: str) -> Strategy:
        """Make a proposed strategy recallable."""
        return await self._review(strategy_id, "published", ("proposed",), None)

    async def reject_strategy(self, strategy_id: str, reason: str | None = None) -> Strategy:
        """Turn a proposal down; it stays in the graph (audited) but is never recalled."""
        if reason is not None:
            reason = validate_content(reason, self.settings.limits, "reason")
        return await self._review(strategy_id, "rejected", ("proposed",), reason)

    async def proposed_strategies(self, limit: int = 50) -> list[Strategy]:
        """Proposals waiting for review, newest first."""
        limit = validate_top_k(limit, self.settings.limits, "limit")
        backends = await self._open_backends()
        proposals = await backends.procedural.proposed(self.scope, limit)
        await backends.audit.log_read(
            self.scope, "proposed_strategies", {"limit": limit, "results": len(proposals)}
        )
        return proposals

    async def _review(
        self, strategy_id: str, status: str, allowed: tuple[str, ...], reason: str | None
    ) -> Strategy:
        strategy_id = validate_uuid(strategy_id, "strategy_id")
        backends = await self._open_backends()
        changed = await backends.procedural.set_status(self.scope, strategy_id, status, allowed, reason)
        if changed is None:
            current = await self._strategy(backends, strategy_id)
            raise InvalidInputError(
                f"strategy {strategy_id} is {current.status}, not proposed: only a proposal can be {status}"
            )
        operation = "publish_strategy" if status == "published" else "reject_strategy"
        await backends.audit.log_write(self.scope, operation, "strategy", strategy_id, {"reason": reason})
        return changed

    async def _strategy(self, backends: AsyncBackends, strategy_id: str) -> Strategy:
        found = await backends.procedural.get_strategy(self.scope, strategy_id)
        if found is None:
            raise NotFoundError(f"strategy {strategy_id} does not exist for user {self.scope.user_id!r}")
        return found
