-- Procedural memory: the tool_invocations ledger. Every statement filters by user_id.

-- name: insert_tool_invocation
-- Inserts only when the conversation belongs to the user; a replay of the same id inserts nothing.
INSERT INTO tool_invocations
    (id, conversation_id, turn_index, user_id, channel, tool_name, tool_input, tool_output, success,
     latency_ms, error_message, created_at)
SELECT %(id)s, c.id, %(turn_index)s, %(user_id)s, %(channel)s, %(tool_name)s, %(tool_input)s,
       %(tool_output)s, %(success)s, %(latency_ms)s, %(error_message)s, %(created_at)s
FROM conversations c
WHERE c.id = %(conversation_id)s AND c.user_id = %(user_id)s
ON CONFLICT (id) DO NOTHING
RETURNING id::text AS id, conversation_id::text AS conversation_id, turn_index, user_id, channel, tool_name,
          tool_input, tool_output, success, latency_ms, error_message, created_at

-- name: get_tool_invocation
SELECT id::text AS id, conversation_id::text AS conversation_id, turn_index, user_id, channel, tool_name,
       tool_input, tool_output, success, latency_ms, error_message, created_at
FROM tool_invocations
WHERE id = %(id)s AND user_id = %(user_id)s

-- name: conversation_invocations
SELECT id::text AS id, conversation_id::text AS conversation_id, turn_index, user_id, channel, tool_name,
       tool_input, tool_output, success, latency_ms, error_message, created_at
FROM tool_invocations
WHERE conversation_id = %(conversation_id)s AND user_id = %(user_id)s
ORDER BY created_at, id

-- name: mark_invocation_synced
-- Relaxed commit (execute_relaxed).
UPDATE tool_invocations SET graph_synced = true WHERE id = %(id)s AND user_id = %(user_id)s
RETURNING set_config('synchronous_commit', 'off', true) AS relaxed

-- name: unsynced_invocations
-- Invocations of every user whose graph write has not been confirmed (reconcile replays them), oldest first.
SELECT id::text AS id, conversation_id::text AS conversation_id, turn_index, user_id, channel, tool_name,
       tool_input, tool_output, success, latency_ms, error_message, created_at
FROM tool_invocations
WHERE NOT graph_synced
ORDER BY created_at, id
LIMIT %(limit)s
