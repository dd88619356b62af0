-- agentx-memory doctor (maintenance/doctor_async.py): the ledger side of the invariants across stores.

-- name: doctor_known_users
-- Which of these user ids the ledger knows: anyone with a row in a table that holds a user's memory
-- (a user who only ever called learn_fact or add_goal has timeline rows and nothing else). Audit rows
-- do not count: they outlive a forgotten user.
SELECT DISTINCT user_id FROM (
    SELECT user_id FROM conversations WHERE user_id = ANY(%(user_ids)s)
    UNION SELECT user_id FROM conversation_logs WHERE user_id = ANY(%(user_ids)s)
    UNION SELECT user_id FROM tool_invocations WHERE user_id = ANY(%(user_ids)s)
    UNION SELECT user_id FROM memory_timeline WHERE user_id = ANY(%(user_ids)s)
    UNION SELECT user_id FROM memory_access WHERE user_id = ANY(%(user_ids)s)
    UNION SELECT user_id FROM user_profiles WHERE user_id = ANY(%(user_ids)s)
) known
ORDER BY user_id

-- name: doctor_forgotten_users
-- Which of these user ids forget_user has completed for (its audit row survives the forgetting).
SELECT DISTINCT user_id FROM memory_audit_log
WHERE operation = 'forget_user' AND user_id = ANY(%(user_ids)s)
ORDER BY user_id

-- name: doctor_ledger_conversations
SELECT id::text AS id, graph_synced FROM conversations WHERE user_id = %(user_id)s

-- name: doctor_ledger_turns
SELECT l.id::text AS id, l.conversation_id::text AS conversation_id,
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced
FROM conversation_logs l WHERE l.user_id = %(user_id)s

-- name: doctor_ledger_tool_invocations
SELECT id::text AS id FROM tool_invocations WHERE user_id = %(user_id)s

-- name: doctor_timeline_ids
SELECT memory_type, memory_id FROM memory_timeline
WHERE user_id = %(user_id)s AND memory_type = ANY(%(memory_types)s)

-- name: doctor_unsynced
-- Ledger rows whose graph write was never confirmed (reconcile replays them), a few ids of each.
SELECT (SELECT count(*) FROM conversations WHERE NOT graph_synced) AS conversations,
       (SELECT count(*) FROM turn_sync_pending p JOIN conversation_logs l ON l.id = p.turn_id) AS turns,
       (SELECT count(*) FROM tool_invocations WHERE NOT graph_synced) AS invocations,
       ARRAY(SELECT user_id || '/' || id::text FROM conversations WHERE NOT graph_synced
             ORDER BY created_at LIMIT %(samples)s) AS conversation_samples,
       ARRAY(SELECT l.user_id || '/' || l.id::text
             FROM turn_sync_pending p JOIN conversation_logs l ON l.id = p.turn_id
             ORDER BY l."timestamp" LIMIT %(samples)s) AS turn_samples,
       ARRAY(SELECT user_id || '/' || id::text FROM tool_invocations WHERE NOT graph_synced
             ORDER BY created_at LIMIT %(samples)s) AS invocation_samples

-- name: doctor_mark_unsynced
-- Turns (and their conversations) the graph lost: reconcile writes them again from the ledger.
WITH turns AS (
    SELECT id, conversation_id FROM conversation_logs
    WHERE user_id = %(user_id)s AND id = ANY(%(turn_ids)s::uuid[])
), pending AS (
    INSERT INTO turn_sync_pending (turn_id) SELECT id FROM turns ON CONFLICT (turn_id) DO NOTHING
), conversations AS (
    UPDATE conversations SET graph_synced = false
    WHERE user_id = %(user_id)s
      AND (id = ANY(%(conversation_ids)s::uuid[]) OR id IN (SELECT conversation_id FROM turns))
    RETURNING id
)
SELECT (SELECT count(*) FROM turns) AS turns, (SELECT count(*) FROM conversations) AS conversations
