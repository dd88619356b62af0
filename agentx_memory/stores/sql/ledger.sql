-- Conversations and turns: the ledger, source of truth for what was said.

-- name: ping
-- The health check's round trip.
SELECT 1 AS ok

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
-- only for a new turn. With %(with_context)s the turn before it joins its full-text entry when it answers
-- it (another role or speaker asked a question there; migration 012, the rule in migration 013's
-- turn_question_context). derived_version 1: the turn has its derived fields (migration 013).
WITH allocated AS (
    UPDATE conversations
    SET next_turn_index = GREATEST(next_turn_index, COALESCE(%(turn_index)s::integer, next_turn_index) + 1)
    WHERE id = %(conversation_id)s AND user_id = %(user_id)s
    RETURNING channel, COALESCE(%(turn_index)s::integer, next_turn_index - 1) AS turn_index
), inserted AS (
INSERT INTO conversation_logs
    (id, conversation_id, user_id, channel, turn_index, role, content, content_hash, metadata, embedding,
     "timestamp", token_count, event_start, event_end, event_label, context_text, derived_version)
SELECT %(id)s, %(conversation_id)s, %(user_id)s, allocated.channel, allocated.turn_index, %(role)s,
       %(content)s, %(content_hash)s, %(metadata)s, %(embedding)s, %(timestamp)s, %(token_count)s,
       %(event_start)s, %(event_end)s, %(event_label)s,
       CASE WHEN %(with_context)s THEN
           (SELECT turn_question_context(p.role, p.metadata, p.content, %(role)s::text, %(metadata)s::jsonb)
            FROM conversation_logs p
            WHERE p.conversation_id = %(conversation_id)s::uuid AND p.user_id = %(user_id)s
              AND p.turn_index = allocated.turn_index - 1)
       END,
       1
FROM allocated
ON CONFLICT (conversation_id, turn_index) DO NOTHING
RETURNING id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role,
          content, content_hash, metadata, "timestamp", false AS graph_synced, token_count
), unsynced AS (
-- until the graph confirms it (mark_turn_synced); migration 016
INSERT INTO turn_sync_pending (turn_id) SELECT inserted.id::uuid FROM inserted
), audit_snapshot AS (
-- the settings snapshot once per distinct value, the row keeps its hash (migration 014)
INSERT INTO audit_config_snapshots (hash, snapshot)
SELECT md5(%(audit_config)s::text), %(audit_config)s
WHERE %(audit)s
ON CONFLICT (hash) DO NOTHING
), audited AS (
INSERT INTO memory_audit_log
    ("timestamp", user_id, channel, operation, memory_type, memory_id, level, details, payload,
     config_hash, conversation_id)
SELECT %(audited_at)s, inserted.user_id, inserted.channel, 'store_turn', 'turn', inserted.id, 'writes',
       jsonb_build_object('conversation_id', inserted.conversation_id, 'turn_index', inserted.turn_index,
                          'role', inserted.role),
       %(audit_payload)s, md5(%(audit_config)s::text), inserted.conversation_id
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

-- name: append_turns
-- store_turns: append_turn for a whole batch in one statement (one round trip, one commit). The turns
-- come as parallel arrays; each is placed at its given index, or (a batch without indexes) at the
-- next ones, allocated under the conversation's row lock. A batch that clashes with a stored turn
-- (another role or content at one of its indexes) writes nothing; the caller finds the clash among the
-- stored rows returned with created = false. Audit and timeline rows as append_turn's, one per new turn
-- (audit_payloads: one per turn, or NULL for none; written by the caller so that it can be encrypted).
-- With %(with_context)s each answer's full-text entry holds the question before it (another role or
-- speaker asked it): from the batch when that one is in it, else from the ledger (migration 012; the
-- rule is migration 013's turn_question_context). derived_version as append_turn's.
WITH batch AS (
    SELECT *
    FROM unnest(%(ids)s::uuid[], %(turn_indexes)s::integer[], %(roles)s::text[], %(contents)s::text[],
                %(content_hashes)s::text[], %(metadata)s::jsonb[], %(embeddings)s::vector[],
                %(timestamps)s::timestamptz[], %(token_counts)s::integer[], %(audit_payloads)s::jsonb[],
                %(event_starts)s::timestamptz[], %(event_ends)s::timestamptz[], %(event_labels)s::text[])
         WITH ORDINALITY AS b (id, turn_index, role, content, content_hash, metadata, embedding, "timestamp",
                               token_count, audit_payload, event_start, event_end, event_label, position)
), clash AS (
    SELECT 1
    FROM conversation_logs AS l JOIN batch ON l.turn_index = batch.turn_index
    WHERE l.conversation_id = %(conversation_id)s::uuid AND l.user_id = %(user_id)s
      AND l.content_hash <> batch.content_hash
), allocated AS (
    UPDATE conversations
    SET next_turn_index = GREATEST(next_turn_index + %(appended)s::integer,
                                   COALESCE(%(max_index)s::integer + 1, 0))
    WHERE id = %(conversation_id)s::uuid AND user_id = %(user_id)s AND NOT EXISTS (SELECT FROM clash)
    RETURNING channel, next_turn_index - %(appended)s::integer AS start
), placed AS (
    SELECT batch.*, allocated.channel,
           COALESCE(batch.turn_index, allocated.start + batch.position::integer - 1) AS placed_index
    FROM batch CROSS JOIN allocated
), previous AS (
    SELECT placed.*,
           lag(placed_index) OVER (ORDER BY placed_index) AS previous_index,
           lag(role) OVER (ORDER BY placed_index) AS previous_role,
           lag(metadata) OVER (ORDER BY placed_index) AS previous_metadata,
           lag(content) OVER (ORDER BY placed_index) AS previous_content
    FROM placed
), inserted AS (
INSERT INTO conversation_logs
    (id, conversation_id, user_id, channel, turn_index, role, content, content_hash, metadata, embedding,
     "timestamp", token_count, event_start, event_end, event_label, context_text, derived_version)
SELECT b.id, %(conversation_id)s::uuid, %(user_id)s, b.channel, b.placed_index, b.role, b.content,
       b.content_hash, b.metadata, b.embedding, b."timestamp", b.token_count,
       b.event_start, b.event_end, b.event_label,
       CASE WHEN NOT %(with_context)s THEN NULL
            WHEN b.previous_index = b.placed_index - 1 THEN
                turn_question_context(b.previous_role, b.previous_metadata, b.previous_content, b.role,
                                      b.metadata)
            ELSE (SELECT turn_question_context(p.role, p.metadata, p.content, b.role, b.metadata)
                  FROM conversation_logs p
                  WHERE p.conversation_id = %(conversation_id)s::uuid AND p.user_id = %(user_id)s
                    AND p.turn_index = b.placed_index - 1)
       END,
       1
FROM previous b
ORDER BY b.position
ON CONFLICT (conversation_id, turn_index) DO NOTHING
RETURNING id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role,
          content, content_hash, metadata, "timestamp", false AS graph_synced, token_count
), unsynced AS (
-- until the graph confirms it (mark_turn_synced); migration 016
INSERT INTO turn_sync_pending (turn_id) SELECT inserted.id::uuid FROM inserted
), audit_snapshot AS (
-- the settings snapshot once per distinct value, the row keeps its hash (migration 014)
INSERT INTO audit_config_snapshots (hash, snapshot)
SELECT md5(%(audit_config)s::text), %(audit_config)s
WHERE %(audit)s
ON CONFLICT (hash) DO NOTHING
), audited AS (
INSERT INTO memory_audit_log
    ("timestamp", user_id, channel, operation, memory_type, memory_id, level, details, payload,
     config_hash, conversation_id)
SELECT %(audited_at)s, inserted.user_id, inserted.channel, 'store_turn', 'turn', inserted.id, 'writes',
       jsonb_build_object('conversation_id', inserted.conversation_id, 'turn_index', inserted.turn_index,
                          'role', inserted.role),
       batch.audit_payload, md5(%(audit_config)s::text), inserted.conversation_id
FROM inserted JOIN batch ON batch.id = inserted.id::uuid
WHERE %(audit)s
), timeline AS (
INSERT INTO memory_timeline
    (user_id, channel, memory_type, memory_id, conversation_id, event_time, summary, importance)
SELECT inserted.user_id, inserted.channel, 'turn', inserted.id, inserted.conversation_id::uuid,
       inserted."timestamp", left(inserted.content, 200), 0.5
FROM inserted
ON CONFLICT (memory_type, memory_id) DO NOTHING
)
SELECT inserted.*, true AS created FROM inserted
UNION ALL
SELECT l.id::text, l.conversation_id::text, l.user_id, l.channel, l.turn_index, l.role, l.content,
       l.content_hash, l.metadata, l."timestamp",
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced, l.token_count,
       false
FROM conversation_logs AS l
WHERE l.conversation_id = %(conversation_id)s::uuid AND l.user_id = %(user_id)s
  AND l.turn_index = ANY(%(turn_indexes)s::integer[])

-- name: mark_turns_synced
-- The graph confirmed these turns of the user: they leave the pending list (migration 016). Relaxed
-- commit (execute_relaxed).
DELETE FROM turn_sync_pending p
USING conversation_logs l
WHERE p.turn_id = ANY(%(ids)s::uuid[]) AND l.id = p.turn_id AND l.user_id = %(user_id)s
RETURNING set_config('synchronous_commit', 'off', true) AS relaxed

-- name: get_turn_at
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp",
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced, token_count
FROM conversation_logs l
WHERE conversation_id = %(conversation_id)s AND turn_index = %(turn_index)s AND user_id = %(user_id)s

-- name: mark_turn_synced
-- The graph confirmed the turn: it leaves the pending list, and its ledger row is not written again
-- (migration 016). Returns a row when the turn is still in the ledger, none when it was forgotten
-- meanwhile: forgetting deletes the ledger row before the graph's, so a turn forgotten after this
-- statement's snapshot loses its node to that forget, and one forgotten before it is seen missing here.
-- Relaxed commit (execute_relaxed).
WITH confirmed AS (
    DELETE FROM turn_sync_pending p
    USING conversation_logs l
    WHERE p.turn_id = %(id)s AND l.id = p.turn_id AND l.user_id = %(user_id)s
)
SELECT set_config('synchronous_commit', 'off', true) AS relaxed
FROM conversation_logs WHERE id = %(id)s AND user_id = %(user_id)s

-- name: list_turns
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp",
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced, token_count
FROM conversation_logs l
WHERE conversation_id = %(conversation_id)s AND user_id = %(user_id)s
ORDER BY turn_index

-- name: recent_turns
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp",
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced, token_count
FROM conversation_logs l
WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s) AND "timestamp" >= %(since)s
ORDER BY "timestamp" DESC, turn_index DESC
LIMIT %(limit)s

-- name: count_unsynced_turns
SELECT count(*) AS n
FROM turn_sync_pending p JOIN conversation_logs l ON l.id = p.turn_id
WHERE l.user_id = %(user_id)s

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
