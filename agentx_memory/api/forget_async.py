"""Facade methods that forget. Async source of ``api/forget.py``."""

from __future__ import annotations

from .._compat.aio import drain
from ..errors import NotFoundError
from ..memory.forgetting_async import AsyncForgetting
from ..models import Scope
from ..validation import validate_uuid
from .core_async import AsyncFacadeCore

__all__ = ["AsyncForgetApi"]


class AsyncForgetApi(AsyncFacadeCore):
    async def _forgetting(self) -> AsyncForgetting:
        return (await self._open_backends()).forgetting

    async def forget_conversation(self, conversation_id: str) -> dict[str, int]:
        """Delete a conversation of this user from Postgres, the graph and Redis; returns the counts.

        The audit log keeps that it happened (with counts), and its older rows about the conversation
        lose their details and payload. Raises :class:`NotFoundError` for an id that is not this user's.
        """
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = await self._open_backends()
        await drain(backends.pending)  # as forget_user: no consolidation of it may land after
        if not await backends.episodic.conversation_exists(self.scope, conversation_id):
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {self.scope.user_id!r}"
            )
        report = await (await self._forgetting()).forget_conversation(self.scope, conversation_id)
        await backends.audit.log_write(
            self.scope, "forget_conversation", "conversation", conversation_id, report
        )
        return report

    async def forget_turn(self, turn_id: str) -> dict[str, int]:
        """Delete one turn of this user from Postgres, the graph and its conversation's working memory
        (an agents session's popped item); returns the counts. Raises :class:`NotFoundError` for an id
        that is not this user's turn."""
        turn_id = validate_uuid(turn_id, "turn_id")
        backends = await self._open_backends()
        found = await (await self._forgetting()).forget_turn(self.scope, turn_id)
        if found is None:
            raise NotFoundError(f"turn {turn_id} does not exist for user {self.scope.user_id!r}")
        conversation_id, channel = str(found.pop("conversation_id")), str(found.pop("channel"))
        session = backends.session(Scope(user_id=self.scope.user_id, channel=channel), conversation_id)
        report = {name: int(value) for name, value in found.items()}
        report["working_turns"] = int(await session.drop_turn(turn_id))
        await backends.audit.log_write(
            self.scope, "forget_turn", "turn", turn_id, report, conversation_id=conversation_id
        )
        return report

    async def forget_fact(self, fact_id: str) -> dict[str, int]:
        """Delete a fact of this user, with its correction chain and promoted copies, everywhere.

        Raises :class:`NotFoundError` for an id that is not this user's fact.
        """
        fact_id = validate_uuid(fact_id, "fact_id")
        backends = await self._open_backends()
        report = await (await self._forgetting()).forget_fact(self.scope, fact_id)
        if report is None:
            raise NotFoundError(f"fact {fact_id} does not exist for user {self.scope.user_id!r}")
        await backends.audit.log_write(self.scope, "forget_fact", "fact", fact_id, report)
        return report

    async def forget_user(self) -> dict[str, int]:
        """Delete everything this user has in every channel and store; returns the counts."""
        backends = await self._open_backends()
        # A background consolidation still running would write learned facts after the deletion
        # (forgotten data resurrected): let it finish first.
        await drain(backends.pending)
        report = await (await self._forgetting()).forget_user(self.scope)
        await backends.audit.log_write(self.scope, "forget_user", "user", self.scope.user_id, report)
        return report
