-- Forgetting: hard deletion from the ledger. The audit log keeps that a deletion happened, not what was
-- deleted: rows about the forgotten data lose their details and payload. A forgotten turn leaves the
-- pending list of unsynced turns too (migration 016: no foreign key does it).

-- name: forget_conversation_rows
WITH turns AS (
    DELETE FROM conversation_logs WHERE conversation_id = %(conversation_id)s AND user_id = %(user_id)s
    RETURNING id::text AS id
), unsynced AS (
    DELETE FROM turn_sync_pending WHERE turn_id IN (SELECT id::uuid FROM turns)
), tools AS (
    DELETE FROM tool_invocations WHERE conversation_id = %(conversation_id)s AND user_id = %(user_id)s
    RETURNING id
), timeline AS (
    DELETE FROM memory_timeline
    WHERE user_id = %(user_id)s
      AND (conversation_id = %(conversation_id)s OR memory_id IN (SELECT id FROM turns))
    RETURNING id
), redacted AS (
    UPDATE memory_audit_log
    SET details = '{"redacted": true}'::jsonb, payload = NULL
    WHERE user_id = %(user_id)s
      AND (memory_id = %(conversation_id)s::text OR memory_id IN (SELECT id FROM turns)
           OR details ->> 'conversation_id' = %(conversation_id)s::text)
    RETURNING id
), conversation AS (
    DELETE FROM conversations WHERE id = %(conversation_id)s AND user_id = %(user_id)s RETURNING id
)
SELECT (SELECT count(*) FROM conversation) AS conversations, (SELECT count(*) FROM turns) AS turns,
       (SELECT count(*) FROM tools) AS tool_invocations, (SELECT count(*) FROM timeline) AS timeline,
       (SELECT count(*) FROM redacted) AS audit_redacted

-- name: forget_user_rows
WITH turns AS (
    DELETE FROM conversation_logs WHERE user_id = %(user_id)s RETURNING id
), unsynced AS (
    DELETE FROM turn_sync_pending WHERE turn_id IN (SELECT id FROM turns)
), tools AS (
    DELETE FROM tool_invocations WHERE user_id = %(user_id)s RETURNING id
), conversations AS (
    DELETE FROM conversations WHERE user_id = %(user_id)s RETURNING id
), timeline AS (
    DELETE FROM memory_timeline WHERE user_id = %(user_id)s RETURNING id
), profile AS (
    DELETE FROM user_profiles WHERE user_id = %(user_id)s RETURNING user_id
), access AS (
    DELETE FROM memory_access WHERE user_id = %(user_id)s RETURNING memory_id
), documents AS (
    DELETE FROM documents WHERE user_id = %(user_id)s RETURNING key
), redacted AS (
    UPDATE memory_audit_log SET details = '{"redacted": true}'::jsonb, payload = NULL
    WHERE user_id = %(user_id)s
    RETURNING id
)
SELECT (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM turns) AS turns,
       (SELECT count(*) FROM tools) AS tool_invocations, (SELECT count(*) FROM timeline) AS timeline,
       (SELECT count(*) FROM profile) AS profiles, (SELECT count(*) FROM access) AS access,
       (SELECT count(*) FROM documents) AS documents, (SELECT count(*) FROM redacted) AS audit_redacted

-- name: count_user_rows
SELECT (SELECT count(*) FROM conversations WHERE user_id = %(user_id)s) AS conversations,
       (SELECT count(*) FROM conversation_logs WHERE user_id = %(user_id)s) AS turns,
       (SELECT count(*) FROM tool_invocations WHERE user_id = %(user_id)s) AS tool_invocations,
       (SELECT count(*) FROM memory_timeline WHERE user_id = %(user_id)s) AS timeline,
       (SELECT count(*) FROM user_profiles WHERE user_id = %(user_id)s) AS profiles,
       (SELECT count(*) FROM memory_access WHERE user_id = %(user_id)s) AS access,
       (SELECT count(*) FROM documents WHERE user_id = %(user_id)s) AS documents

-- name: forget_memory_rows
-- The ledger side of forgetting graph-only memories (facts): timeline and access rows go, audit rows
-- are redacted.
WITH timeline AS (
    DELETE FROM memory_timeline WHERE user_id = %(user_id)s AND memory_id = ANY(%(memory_ids)s) RETURNING id
), access AS (
    DELETE FROM memory_access WHERE user_id = %(user_id)s AND memory_id = ANY(%(memory_ids)s)
    RETURNING memory_id
), redacted AS (
    UPDATE memory_audit_log SET details = '{"redacted": true}'::jsonb, payload = NULL
    WHERE user_id = %(user_id)s AND memory_id = ANY(%(memory_ids)s)
    RETURNING id
)
SELECT (SELECT count(*) FROM timeline) AS timeline, (SELECT count(*) FROM access) AS access,
       (SELECT count(*) FROM redacted) AS audit_redacted

-- name: forget_turn_rows
-- One turn (an agents session's popped item): its row, timeline rows and the details of audit rows
-- about it, and its words in the next turn's full-text context (migration 012). Returns nothing when
-- the id is not this user's turn.
WITH turn AS (
    DELETE FROM conversation_logs WHERE id = %(turn_id)s AND user_id = %(user_id)s
    RETURNING id::text AS id, conversation_id::text AS conversation_id, channel, turn_index
), unsynced AS (
    DELETE FROM turn_sync_pending WHERE turn_id IN (SELECT id::uuid FROM turn)
), uncontexted AS (
    UPDATE conversation_logs AS l SET context_text = NULL
    FROM turn
    WHERE l.user_id = %(user_id)s AND l.conversation_id = turn.conversation_id::uuid
      AND l.turn_index = turn.turn_index + 1 AND l.context_text IS NOT NULL
    RETURNING l.id
), timeline AS (
    DELETE FROM memory_timeline
    WHERE user_id = %(user_id)s AND memory_id IN (SELECT id FROM turn)
    RETURNING id
), redacted AS (
    UPDATE memory_audit_log SET details = '{"redacted": true}'::jsonb, payload = NULL
    WHERE user_id = %(user_id)s AND memory_id IN (SELECT id FROM turn)
    RETURNING id
)
SELECT turn.conversation_id, turn.channel, (SELECT count(*) FROM timeline) AS timeline,
       (SELECT count(*) FROM redacted) AS audit_redacted
FROM turn

-- name: user_lock
-- Forgetting holds a user exclusively (a session advisory lock, released by the server if the process
-- dies): a consolidation in another process cannot write back what it removes. Two-int form: its key
-- space is apart from the one-bigint locks (reindex, migrations).
SELECT pg_advisory_lock(hashtext('agentx-memory user ' || %(schema)s), hashtext(%(user_id)s)) AS locked

-- name: user_unlock
SELECT pg_advisory_unlock(hashtext('agentx-memory user ' || %(schema)s), hashtext(%(user_id)s)) AS unlocked

-- name: user_lock_shared
-- Consolidation's writes share the user: many at once, none while a forget holds it.
SELECT pg_advisory_lock_shared(hashtext('agentx-memory user ' || %(schema)s), hashtext(%(user_id)s)) AS locked

-- name: user_unlock_shared
SELECT pg_advisory_unlock_shared(hashtext('agentx-memory user ' || %(schema)s), hashtext(%(user_id)s))
       AS unlocked

-- name: turns_present
-- How many of these turns of the user are still in the ledger (consolidation checks under the shared
-- lock that nothing it is about to learn from was forgotten meanwhile).
SELECT count(*) AS present FROM conversation_logs
WHERE user_id = %(user_id)s AND id = ANY(%(turn_ids)s::uuid[])
