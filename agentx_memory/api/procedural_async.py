"""Facade methods for procedural memory. Async source of ``api/procedural.py``."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ..errors import InvalidInputError, NotFoundError
from ..models.procedural import Strategy, StrategyMatch, ToolInvocation, ToolStats
from ..settings import LimitSettings
from ..validation import validate_content, validate_top_k, validate_uuid
from .core_async import AsyncFacadeCore

__all__ = ["AsyncProceduralApi"]

_TOOL_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
#: Longest tool sequence a strategy may name.
_MAX_SEQUENCE = 50


def _tool_name(name: object) -> str:
    if not isinstance(name, str) or not _TOOL_NAME.match(name):
        raise InvalidInputError(
            f"tool_name {name!r} is not allowed: use 1-100 characters of letters, digits and _.- "
            "starting with a letter or digit"
        )
    return name


def _json_value(value: object, limits: LimitSettings, what: str) -> Any:
    """Any JSON value within the metadata size limit (the checks of ``validate_metadata``)."""
    try:
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"{what} must be JSON-serialisable: {exc}") from exc
    if "\\u0000" in encoded:
        raise InvalidInputError(f"{what} contains a NUL character, which no store accepts")
    if len(encoded.encode()) > limits.max_metadata_bytes:
        raise InvalidInputError(
            f"{what} is {len(encoded.encode())} bytes as JSON, over the limit of "
            f"{limits.max_metadata_bytes} (limits.max_metadata_bytes)"
        )
    return value


def _json_object(value: object, limits: LimitSettings, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise InvalidInputError(f"{what} must be a dict with string keys (or None)")
    checked: dict[str, Any] = _json_value(value, limits, what)
    return checked


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(f"{what} must be True or False, not {value!r}")
    return value


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
    ) -> ToolInvocation:
        """Record one tool call of a conversation of this user and update the tool's statistics.

        The ``tool_invocations`` row is written first, then the graph, where the tool's usage_count,
        success_count and running avg_latency_ms move in the same statement. Raises
        :class:`NotFoundError` if the conversation is not this user's.
        """
        limits = self.settings.limits
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        if turn_index is not None and (
            not isinstance(turn_index, int) or isinstance(turn_index, bool) or turn_index < 0
        ):
            raise InvalidInputError(f"turn_index must be a non-negative integer, not {turn_index!r}")
        tool_name = _tool_name(tool_name)
        checked_input = _json_object(tool_input, limits, "tool_input")
        tool_output = _json_value(tool_output, limits, "tool_output")
        success = _flag(success, "success")
        if (
            not isinstance(latency_ms, int | float)
            or isinstance(latency_ms, bool)
            or not 0 <= latency_ms < 1e12
        ):
            raise InvalidInputError(f"latency_ms must be a non-negative number, not {latency_ms!r}")
        if error_message is not None:
            error_message = validate_content(error_message, limits, "error_message")
        backends = await self._open_backends()
        invocation = ToolInvocation(
            id=str(uuid.uuid4()),
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
    ) -> Strategy:
        """Remember a way of solving a kind of task: the tools it used, in order, and whether it worked.

        ``(:Strategy)-[:USES_TOOL {position}]->(:Tool)`` for each step and, when ``success``,
        ``(:Strategy)-[:SUCCEEDED_IN]->(:Conversation)``. Raises :class:`NotFoundError` if
        ``from_conversation_id`` is not a conversation of this user.
        """
        limits = self.settings.limits
        description = validate_content(description, limits, "description")
        context_pattern = validate_content(context_pattern, limits, "context_pattern")
        if isinstance(tool_sequence, str) or not isinstance(tool_sequence, Sequence):
            raise InvalidInputError("tool_sequence must be a list of tool names")
        if not 1 <= len(tool_sequence) <= _MAX_SEQUENCE:
            raise InvalidInputError(f"tool_sequence must name 1 to {_MAX_SEQUENCE} tools")
        tools = [_tool_name(name) for name in tool_sequence]
        success = _flag(success, "success")
        conversation_id = (
            None
            if from_conversation_id is None
            else validate_uuid(from_conversation_id, "from_conversation_id")
        )
        backends = await self._open_backends()
        if conversation_id is not None and not await backends.episodic.conversation_exists(
            self.scope, conversation_id
        ):
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {self.scope.user_id!r}"
            )
        embedding = await backends.embed_one(f"{description}\n{context_pattern}")
        strategy = await backends.procedural.learn_strategy(
            self.scope,
            strategy_id=str(uuid.uuid4()),
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
        backends = await self._open_backends()
        vector = await backends.embed_one(task_description)
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
        success = _flag(success, "success")
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
