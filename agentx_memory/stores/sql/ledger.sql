-- Conversations and turns: the ledger, source of truth for what was said.

-- name: insert_conversation
INSERT INTO conversations (id, user_id, channel, title, metadata, created_at)
VALUES (%(id)s, %(user_id)s, %(channel)s, %(title)s, %(metadata)s, %(created_at)s)
ON CONFLICT (id) DO NOTHING

-- name: get_conversation
SELECT id::text AS id, user_id, channel, title, metadata, created_at, next_turn_index, graph_synced
FROM conversations
WHERE id = %(conversation_id)s AND user_id = %(user_id)s

-- name: mark_conversation_synced
UPDATE conversations SET graph_synced = true WHERE id = %(conversation_id)s AND user_id = %(user_id)s

-- name: append_turn
-- One statement, one round trip, one commit: the UPDATE takes the conversation's row lock (so concurrent
-- writers without an index get consecutive ones) and hands out the index; the INSERT is skipped when
-- the index is taken (an idempotent retry or a conflict, told apart by the caller with get_turn_at);
-- the audit row (when %(audit)s) and the timeline row are written in the same commit as the turn, and
-- only for a new turn.
WITH allocated AS (
    UPDATE conversations
    SET next_turn_index = GREATEST(next_turn_index, COALESCE(%(turn_index)s::integer, next_turn_index) + 1)
    WHERE id = %(conversation_id)s AND user_id = %(user_id)s
    RETURNING channel, COALESCE(%(turn_index)s::integer, next_turn_index - 1) AS turn_index
), inserted AS (
INSERT INTO conversation_logs
    (id, conversation_id, user_id, channel, turn_index, role, content, content_hash, metadata, embedding,
     "timestamp", token_count)
SELECT %(id)s, %(conversation_id)s, %(user_id)s, allocated.channel, allocated.turn_index, %(role)s,
       %(content)s, %(content_hash)s, %(metadata)s, %(embedding)s, %(timestamp)s, %(token_count)s
FROM allocated
ON CONFLICT (conversation_id, turn_index) DO NOTHING
RETURNING id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role,
          content, content_hash, metadata, "timestamp", graph_synced, token_count
), audited AS (
INSERT INTO memory_audit_log
    ("timestamp", user_id, channel, operation, memory_type, memory_id, level, details, payload,
     config_snapshot, conversation_id)
SELECT %(audited_at)s, inserted.user_id, inserted.channel, 'store_turn', 'turn', inserted.id, 'writes',
       jsonb_build_object('conversation_id', inserted.conversation_id, 'turn_index', inserted.turn_index,
                          'role', inserted.role),
       %(audit_payload)s, %(audit_config)s, inserted.conversation_id
FROM inserted
WHERE %(audit)s
), timeline AS (
INSERT INTO memory_timeline
    (user_id, channel, memory_type, memory_id, conversation_id, event_time, summary, importance)
SELECT inserted.user_id, inserted.channel, 'turn', inserted.id, inserted.conversation_id::uuid,
       inserted."timestamp", left(inserted.content, 200), 0.5
FROM inserted
ON CONFLICT (memory_type, memory_id) DO NOTHING
)
SELECT * FROM inserted

-- name: get_turn_at
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp", graph_synced, token_count
FROM conversation_logs
WHERE conversation_id = %(conversation_id)s AND turn_index = %(turn_index)s AND user_id = %(user_id)s

-- name: get_turn_embedding
SELECT embedding FROM conversation_logs WHERE id = %(id)s AND user_id = %(user_id)s

-- name: mark_turn_synced
UPDATE conversation_logs SET graph_synced = true WHERE id = %(id)s AND user_id = %(user_id)s

-- name: relax_commit
-- Only for flags that a replay can recompute (graph_synced): skip the WAL flush wait. A server crash
-- may forget the flag, and reconcile then replays an idempotent graph write; no data is at risk.
SET LOCAL synchronous_commit TO OFF

-- name: list_turns
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp", graph_synced, token_count
FROM conversation_logs
WHERE conversation_id = %(conversation_id)s AND user_id = %(user_id)s
ORDER BY turn_index

-- name: recent_turns
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp", graph_synced, token_count
FROM conversation_logs
WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s) AND "timestamp" >= %(since)s
ORDER BY "timestamp" DESC, turn_index DESC
LIMIT %(limit)s

-- name: count_unsynced_turns
SELECT count(*) AS n FROM conversation_logs WHERE user_id = %(user_id)s AND NOT graph_synced

-- name: insert_timeline
INSERT INTO memory_timeline
    (user_id, channel, memory_type, memory_id, conversation_id, event_time, summary, importance)
VALUES (%(user_id)s, %(channel)s, %(memory_type)s, %(memory_id)s, %(conversation_id)s, %(event_time)s,
        %(summary)s, %(importance)s)
ON CONFLICT (memory_type, memory_id) DO NOTHING

-- name: session_settings
-- What a pooled connection's configure step set (the pool's session settings), for checks and doctor.
SELECT current_setting('plan_cache_mode') AS plan_cache_mode,
       current_setting('hnsw.iterative_scan') AS hnsw_iterative_scan,
       current_setting('search_path') AS search_path
