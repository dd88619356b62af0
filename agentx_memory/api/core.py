# Generated from agentx_memory/api/core_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""What every facade mixin may rely on. Async source of ``api/core.py``.

A mixin validates its input, opens the backends, builds the stateless subsystem it needs over them,
calls it, and records the audit trail; the store I/O stays in the subsystem and the adapters.
"""

from __future__ import annotations

from ..backends import Backends
from ..models import Scope
from ..settings import Settings

__all__ = ["FacadeCore"]


class FacadeCore:
    scope: Scope
    settings: Settings

    def _open_backends(self) -> Backends:
        raise NotImplementedError
