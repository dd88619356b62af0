-- agentx-memory reindex (maintenance/reindex_ledger_async.py): the ledger's vector columns found in the
-- catalog, a reindex's progress in agentx_metadata, and per table the rows to re-embed in primary-key
-- order after a watermark (a key below every row to start) and their new vectors written back. Tables
-- are never parameters: three statements per table that reindex knows (maintenance/reindex_rules.py).

-- name: reindex_vector_columns
-- Every pgvector column of the schema (partitions are altered through their parent), with its type
-- (vector, or halfvec for the turns since migration 015), its dimension (pgvector keeps it as the type
-- modifier) and whether it is NOT NULL.
SELECT c.relname AS table_name, a.attname AS column_name, t.typname AS type_name, a.atttypmod AS dimensions,
       a.attnotnull AS not_null
FROM pg_attribute AS a
JOIN pg_class AS c ON c.oid = a.attrelid
JOIN pg_namespace AS s ON s.oid = c.relnamespace
JOIN pg_type AS t ON t.oid = a.atttypid
WHERE s.nspname = %(schema)s AND t.typname IN ('vector', 'halfvec') AND c.relkind IN ('r', 'p') AND NOT c.relispartition
  AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attname

-- name: reindex_column_indexes
-- The indexes over a vector column, with the DDL that creates them again.
SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
FROM pg_index AS x
JOIN pg_class AS i ON i.oid = x.indexrelid
JOIN pg_class AS c ON c.oid = x.indrelid
JOIN pg_namespace AS s ON s.oid = c.relnamespace
JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum = ANY (x.indkey)
WHERE s.nspname = %(schema)s AND c.relname = %(table_name)s AND a.attname = %(column_name)s
ORDER BY i.relname

-- name: reindex_set_metadata
INSERT INTO agentx_metadata (key, value) VALUES (%(key)s, %(value)s)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()

-- name: reindex_claim_target
-- Record the reindex's target unless one is recorded already; returns the recorded one.
WITH added AS (
    INSERT INTO agentx_metadata (key, value)
    VALUES ('reindex_model', %(model)s), ('reindex_dimensions', %(dimensions)s)
    ON CONFLICT (key) DO NOTHING
    RETURNING key, value
)
SELECT key, value FROM added
UNION ALL
SELECT key, value FROM agentx_metadata
WHERE key IN ('reindex_model', 'reindex_dimensions') AND key NOT IN (SELECT key FROM added)

-- name: reindex_finish
-- The new embedding lock, and the reindex's target and progress gone: the facade opens again.
WITH lock AS (
    UPDATE agentx_metadata
    SET value = CASE key WHEN 'embedding_model' THEN %(model)s ELSE %(dimensions)s END, updated_at = now()
    WHERE key IN ('embedding_model', 'embedding_dimensions')
    RETURNING key
)
DELETE FROM agentx_metadata WHERE key LIKE 'reindex\_%%'

-- name: reindex_count_conversation_logs
SELECT count(*) AS count FROM conversation_logs WHERE id > %(after_id)s::uuid

-- name: reindex_rows_conversation_logs
-- The text as the write path embeds it: content, speaker and event date (memory/episodic_pure.py).
SELECT id::text AS id, user_id, content, metadata, event_start, event_end, event_label
FROM conversation_logs
WHERE id > %(after_id)s::uuid
ORDER BY id
LIMIT %(limit)s

-- name: reindex_write_conversation_logs
UPDATE conversation_logs AS l
SET embedding = (r ->> 'embedding')::vector
FROM jsonb_array_elements(%(rows)s::jsonb) AS r
WHERE l.id = (r ->> 'id')::uuid

-- name: reindex_count_document_vectors
SELECT count(*) AS count
FROM document_vectors
WHERE (user_id, channel, space, namespace, key, path)
    > (%(after_user_id)s, %(after_channel)s, %(after_space)s, %(after_namespace)s::text[], %(after_key)s,
       %(after_path)s)

-- name: reindex_rows_document_vectors
-- A document vector embeds its stored text.
SELECT user_id, channel, space, namespace, key, path, text
FROM document_vectors
WHERE (user_id, channel, space, namespace, key, path)
    > (%(after_user_id)s, %(after_channel)s, %(after_space)s, %(after_namespace)s::text[], %(after_key)s,
       %(after_path)s)
ORDER BY user_id, channel, space, namespace, key, path
LIMIT %(limit)s

-- name: reindex_write_document_vectors
UPDATE document_vectors AS d
SET embedding = (r ->> 'embedding')::vector
FROM jsonb_array_elements(%(rows)s::jsonb) AS r
WHERE d.user_id = r ->> 'user_id' AND d.channel = r ->> 'channel' AND d.space = r ->> 'space'
  AND d.namespace = ARRAY(SELECT jsonb_array_elements_text(r -> 'namespace'))
  AND d.key = r ->> 'key' AND d.path = r ->> 'path'

-- name: reindex_lock
-- One reindex of a schema at a time: a session lock, released when the session ends.
SELECT pg_try_advisory_lock(hashtext('agentx-memory reindex ' || %(schema)s)) AS locked

-- name: reindex_unlock
SELECT pg_advisory_unlock(hashtext('agentx-memory reindex ' || %(schema)s)) AS unlocked
