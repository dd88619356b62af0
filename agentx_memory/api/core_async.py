"""What every facade mixin may rely on. Async source of ``api/core.py``.

A mixin validates its input, opens the backends, builds the stateless subsystem it needs over them,
calls it, and records the audit trail; the store I/O stays in the subsystem and the adapters.
"""

from __future__ import annotations

from ..backends_async import AsyncBackends
from ..models import Scope
from ..settings import Settings

__all__ = ["AsyncFacadeCore"]


class AsyncFacadeCore:
    scope: Scope
    settings: Settings

    async def _open_backends(self) -> AsyncBackends:
        raise NotImplementedError
