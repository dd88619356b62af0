"""The parameters every scoped graph statement takes: pure, shared by the subsystems."""

from __future__ import annotations

from typing import Any

from ..models import Scope

__all__ = ["scope_params"]


def scope_params(scope: Scope, **values: Any) -> dict[str, Any]:
    """``values`` plus the scope's ``user_id``, write ``channel`` and read ``channels``."""
    return {"user_id": scope.user_id, "channel": scope.channel, "channels": scope.read_channels, **values}
