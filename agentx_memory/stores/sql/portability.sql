-- Portability (export / import of one user, memory/portability_async.py). Every statement is scoped by
-- user_id. Export returns each row as one jsonb object (timestamps in ISO 8601, vectors as their text
-- "[x,y,…]"); import takes a jsonb array of such objects and inserts the rows that are missing, so a
-- second import of the same dump inserts nothing. Generated columns (search_tsv, search_len,
-- context_tsv) and the timeline's serial id are left out: the database derives them.

-- name: export_conversations
SELECT to_jsonb(c) AS data FROM conversations c WHERE c.user_id = %(user_id)s ORDER BY c.id

-- name: export_turns
-- graph_synced as before migration 016 moved it out of the row: dumps keep their format.
SELECT to_jsonb(l) - 'search_tsv' - 'search_len' - 'context_tsv'
       || jsonb_build_object('graph_synced',
                             NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id)) AS data
FROM conversation_logs l
WHERE l.user_id = %(user_id)s
ORDER BY l.conversation_id, l.turn_index

-- name: export_tool_invocations
SELECT to_jsonb(i) AS data FROM tool_invocations i WHERE i.user_id = %(user_id)s ORDER BY i.id

-- name: export_profile
SELECT to_jsonb(p) AS data FROM user_profiles p WHERE p.user_id = %(user_id)s

-- name: export_access
SELECT to_jsonb(a) AS data
FROM memory_access a
WHERE a.user_id = %(user_id)s
ORDER BY a.memory_type, a.memory_id

-- name: export_timeline
SELECT to_jsonb(t) - 'id' AS data
FROM memory_timeline t
WHERE t.user_id = %(user_id)s
ORDER BY t.memory_type, t.memory_id

-- name: export_documents
-- The value as its JSON text: to_jsonb would rewrite its numbers and key order (migration 009), and
-- refuse a NUL (an escaped \u0000, which json keeps and jsonb does not); so the row is every column
-- but the value, named here (a column added to documents is added here too).
SELECT to_jsonb(r) AS data
FROM (
    SELECT d.user_id, d.channel, d.space, d.namespace, d.key, d.value::text AS value_text, d.ns_seq,
           d.item_seq, d.created_at, d.updated_at, d.ttl_minutes, d.expires_at
    FROM documents d
    WHERE d.user_id = %(user_id)s
    ORDER BY d.channel, d.space, d.namespace, d.key
) AS r

-- name: export_document_vectors
SELECT to_jsonb(v) AS data
FROM document_vectors v
WHERE v.user_id = %(user_id)s
ORDER BY v.channel, v.space, v.namespace, v.key, v.path

-- name: import_conversations
INSERT INTO conversations
    (id, user_id, channel, title, metadata, created_at, next_turn_index, graph_synced, consolidated_at,
     consolidated_turns, archived_at)
SELECT r.id, r.user_id, r.channel, r.title, coalesce(r.metadata, '{}'::jsonb), r.created_at,
       r.next_turn_index, r.graph_synced, r.consolidated_at, r.consolidated_turns, r.archived_at
