-- Key rotation (maintenance/rekey_async.py): the rows of every user whose encrypted columns are not
-- under the current key (sealed by an old key, or plain from before encryption was switched on), by
-- keyset pages; each page is written back only where the row still holds what was read, so a
-- concurrent write is never overwritten. %(current)s is LIKE pattern 'agx1:<current kid>:%%'.
-- Trimmed tool calls (ledger_retention's marker) are left plain: that job recognises them by it.

-- name: rekey_count_conversations
SELECT count(*) AS count FROM conversations WHERE (metadata IS NOT NULL AND coalesce(metadata ->> 'agx_sealed', '') NOT LIKE %(current)s)

-- name: rekey_rows_conversations
SELECT id::text AS key, user_id, jsonb_build_object('metadata', metadata) AS fields
FROM conversations
WHERE id > %(after)s::uuid AND ((metadata IS NOT NULL AND coalesce(metadata ->> 'agx_sealed', '') NOT LIKE %(current)s))
ORDER BY id
LIMIT %(limit)s

-- name: rekey_write_conversations
UPDATE conversations AS t SET metadata = nullif(r.fields -> 'metadata', 'null'::jsonb)
FROM jsonb_to_recordset(%(rows)s) AS r(key uuid, fields jsonb, old jsonb)
WHERE t.id = r.key AND jsonb_build_object('metadata', t.metadata) = r.old

-- name: rekey_count_conversation_logs
SELECT count(*) AS count FROM conversation_logs WHERE (metadata IS NOT NULL AND coalesce(metadata ->> 'agx_sealed', '') NOT LIKE %(current)s)

-- name: rekey_rows_conversation_logs
SELECT id::text AS key, user_id, jsonb_build_object('metadata', metadata) AS fields
FROM conversation_logs
WHERE id > %(after)s::uuid AND ((metadata IS NOT NULL AND coalesce(metadata ->> 'agx_sealed', '') NOT LIKE %(current)s))
ORDER BY id
LIMIT %(limit)s

-- name: rekey_write_conversation_logs
UPDATE conversation_logs AS t SET metadata = nullif(r.fields -> 'metadata', 'null'::jsonb)
FROM jsonb_to_recordset(%(rows)s) AS r(key uuid, fields jsonb, old jsonb)
WHERE t.id = r.key AND jsonb_build_object('metadata', t.metadata) = r.old

-- name: rekey_count_tool_invocations
SELECT count(*) AS count FROM tool_invocations WHERE ((tool_input IS NOT NULL AND coalesce(tool_input ->> 'agx_sealed', '') NOT LIKE %(current)s) OR (tool_output IS NOT NULL AND coalesce(tool_output ->> 'agx_sealed', '') NOT LIKE %(current)s))
  AND tool_input <> '{"trimmed": true}'::jsonb

-- name: rekey_rows_tool_invocations
SELECT id::text AS key, user_id, jsonb_build_object('tool_input', tool_input, 'tool_output', tool_output) AS fields
FROM tool_invocations
WHERE id > %(after)s::uuid AND (((tool_input IS NOT NULL AND coalesce(tool_input ->> 'agx_sealed', '') NOT LIKE %(current)s) OR (tool_output IS NOT NULL AND coalesce(tool_output ->> 'agx_sealed', '') NOT LIKE %(current)s))
  AND tool_input <> '{"trimmed": true}'::jsonb)
ORDER BY id
LIMIT %(limit)s

-- name: rekey_write_tool_invocations
UPDATE tool_invocations AS t SET tool_input = nullif(r.fields -> 'tool_input', 'null'::jsonb), tool_output = nullif(r.fields -> 'tool_output', 'null'::jsonb)
FROM jsonb_to_recordset(%(rows)s) AS r(key uuid, fields jsonb, old jsonb)
WHERE t.id = r.key AND jsonb_build_object('tool_input', t.tool_input, 'tool_output', t.tool_output) = r.old

-- name: rekey_count_memory_audit_log
SELECT count(*) AS count FROM memory_audit_log WHERE (payload IS NOT NULL AND coalesce(payload ->> 'agx_sealed', '') NOT LIKE %(current)s)

-- name: rekey_rows_memory_audit_log
SELECT id::text AS key, user_id, "timestamp"::text AS ts, jsonb_build_object('payload', payload) AS fields
FROM memory_audit_log
WHERE id > %(after)s::bigint AND ((payload IS NOT NULL AND coalesce(payload ->> 'agx_sealed', '') NOT LIKE %(current)s))
ORDER BY id
LIMIT %(limit)s

-- name: rekey_write_memory_audit_log
UPDATE memory_audit_log AS t SET payload = nullif(r.fields -> 'payload', 'null'::jsonb)
FROM jsonb_to_recordset(%(rows)s) AS r(key bigint, fields jsonb, old jsonb, ts timestamptz)
WHERE t.id = r.key AND t."timestamp" = r.ts AND jsonb_build_object('payload', t.payload) = r.old

-- name: rekey_users
-- Every user with conversations: the graph's and Redis' sealed copies (turns, tool calls) belong to one.
SELECT DISTINCT user_id FROM conversations ORDER BY user_id
