# Generated from agentx_memory/api/core_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""What every facade mixin may rely on. Generated from ``api/core_async.py``: edit that file.

A mixin validates its input, opens the backends, builds the stateless subsystem it needs over them,
calls it, and records the audit trail; the store I/O stays in the subsystem and the adapters.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from .._compat.sync import aside
from ..backends import Backends
from ..errors import AgentMemoryError
from ..models import MemoryItem, Scope
from ..retrieval.items import reinforcement_targets
from ..settings import Settings

__all__ = ["FacadeCore"]

log = logging.getLogger(__name__)


class FacadeCore:
    scope: Scope
    settings: Settings

    def _open_backends(self) -> Backends:
        raise NotImplementedError

    def _audit_cross_channel(
        self, backends: Backends, memory_type: str, found: Sequence[tuple[str, str]]
    ) -> None:
        """Record the ``(id, channel)`` results a read took from outside the active channel.

        Recall that crosses channels is part of the trail even at the default audit level ("writes").
        """
        crossed = [
            {"id": item_id, "channel": channel} for item_id, channel in found if channel != self.scope.channel
        ]
        if crossed:
            backends.audit.log_write(
                self.scope,
                "cross_channel_recall",
                memory_type,
                None,
                {"channel": self.scope.channel, "matches": crossed},
            )

    def _open_for_recall(self, operation: str) -> Backends:
        """The backends, once the user's recall rate limit admits ``operation`` (else
        :class:`~agentx_memory.errors.RateLimitedError`)."""
        backends = self._open_backends()
        backends.rate_limiter.admit_recall(self.scope, operation)
        return backends

    def _reinforce_later(self, backends: Backends, items: Sequence[MemoryItem]) -> None:
        """Count one more access of the facts and entities among ``items``, off the caller's path (a
        task, or a pooled worker thread in the sync API: ~0.8 ms, a commit, of every sync `remember`)."""
        facts, entities = reinforcement_targets(items)
        if self.settings.retrieval.reinforce_access and (facts or entities):
            aside(self._reinforce, backends.pending, backends, facts, entities)

    def _reinforce(self, backends: Backends, facts: list[str], entities: list[str]) -> None:
        # Off the critical path: a failed counter update must never fail (or slow) a recall. The counts
        # go to the ledger, not to the graph nodes (a node write re-indexes its vector).
        try:
            backends.access.touch_recalled(self.scope, {"fact": facts, "entity": entities})
        except AgentMemoryError as exc:
            log.warning("recall reinforcement failed for user %s: %s", self.scope.user_id, exc)
