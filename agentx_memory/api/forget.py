# Generated from agentx_memory/api/forget_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade methods that forget. Generated from ``api/forget_async.py``: edit that file."""

from __future__ import annotations

from .._compat.sync import drain
from ..errors import NotFoundError
from ..memory.forgetting import Forgetting
from ..models import Scope
from ..validation import validate_uuid
from .core import FacadeCore

__all__ = ["ForgetApi"]


class ForgetApi(FacadeCore):
    def _forgetting(self) -> Forgetting:
        return (self._open_backends()).forgetting

    def forget_conversation(self, conversation_id: str) -> dict[str, int]:
        """Delete a conversation of this user from Postgres, the graph and Redis; returns the counts.

        The audit log keeps that it happened (with counts), and its older rows about the conversation
        lose their details and payload. Raises :class:`NotFoundError` for an id that is not this user's.
        """
        conversation_id = validate_uuid(conversation_id, "conversation_id")
        backends = self._open_backends()
        drain(backends.pending)  # as forget_user: no consolidation of it may land after
        if not backends.episodic.conversation_exists(self.scope, conversation_id):
            raise NotFoundError(
                f"conversation {conversation_id} does not exist for user {self.scope.user_id!r}"
            )
        report = (self._forgetting()).forget_conversation(self.scope, conversation_id)
        backends.audit.log_write(self.scope, "forget_conversation", "conversation", conversation_id, report)
        return report

    def forget_turn(self, turn_id: str) -> dict[str, int]:
        """Delete one turn of this user from Postgres, the graph and its conversation's working memory
        (an agents session's popped item); returns the counts. Raises :class:`NotFoundError` for an id
        that is not this user's turn."""
        turn_id = validate_uuid(turn_id, "turn_id")
        backends = self._open_backends()
        found = (self._forgetting()).forget_turn(self.scope, turn_id)
        if found is None:
            raise NotFoundError(f"turn {turn_id} does not exist for user {self.scope.user_id!r}")
        conversation_id, channel = str(found.pop("conversation_id")), str(found.pop("channel"))
        session = backends.session(Scope(user_id=self.scope.user_id, channel=channel), conversation_id)
        report = {name: int(value) for name, value in found.items()}
        report["working_turns"] = int(session.drop_turn(turn_id))
        backends.audit.log_write(
            self.scope, "forget_turn", "turn", turn_id, report, conversation_id=conversation_id
        )
        return report

    def forget_fact(self, fact_id: str) -> dict[str, int]:
        """Delete a fact of this user, with its correction chain and promoted copies, everywhere.

        Raises :class:`NotFoundError` for an id that is not this user's fact.
        """
        fact_id = validate_uuid(fact_id, "fact_id")
        backends = self._open_backends()
        report = (self._forgetting()).forget_fact(self.scope, fact_id)
        if report is None:
            raise NotFoundError(f"fact {fact_id} does not exist for user {self.scope.user_id!r}")
        backends.audit.log_write(self.scope, "forget_fact", "fact", fact_id, report)
        return report

    def forget_user(self) -> dict[str, int]:
        """Delete everything this user has in every channel and store; returns the counts."""
        backends = self._open_backends()
        # A background consolidation still running would write learned facts after the deletion
        # (forgotten data resurrected): let it finish first.
        drain(backends.pending)
        report = (self._forgetting()).forget_user(self.scope)
        backends.audit.log_write(self.scope, "forget_user", "user", self.scope.user_id, report)
        return report
