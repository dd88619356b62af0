"""What the Postgres adapter knows about its own schema, without I/O: the migration files, the version a
store must reach, the audit partitions it keeps ahead, and the embedding lock check."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Final

from ..errors import EmbeddingDimensionError, StoreError
from ..resources import resource_dir

__all__ = [
    "AUDIT_DEFAULTS",
    "MIGRATION_LOCK",
    "SchemaState",
    "check_embedding_lock",
    "latest_migration",
    "migration_files",
    "partition_days",
]

_MIGRATION = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")
#: The audit columns a caller may leave out (migration 005 added them): a success, in no conversation.
AUDIT_DEFAULTS: Final[Mapping[str, object]] = {
    "success": True,
    "error_message": None,
    "conversation_id": None,
}
#: One advisory lock for every migrating process, whatever the schema (CREATE EXTENSION is global).
MIGRATION_LOCK = 0x6167_656E_7478


@dataclass(frozen=True)
class SchemaState:
    """Where a store stands: its schema version (0: never migrated), the embedding shape it locked,
    and whether the furthest audit partition it must keep ahead exists."""

    version: int
    locked: Mapping[str, str]
    partitions_ready: bool


@cache
def migration_files() -> tuple[tuple[int, str, str], ...]:
    """``(version, name, text)`` of every file in ``migrations/``, in version order. Read once."""
    found: list[tuple[int, str, str]] = []
    for path in sorted(resource_dir("migrations").glob("*.sql")):
        match = _MIGRATION.match(path.name)
        if match is None:
            raise StoreError(f"migration file {path.name!r} is not named NNN_name.sql")
        found.append((int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    return tuple(found)


def latest_migration() -> int:
    """The schema version this code needs."""
    return max((version for version, _, _ in migration_files()), default=0)


def partition_days(days_ahead: int, today: date | None = None) -> list[date]:
    """The audit partitions kept: from yesterday to ``days_ahead`` days from today (UTC)."""
    today = today if today is not None else datetime.now(UTC).date()
    return [today + timedelta(days=offset) for offset in range(-1, days_ahead + 1)]


def check_embedding_lock(locked: Mapping[str, str], embedding_dim: int, embedding_model: str) -> None:
    """Refuse an embedder whose vectors cannot be compared with the stored ones (never mix them), and
    any embedder while a reindex is unfinished (``locked`` then holds its ``reindex_*`` keys): its
    stores hold vectors of both models."""
    dim = locked.get("embedding_dimensions")
    model = locked.get("embedding_model")
    if (target := locked.get("reindex_model")) is not None:
        raise EmbeddingDimensionError(
            f"a reindex of this store to model {target!r} ({locked.get('reindex_dimensions')} dimensions) "
            "was started and not finished, so it holds vectors of two models: configure that embedder "
            "and run `agentx-memory reindex` again to finish it."
        )
    # The two ways out: re-embed what is stored, or go back to the embedder that wrote it.
    reindex = "Run `agentx-memory reindex` to re-embed the stored memories with the configured embedder"
    if dim is not None and int(dim) != embedding_dim:
        raise EmbeddingDimensionError(
            f"this database stores {dim}-dimensional embeddings (model {model!r}) but the configured "
            f"embedder produces {embedding_dim}. {reindex}, or set AGENTX_EMBEDDING__DIMENSIONS={dim} "
            f"and AGENTX_EMBEDDING__MODEL={model} back."
        )
    if model is not None and model != embedding_model:
        raise EmbeddingDimensionError(
            f"this database stores embeddings of model {model!r} but the configured embedder is "
            f"{embedding_model!r}. {reindex}, or set AGENTX_EMBEDDING__MODEL back to the model that "
            "wrote them."
        )
