"""Where a store's bytes are: each Postgres relation of a schema, the WAL written, the FalkorDB graph and
append-only file, the Redis keys of a prefix, and the servers' resident memory. Used by ``scale.py``.

Every figure is read from the servers themselves (``pg_relation_size``, ``pg_current_wal_lsn``,
``GRAPH.MEMORY USAGE``, ``MEMORY USAGE``, ``/proc/<pid>/status``), so it can be taken per namespace
while other namespaces share the servers; only the append-only file and ``pg_wal`` are server-wide.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import psycopg
import redis

from agentx_memory.embedded import ResolvedEndpoints

#: At most this many keys are sized one by one (``MEMORY USAGE``); the rest are counted only.
KEY_SAMPLE = 20_000

_RELATIONS = """
SELECT t.relname, pg_relation_size(t.oid), pg_table_size(t.oid) - pg_relation_size(t.oid),
       coalesce((SELECT json_object_agg(i.relname, pg_relation_size(i.oid))
                 FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = t.oid), '{}')
FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
WHERE n.nspname = %s AND t.relkind IN ('r', 'm')
ORDER BY t.relname
"""


def postgres_relations(url: str, schema: str) -> dict[str, dict[str, Any]]:
    """Per table of the schema: its heap, its TOAST (+ free-space and visibility maps) and each index,
    in bytes. Partitions of the audit log are folded into ``memory_audit_log``."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CHECKPOINT")  # the sizes of relations written since the last one are current
        rows = conn.execute(_RELATIONS, (schema,)).fetchall()
    tables: dict[str, dict[str, Any]] = {}
    for name, heap, toast, indexes in rows:
        key = "memory_audit_log" if name.startswith("memory_audit_log_") else name
        entry = tables.setdefault(key, {"heap": 0, "toast_fsm_vm": 0, "indexes": {}})
        entry["heap"] += int(heap)
        entry["toast_fsm_vm"] += int(toast)
        for index, size in dict(indexes).items():
            # a partition's index is named after it (memory_audit_log_20261128_user_id_...): drop the day
            folded = index if key == name else key + index[index.find("_", len(key) + 1) :]
            entry["indexes"][folded] = entry["indexes"].get(folded, 0) + int(size)
    return tables


def postgres_total(tables: dict[str, dict[str, Any]]) -> int:
    return sum(t["heap"] + t["toast_fsm_vm"] + sum(t["indexes"].values()) for t in tables.values())


def wal_lsn(url: str) -> int:
    """The WAL position in bytes: the difference of two is the WAL written between them."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()
    return int(row[0]) if row else 0


def postgres_settings(url: str) -> dict[str, str]:
    names = ("max_wal_size", "min_wal_size", "wal_compression", "checkpoint_timeout", "shared_buffers")
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT name, setting || coalesce(unit, '') FROM pg_settings WHERE name = ANY(%s)", (list(names),)
        ).fetchall()
    return {str(name): str(value) for name, value in rows}


def directory_bytes(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(
        entry.stat().st_size for entry in path.rglob("*") if entry.is_file() and not entry.is_symlink()
    )


def graph_memory(url: str, graph: str) -> int | None:
    """``GRAPH.MEMORY USAGE`` in bytes (FalkorDB ≥ 4.10 reports MB), or None where the server lacks it."""
    with redis.Redis.from_url(url) as conn:
        try:
            reply = conn.execute_command("GRAPH.MEMORY", "USAGE", graph)
        except redis.ResponseError:
            return None
    pairs = reply.items() if isinstance(reply, dict) else zip(reply[::2], reply[1::2], strict=False)
    fields = {(k.decode() if isinstance(k, bytes) else str(k)): v for k, v in pairs}
    total = fields.get("total_graph_sz_mb")
    return int(float(total) * 1024 * 1024) if total is not None else None


def redis_keys(url: str, prefix: str) -> dict[str, int]:
    """The prefix's keys: how many, and the bytes ``MEMORY USAGE`` gives them (the first KEY_SAMPLE
    sized, the rest estimated at their mean)."""
    count = sized = sized_bytes = 0
    with redis.Redis.from_url(url) as conn:
        for key in conn.scan_iter(match=f"{prefix}:*", count=1000):
            count += 1
            if sized < KEY_SAMPLE:
                sized += 1
                sized_bytes += int(conn.memory_usage(key) or 0)
    estimate = sized_bytes * count // sized if sized else 0
    return {"keys": count, "bytes": estimate}


def rewrite_append_only_file(url: str, timeout_s: float = 300.0) -> None:
    """BGREWRITEAOF and wait for it: what the embedded server does before a planned stop, and what
    Redis does by itself once the file doubles (``auto-aof-rewrite-percentage``)."""
    with redis.Redis.from_url(url) as conn:
        with contextlib.suppress(redis.ResponseError):
            conn.bgrewriteaof()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            info = conn.info("persistence")
            if not int(info.get("aof_rewrite_in_progress", 0)) and not int(
                info.get("aof_rewrite_scheduled", 0)
            ):
                return
            time.sleep(0.2)


def resident_kib(pid: int | None) -> int | None:
    """VmRSS of a process (KiB), None when it cannot be read."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def postgres_resident_kib(url: str) -> int | None:
    """The postmaster and all its children (backends, checkpointer, …): the sum of their VmRSS, which
    counts the shared buffers once per process that touched them, so an upper bound."""
    with psycopg.connect(url, autocommit=True) as conn:
        pids = [int(row[0]) for row in conn.execute("SELECT pid FROM pg_stat_activity").fetchall()]
    total = [resident_kib(pid) for pid in pids]
    return sum(value for value in total if value is not None) or None


def falkordb_resident_kib(url: str) -> int | None:
    with redis.Redis.from_url(url) as conn:
        info = conn.info("server")
    return resident_kib(int(info["process_id"]))


def snapshot(
    endpoints: ResolvedEndpoints, data_dir: Path, schema: str, graph: str, prefix: str
) -> dict[str, Any]:
    """Everything above for one namespace, at one moment."""
    graph_url = endpoints.falkordb_url or endpoints.redis_url
    tables = postgres_relations(endpoints.postgres_url, schema)
    return {
        "postgres_tables": tables,
        "postgres_total": postgres_total(tables),
        "wal_lsn": wal_lsn(endpoints.postgres_url),
        "pg_wal_dir": directory_bytes(data_dir / "postgres" / "pg_wal"),
        "falkordb_aof_dir": directory_bytes(data_dir / "falkordb" / "appendonlydir"),
        "graph_memory": graph_memory(graph_url, graph),
        "redis": redis_keys(endpoints.redis_url, prefix),
        "postgres_rss_kib": postgres_resident_kib(endpoints.postgres_url),
        "falkordb_rss_kib": falkordb_resident_kib(graph_url),
    }
