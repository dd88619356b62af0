-- The audit log (range-partitioned by day; see migrations/001_core.sql).

-- name: insert_audit
-- The settings snapshot is stored once per distinct value (migration 014); the row keeps its hash.
WITH snapshot AS (
    INSERT INTO audit_config_snapshots (hash, snapshot)
    VALUES (md5(%(config_snapshot)s::text), %(config_snapshot)s)
    ON CONFLICT (hash) DO NOTHING
)
INSERT INTO memory_audit_log
    ("timestamp", user_id, channel, operation, memory_type, memory_id, level, details, payload,
     config_hash, success, error_message, conversation_id)
VALUES (%(timestamp)s, %(user_id)s, %(channel)s, %(operation)s, %(memory_type)s, %(memory_id)s, %(level)s,
        %(details)s, %(payload)s, md5(%(config_snapshot)s::text), %(success)s, %(error_message)s,
        %(conversation_id)s)

-- name: ensure_audit_partition
SELECT ensure_audit_partition(%(day)s) AS partition

-- name: list_audit
SELECT a.id, a."timestamp", a.user_id, a.channel, a.operation, a.memory_type, a.memory_id, a.level,
       a.details, a.payload, coalesce(s.snapshot, a.config_snapshot) AS config_snapshot, a.success,
       a.error_message, a.conversation_id
FROM memory_audit_log a
LEFT JOIN audit_config_snapshots s ON s.hash = a.config_hash
WHERE a.user_id = %(user_id)s
ORDER BY a."timestamp", a.id
