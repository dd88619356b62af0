# Generated from agentx_memory/api/health_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""Facade method ``health``: whether each store answers now. Generated from ``api/health_async.py``: edit that
file.

For a liveness endpoint (the MCP server's ``/health``) and operators: it never raises for a store that
is down, it names it; each store gets its own bounded round trip, so one that hangs cannot hide the
others' answers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from .._compat.sync import within
from ..backends import Backends
from ..errors import AgentMemoryError
from ..validation import validate_timeout
from .core import FacadeCore

__all__ = ["HealthApi"]

log = logging.getLogger(__name__)

#: The stores ``health`` checks, in the order the write path uses them.
STORES = ("postgres", "graph", "redis")


class HealthApi(FacadeCore):
    def health(self, timeout_s: float = 3.0) -> dict[str, str | None]:
        """Each store (``postgres``, ``graph``, ``redis``) → ``None`` when it answered a round trip
        within ``timeout_s``, else why not. Stores that cannot even be opened are all reported so."""
        timeout_s = validate_timeout(timeout_s)
        try:
            backends = self._open_backends()
        except AgentMemoryError as exc:
            return dict.fromkeys(STORES, f"cannot open the stores: {exc}")
        # Any: the sync twin's pings return None where these return awaitables
        checks: dict[str, Callable[[Backends], Any]] = {
            "postgres": lambda b: b.ledger.ping(),
            "graph": lambda b: b.graph.ping(),
            "redis": lambda b: b.redis.ping(),
        }
        found: dict[str, str | None] = {}
        for name, check in checks.items():
            try:
                within(check(backends), timeout_s)
            except TimeoutError:
                found[name] = f"no answer within {timeout_s:g} s"
            except Exception as exc:  # a health check reports every failure; it must not raise one
                log.info("health: %s does not answer: %s", name, exc)
                found[name] = str(exc) or type(exc).__name__
            else:
                found[name] = None
        return found
