"""What every facade mixin may rely on. Async source of ``api/core.py``.

A mixin validates its input, opens the backends, builds the stateless subsystem it needs over them,
calls it, and records the audit trail; the store I/O stays in the subsystem and the adapters.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..backends_async import AsyncBackends
from ..models import Scope
from ..settings import Settings

__all__ = ["AsyncFacadeCore"]


class AsyncFacadeCore:
    scope: Scope
    settings: Settings

    async def _open_backends(self) -> AsyncBackends:
        raise NotImplementedError

    async def _audit_cross_channel(
        self, backends: AsyncBackends, memory_type: str, found: Sequence[tuple[str, str]]
    ) -> None:
        """Record the ``(id, channel)`` results a read took from outside the active channel.

        Recall that crosses channels is part of the trail even at the default audit level ("writes").
        """
        crossed = [
            {"id": item_id, "channel": channel} for item_id, channel in found if channel != self.scope.channel
        ]
        if crossed:
            await backends.audit.log_write(
                self.scope,
                "cross_channel_recall",
                memory_type,
                None,
                {"channel": self.scope.channel, "matches": crossed},
            )
