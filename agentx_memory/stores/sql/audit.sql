-- The audit log (range-partitioned by day; see migrations/001_core.sql).

-- name: insert_audit
INSERT INTO memory_audit_log
    ("timestamp", user_id, channel, operation, memory_type, memory_id, level, details, payload,
     config_snapshot, success, error_message, conversation_id)
VALUES (%(timestamp)s, %(user_id)s, %(channel)s, %(operation)s, %(memory_type)s, %(memory_id)s, %(level)s,
        %(details)s, %(payload)s, %(config_snapshot)s, %(success)s, %(error_message)s,
        %(conversation_id)s)

-- name: ensure_audit_partition
SELECT ensure_audit_partition(%(day)s) AS partition

-- name: list_audit
SELECT id, "timestamp", user_id, channel, operation, memory_type, memory_id, level, details, payload,
       config_snapshot, success, error_message, conversation_id
FROM memory_audit_log
WHERE user_id = %(user_id)s
ORDER BY "timestamp", id
