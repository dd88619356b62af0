# Generated from agentx_memory/audit_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""MemoryAuditLogger: who changed or read what, when, under which settings. Generated from ``audit_async.py``:
edit that file.

Levels: ``off`` (nothing), ``writes`` (every write), ``reads`` (writes and reads), ``verbose`` (both,
with payloads). The row never carries secrets; ``audit_policy.config_snapshot``
records the settings in force.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from psycopg.types.json import Jsonb

from .audit_policy import AuditOutcome
from .models import Scope
from .settings import AuditLevel
from .stores.ports import Ledger

__all__ = ["MemoryAuditLogger"]

_RANK = {"off": 0, "writes": 1, "reads": 2, "verbose": 3}


class MemoryAuditLogger:
    def __init__(self, ledger: Ledger, level: AuditLevel, snapshot: dict[str, Any]) -> None:
        self._ledger = ledger
        self.level = level
        self._snapshot = snapshot

    def enabled(self, kind: AuditLevel) -> bool:
        return _RANK[self.level] >= _RANK[kind] > 0

    def inline_write(self, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        """Parameters for a statement that writes its own audit row in the same commit (``append_turn``)."""
        return {
            "audit": self.enabled("writes"),
            "audited_at": datetime.now(UTC),
            "audit_payload": Jsonb(payload) if payload is not None and self.enabled("verbose") else None,
            "audit_config": Jsonb(self._snapshot),
        }

    def inline_payloads(self, payloads: list[dict[str, Any]]) -> list[Jsonb] | None:
        """One payload per row of a statement that writes many audit rows (``append_turns``), or
        ``None`` below ``verbose``."""
        return [Jsonb(payload) for payload in payloads] if self.enabled("verbose") else None

    def log_write(
        self,
        scope: Scope,
        operation: str,
        memory_type: str | None,
        memory_id: str | None,
        details: dict[str, Any] | None = None,
        payload: dict[str, Any] | None = None,
        *,
        conversation_id: str | None = None,
        error: str | None = None,
    ) -> None:
        """One row for a write; ``error`` records a failed one (``success`` false, its message kept)."""
        if self.enabled("writes"):
            outcome = AuditOutcome(conversation_id, error)
            self._insert(scope, operation, memory_type, memory_id, "writes", details, payload, outcome)

    def log_read(
        self,
        scope: Scope,
        operation: str,
        details: dict[str, Any] | None = None,
        payload: dict[str, Any] | None = None,
    ) -> None:
        if self.enabled("reads"):
            self._insert(scope, operation, None, None, "reads", details, payload)

    def _insert(
        self,
        scope: Scope,
        operation: str,
        memory_type: str | None,
        memory_id: str | None,
        kind: AuditLevel,
        details: dict[str, Any] | None,
        payload: dict[str, Any] | None,
        outcome: AuditOutcome | None = None,
    ) -> None:
        outcome = outcome or AuditOutcome()
        self._ledger.insert_audit(
            {
                "timestamp": datetime.now(UTC),
                "user_id": scope.user_id,
                "channel": scope.channel,
                "operation": operation,
                "memory_type": memory_type,
                "memory_id": memory_id,
                "level": kind,
                "details": Jsonb(details or {}),
                "payload": Jsonb(payload) if payload is not None and self.enabled("verbose") else None,
                "config_snapshot": Jsonb(self._snapshot),
                "success": outcome.error is None,
                "error_message": outcome.error,
                "conversation_id": outcome.conversation_id,
            }
        )