FROM jsonb_populate_recordset(NULL::conversations, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
ON CONFLICT (id) DO NOTHING

-- name: import_turns
-- derived_version as exported; a dump from before migration 013 has none, so its turns await the
-- backfill (`agentx-memory backfill`), which derives what that version may not have. A turn exported
-- with graph_synced false joins the pending list (migration 016), as store_turn's would.
WITH inserted AS (
INSERT INTO conversation_logs
    (id, conversation_id, user_id, channel, turn_index, role, content, content_hash, metadata, embedding,
     "timestamp", created_at, token_count, event_start, event_end, event_label,
     context_text, derived_version)
SELECT r.id, r.conversation_id, r.user_id, r.channel, r.turn_index, r.role, r.content, r.content_hash,
       coalesce(r.metadata, '{}'::jsonb), r.embedding, r."timestamp", r.created_at,
       r.token_count, r.event_start, r.event_end, r.event_label, r.context_text,
       coalesce(r.derived_version, 0)
FROM jsonb_populate_recordset(NULL::conversation_logs, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
  AND EXISTS (SELECT 1 FROM conversations c WHERE c.id = r.conversation_id AND c.user_id = %(user_id)s)
ON CONFLICT DO NOTHING
RETURNING id
), pending AS (
INSERT INTO turn_sync_pending (turn_id)
SELECT inserted.id
FROM inserted
JOIN jsonb_to_recordset(%(rows)s) AS s (id uuid, graph_synced boolean) ON s.id = inserted.id
WHERE s.graph_synced IS FALSE
ON CONFLICT (turn_id) DO NOTHING
)
SELECT id FROM inserted  -- one row per inserted turn: the caller counts them

-- name: import_tool_invocations
-- graph_synced as exported (a dump from before migration 010 has none: its graph records carry the node).
INSERT INTO tool_invocations
    (id, conversation_id, turn_index, user_id, channel, tool_name, tool_input, tool_output, success,
     latency_ms, error_message, created_at, graph_synced)
SELECT r.id, r.conversation_id, r.turn_index, r.user_id, r.channel, r.tool_name,
       coalesce(r.tool_input, '{}'::jsonb), r.tool_output, r.success, r.latency_ms, r.error_message,
       r.created_at, coalesce(r.graph_synced, true)
FROM jsonb_populate_recordset(NULL::tool_invocations, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
  AND EXISTS (SELECT 1 FROM conversations c WHERE c.id = r.conversation_id AND c.user_id = %(user_id)s)
ON CONFLICT (id) DO NOTHING

-- name: import_profile
INSERT INTO user_profiles
    (user_id, preferences, expertise_areas, communication_style, created_at, updated_at)
SELECT r.user_id, coalesce(r.preferences, '{}'::jsonb), coalesce(r.expertise_areas, '[]'::jsonb),
       r.communication_style, r.created_at, r.updated_at
FROM jsonb_populate_recordset(NULL::user_profiles, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
ON CONFLICT (user_id) DO NOTHING

-- name: import_access
INSERT INTO memory_access
    (user_id, memory_type, memory_id, access_count, last_accessed, mention_count, salience, salience_at)
SELECT r.user_id, r.memory_type, r.memory_id, r.access_count, r.last_accessed, r.mention_count,
       r.salience, r.salience_at
FROM jsonb_populate_recordset(NULL::memory_access, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
ON CONFLICT (user_id, memory_type, memory_id) DO NOTHING

-- name: import_timeline
INSERT INTO memory_timeline
    (user_id, channel, memory_type, memory_id, conversation_id, event_time, summary, importance, created_at)
SELECT r.user_id, r.channel, r.memory_type, r.memory_id, r.conversation_id, r.event_time, r.summary,
       r.importance, r.created_at
FROM jsonb_populate_recordset(NULL::memory_timeline, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
ON CONFLICT (memory_type, memory_id) DO NOTHING

-- name: import_documents
-- Listing order kept: the exported sequence numbers come back (import_documents_sequence moves the
-- sequence past them).
INSERT INTO documents
    (user_id, channel, space, namespace, key, value, ns_seq, item_seq, created_at, updated_at, ttl_minutes,
     expires_at)
SELECT r.user_id, r.channel, r.space, r.namespace, r.key, (e ->> 'value_text')::json, r.ns_seq, r.item_seq,
       r.created_at, r.updated_at, r.ttl_minutes, r.expires_at
FROM jsonb_array_elements(%(rows)s) AS e, jsonb_populate_record(NULL::documents, e - 'value') AS r
WHERE r.user_id = %(user_id)s
ON CONFLICT DO NOTHING

-- name: import_documents_sequence
SELECT setval('document_seq', greatest(
    (SELECT last_value FROM document_seq),
    (SELECT max(greatest(ns_seq, item_seq)) FROM documents WHERE user_id = %(user_id)s))) AS value

-- name: import_document_vectors
INSERT INTO document_vectors (user_id, channel, space, namespace, key, path, text, embedding)
SELECT r.user_id, r.channel, r.space, r.namespace, r.key, r.path, r.text, r.embedding
FROM jsonb_populate_recordset(NULL::document_vectors, %(rows)s) AS r
WHERE r.user_id = %(user_id)s
  AND EXISTS (SELECT 1 FROM documents d
              WHERE d.user_id = r.user_id AND d.channel = r.channel AND d.space = r.space
                AND d.namespace = r.namespace AND d.key = r.key)
ON CONFLICT DO NOTHING
