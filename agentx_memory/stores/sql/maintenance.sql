-- Maintenance jobs: their runs, and the users they walk through.

-- name: insert_maintenance_run
INSERT INTO maintenance_runs (job, started_at, duration_ms, status, dry_run, counts, details, error)
VALUES (%(job)s, %(started_at)s, %(duration_ms)s, %(status)s, %(dry_run)s, %(counts)s, %(details)s,
        %(error)s)

-- name: last_maintenance_runs
SELECT DISTINCT ON (job) job, started_at, duration_ms, status, dry_run, counts, details, error
FROM maintenance_runs
ORDER BY job, started_at DESC, id DESC

-- name: list_users
-- Every user the ledger knows: whoever has a conversation, a profile or any memory (every write of a
-- fact, entity, goal or strategy leaves a timeline row, so a user who never chatted is found too), or
-- documents only (a LangGraph store's items).
SELECT user_id FROM conversations
UNION
SELECT user_id FROM user_profiles
UNION
SELECT DISTINCT user_id FROM memory_timeline
UNION
SELECT DISTINCT user_id FROM documents
ORDER BY user_id

-- name: user_summaries
-- The users list_users finds, each with what it holds in the ledger: conversations, turns, the
-- timeline's memories by type (corrected facts included: history is kept), documents, latest write.
WITH users AS (
    SELECT user_id FROM conversations
    UNION SELECT user_id FROM user_profiles
    UNION SELECT user_id FROM memory_timeline
    UNION SELECT user_id FROM documents
), timeline AS (
    SELECT user_id, memory_type, count(*) AS n, max(created_at) AS latest
    FROM memory_timeline GROUP BY user_id, memory_type
)
SELECT u.user_id,
       (SELECT count(*) FROM conversations c WHERE c.user_id = u.user_id) AS conversations,
       (SELECT count(*) FROM conversation_logs l WHERE l.user_id = u.user_id) AS turns,
       COALESCE((SELECT json_object_agg(t.memory_type, t.n) FROM timeline t
                 WHERE t.user_id = u.user_id AND t.memory_type <> 'turn'), '{}'::json) AS memories,
       (SELECT count(*) FROM documents d WHERE d.user_id = u.user_id) AS documents,
       GREATEST((SELECT max(l."timestamp") FROM conversation_logs l WHERE l.user_id = u.user_id),
                (SELECT max(t.latest) FROM timeline t WHERE t.user_id = u.user_id),
                (SELECT max(d.updated_at) FROM documents d WHERE d.user_id = u.user_id)) AS latest_write
FROM users u
ORDER BY u.user_id

-- name: drop_audit_partitions_before
SELECT drop_audit_partitions_before(%(cutoff)s, %(dry)s) AS partition

-- name: table_rows
-- Live rows per table of this schema (the statistics collector's estimate: cheap on any size).
SELECT relname AS "table", n_live_tup AS rows
FROM pg_stat_user_tables
WHERE schemaname = current_schema()
ORDER BY relname

-- name: list_user_project_channels
-- The project channels one user has conversations in (where learned facts come from); _global is left out.
SELECT DISTINCT channel FROM conversations
WHERE user_id = %(user_id)s AND channel <> '_global'
ORDER BY channel

-- name: conversations_to_archive
-- One user's unarchived conversations whose last turn (or, without turns, creation) is before the cutoff.
SELECT c.id FROM conversations c
WHERE c.user_id = %(user_id)s AND c.archived_at IS NULL
  AND coalesce((SELECT max(l."timestamp") FROM conversation_logs l WHERE l.conversation_id = c.id),
               c.created_at) < %(cutoff)s
ORDER BY c.id

-- name: archive_conversation
UPDATE conversations SET archived_at = %(now)s
WHERE id = %(id)s AND user_id = %(user_id)s AND archived_at IS NULL

-- name: trim_tool_payloads
-- Session-ledger detail past retention: one user's tool-call payloads become a marker; the tool name,
-- success, latency and error stay (tool statistics and strategies read those). With dry, only counted.
WITH old AS (
    SELECT id FROM tool_invocations
    WHERE user_id = %(user_id)s AND created_at < %(cutoff)s
      AND NOT (tool_input = '{"trimmed": true}'::jsonb AND tool_output IS NULL)
), trimmed AS (
    UPDATE tool_invocations t SET tool_input = '{"trimmed": true}'::jsonb, tool_output = NULL
    FROM old WHERE t.id = old.id AND NOT %(dry)s
    RETURNING t.id
)
SELECT (SELECT count(*) FROM old) AS n

-- name: unsynced_turns
-- Ledger turns whose graph write has not been confirmed (reconcile replays them), oldest first.
SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.user_id, l.channel, l.turn_index,
       l.role, l.content, l.content_hash, l.metadata, l."timestamp", false AS graph_synced, l.token_count
FROM turn_sync_pending p JOIN conversation_logs l ON l.id = p.turn_id
ORDER BY l."timestamp", l.turn_index
LIMIT %(limit)s

-- name: unsynced_conversations
SELECT id::text AS id, user_id FROM conversations WHERE NOT graph_synced ORDER BY created_at LIMIT %(limit)s

-- name: forgets_since_vector_compaction
-- Forgetting (any user) since the last vector_compaction that ran: a forgotten memory's vector lingers
-- as a stale entry in FalkorDB's HNSW index until the index is rebuilt, so the job then rebuilds any
-- index with a stale entry. Audit rows are the record (forgetting is audited at every level but off).
SELECT count(*) AS forgets
FROM memory_audit_log
WHERE operation IN ('forget_user', 'forget_conversation', 'forget_fact', 'forget_turn')
  AND "timestamp" > coalesce(
      (SELECT max(started_at) FROM maintenance_runs
       WHERE job = 'vector_compaction' AND status = 'done' AND NOT dry_run),
      '-infinity'::timestamptz)
