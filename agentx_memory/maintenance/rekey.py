# Generated from agentx_memory/maintenance/rekey_async.py by tools/async_to_sync.py.
# Edit the source, not this file.
"""``agentx-memory rotate-key``: re-encrypt the ledger's sensitive values under the current key.

Generated from ``maintenance/rekey_async.py``: edit that file. Every value of every user that is not under
``security.encryption_key`` (sealed with a key of ``security.old_encryption_keys``, or stored plain before
encryption was switched on) is decrypted and sealed again, table by table in keyset pages
(``stores/sql/rekey.sql``). Resumable without bookkeeping: a finished page no longer matches, so a rerun after
an interruption picks up the rest. A page is written back only where a row still holds what was read, so
writes made meanwhile are never overwritten (they are under the current key anyway). Then the graph's and
Redis' copies of those values (``rekey_copies_async.py``), the same way."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final

from psycopg.types.json import Jsonb

from .._compat.sync import to_thread
from ..crypto import Encryptor, build_encryptor, open_json, seal_json
from ..embedded import resolve_endpoints
from ..errors import EncryptionKeyError
from ..settings import Settings
from ..stores.factory import attach_graph
from ..stores.postgres import PostgresStore
from ..stores.redis import RedisStore
from ..stores.sealing import TURN_METADATA_PLAIN
from .reindex_rules import QuietProgress, ReindexProgress
from .rekey_copies import rekey_graph, rekey_redis

__all__ = ["REKEY_TABLES", "RekeyReport", "rekey"]

#: The tables holding sealed columns, with where their keyset pages start.
REKEY_TABLES: Final = {
    "conversations": "00000000-0000-0000-0000-000000000000",
    "conversation_logs": "00000000-0000-0000-0000-000000000000",
    "tool_invocations": "00000000-0000-0000-0000-000000000000",
    "memory_audit_log": "0",
}
_KEEP: Final = {"conversation_logs": TURN_METADATA_PLAIN}


@dataclass
class RekeyReport:
    """Rows re-encrypted per table, the key they are under now, and how long it took."""

    kid: str
    rows: dict[str, int] = field(default_factory=dict)
    #: The other stores' copies re-sealed: graph nodes per label, and ``redis turns``.
    copies: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return sum(self.rows.values()) / self.seconds if self.seconds > 0 else 0.0


def rekey(settings: Settings, *, batch: int = 500, progress: ReindexProgress | None = None) -> RekeyReport:
    """Re-encrypt every sensitive ledger value under the current key, ``batch`` rows per write."""
    encryptor = build_encryptor(settings.security)
    if encryptor is None:
        raise EncryptionKeyError(
            "rotate-key needs the new key: set AGENTX_SECURITY__ENCRYPTION_KEY to it and "
            'AGENTX_SECURITY__OLD_ENCRYPTION_KEYS to the old ones (a JSON list: ["<old key>"])'
        )
    began = time.perf_counter()
    progress = progress if progress is not None else QuietProgress()
    report = RekeyReport(kid=encryptor.current_kid)
    endpoints = to_thread(resolve_endpoints, settings)
    ledger = PostgresStore.attach(endpoints.postgres_url, settings.postgres, encryptor)
    try:
        for table in REKEY_TABLES:
            report.rows[table] = _rekey_table(ledger, encryptor, table, batch, progress)
        graph = attach_graph(settings, endpoints.falkordb_url)
        try:
            report.copies = {
                f"graph {label}": n for label, n in (rekey_graph(ledger, graph, encryptor, batch)).items()
            }
        finally:
            graph.close()
    finally:
        ledger.close()
    redis = RedisStore.of(endpoints.redis_url, settings.redis)
    try:
        report.copies["redis turns"] = rekey_redis(redis, encryptor, settings.redis.key_prefix)
    finally:
        redis.close()
    report.seconds = time.perf_counter() - began
    return report


def _rekey_table(
    ledger: PostgresStore, encryptor: Encryptor, table: str, batch: int, progress: ReindexProgress
) -> int:
    current = {"current": encryptor.prefix + "%"}
    counted = ledger.fetch_one(f"rekey_count_{table}", current)
    progress.start(f"ledger {table}", int(counted["count"]) if counted else 0)
    after, done = REKEY_TABLES[table], 0
    while True:
        rows = ledger.fetch_all(f"rekey_rows_{table}", {**current, "after": after, "limit": batch})
        if not rows:
            return done
        written = [_resealed(encryptor, row, _KEEP.get(table, ())) for row in rows]
        done += ledger.execute(f"rekey_write_{table}", {"rows": Jsonb(written)})
        progress.advance(f"ledger {table}", len(rows))
        after = str(rows[-1]["key"])


def _resealed(encryptor: Encryptor, row: dict[str, Any], keep: tuple[str, ...]) -> dict[str, Any]:
    """A row's fields decrypted (with any configured key) and sealed under the current one."""
    user_id = str(row["user_id"])
    fields = {
        name: None
        if value is None
        else seal_json(encryptor, open_json(encryptor, value, user_id), user_id, keep)
        for name, value in dict(row["fields"]).items()
    }
    written: dict[str, Any] = {"key": row["key"], "fields": fields, "old": row["fields"]}
    if "ts" in row:
        written["ts"] = row["ts"]
    return written
