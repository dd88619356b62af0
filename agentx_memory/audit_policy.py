"""What the audit log records: the settings snapshot each row carries. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .settings import Settings

__all__ = ["AuditOutcome", "config_snapshot"]


@dataclass(frozen=True)
class AuditOutcome:
    """What a row says beyond the operation: the conversation it belongs to, and a failure's message
    (a row with an error is written with ``success`` false)."""

    conversation_id: str | None = None
    error: str | None = None


def config_snapshot(settings: Settings) -> dict[str, Any]:
    """The settings that shape what is stored and recalled (no URLs, no secrets)."""
    return {
        "graph_backend": settings.graph.backend,
        "embedding": {"provider": settings.embedding.provider, "model": settings.embedding.model,
                      "dimensions": settings.embedding.dimensions},
        "audit_level": settings.audit.level,
        "working": settings.working.model_dump(),
        "retrieval": settings.retrieval.model_dump(),
        "promotion": settings.promotion.model_dump(),
        "decay": settings.decay.model_dump(),
        "maintenance": settings.maintenance.model_dump(),
    }  # fmt: skip
