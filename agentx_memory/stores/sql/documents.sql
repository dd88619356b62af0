-- Documents (migration 009): JSON values under (space, namespace, key) for framework adapters. Every
-- statement is scoped by (user_id, channel, space); expired rows (TTL) are invisible before the sweep.

-- name: document_put
-- Insert or replace a value; a first insert takes its namespace's place in the listing order (or a new
-- one), a replacement keeps its creation time and place. Its texts' vectors are replaced in the same
-- statement (none: not searchable by query).
WITH put AS (
    INSERT INTO documents AS d (user_id, channel, space, namespace, key, value, ns_seq, created_at,
                                updated_at, ttl_minutes, expires_at)
    VALUES (%(user_id)s, %(channel)s, %(space)s, %(namespace)s, %(key)s, %(value)s,
            COALESCE((SELECT ns_seq FROM documents
                      WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s
                        AND namespace = %(namespace)s
                      LIMIT 1), nextval('document_seq')),
            %(now)s, %(now)s, %(ttl_minutes)s::double precision,
            %(now)s + make_interval(secs => %(ttl_minutes)s::double precision * 60))
    ON CONFLICT (user_id, channel, space, namespace, key) DO UPDATE
    SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at, ttl_minutes = EXCLUDED.ttl_minutes,
        expires_at = EXCLUDED.expires_at
    RETURNING key
), stale AS (
    DELETE FROM document_vectors
    WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s
      AND namespace = %(namespace)s AND key = %(key)s AND NOT (path = ANY(%(paths)s::text[]))
    RETURNING path
), vectors AS (
    INSERT INTO document_vectors (user_id, channel, space, namespace, key, path, text, embedding)
    SELECT %(user_id)s, %(channel)s, %(space)s, %(namespace)s, %(key)s, t.path, t.text, t.embedding::vector
    FROM unnest(%(paths)s::text[], %(texts)s::text[], %(embeddings)s::text[]) AS t (path, text, embedding)
    ON CONFLICT (user_id, channel, space, namespace, key, path) DO UPDATE
    SET text = EXCLUDED.text, embedding = EXCLUDED.embedding
    RETURNING path
)
SELECT (SELECT count(*) FROM put) AS written, (SELECT count(*) FROM vectors) AS vectors

-- name: document_get
WITH hit AS (
    SELECT namespace, key, value, created_at, updated_at, expires_at
    FROM documents
    WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s
      AND namespace = %(namespace)s AND key = %(key)s
      AND (expires_at IS NULL OR expires_at > %(now)s)
), refreshed AS (
    UPDATE documents SET expires_at = %(now)s + make_interval(secs => ttl_minutes * 60)
    WHERE %(refresh)s AND user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s
      AND namespace = %(namespace)s AND key = %(key)s AND expires_at > %(now)s
    RETURNING expires_at
)
SELECT namespace, key, value, created_at, updated_at,
       COALESCE((SELECT expires_at FROM refreshed), hit.expires_at) AS expires_at
FROM hit

-- name: document_scan
-- Every live document under a namespace prefix, in listing order, scored by its best text's cosine
-- with the query vector (NULL without a query or for a document with no vectors).
SELECT d.namespace, d.key, d.value, d.created_at, d.updated_at, d.expires_at,
       (SELECT max(1 - (v.embedding <=> %(query)s::vector))
        FROM document_vectors v
        WHERE v.user_id = d.user_id AND v.channel = d.channel AND v.space = d.space
          AND v.namespace = d.namespace AND v.key = d.key) AS score
FROM documents d
WHERE d.user_id = %(user_id)s AND d.channel = %(channel)s AND d.space = %(space)s
  AND d.namespace[1:%(depth)s] = %(prefix)s::text[]
  AND (d.expires_at IS NULL OR d.expires_at > %(now)s)
ORDER BY d.ns_seq, d.item_seq

-- name: document_delete
DELETE FROM documents
WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s
  AND namespace = %(namespace)s AND key = %(key)s

-- name: document_delete_namespace
DELETE FROM documents
WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s AND namespace = %(namespace)s

-- name: document_namespaces
SELECT DISTINCT namespace
FROM documents
WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s
  AND (expires_at IS NULL OR expires_at > %(now)s)

-- name: document_sweep
DELETE FROM documents
WHERE user_id = %(user_id)s AND channel = %(channel)s AND space = %(space)s AND expires_at <= %(now)s

-- name: document_recall
-- The documents (any space) whose best embedded text is nearest the query, over the read channels:
-- what a framework stored as the agent's memory (a LangGraph store's items), recalled beside the other
-- kinds. Each with that text and its cosine. Exact cosine over one user's vectors, as document_scan.
SELECT d.space, d.namespace, d.key, d.channel, d.value, d.updated_at, best.text, best.score
FROM (
    SELECT DISTINCT ON (v.channel, v.space, v.namespace, v.key)
           v.channel, v.space, v.namespace, v.key, v.text, 1 - (v.embedding <=> %(query)s::vector) AS score
    FROM document_vectors v
    WHERE v.user_id = %(user_id)s AND v.channel = ANY(%(channels)s)
    ORDER BY v.channel, v.space, v.namespace, v.key, v.embedding <=> %(query)s::vector
) best
JOIN documents d
  ON d.user_id = %(user_id)s AND d.channel = best.channel AND d.space = best.space
 AND d.namespace = best.namespace AND d.key = best.key
WHERE d.expires_at IS NULL OR d.expires_at > %(now)s
ORDER BY best.score DESC
LIMIT %(limit)s

-- name: document_counts
-- Live documents per space and channel, over the read channels (memory_stats).
SELECT space, channel, count(*) AS count, max(updated_at) AS latest
FROM documents
WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s)
  AND (expires_at IS NULL OR expires_at > %(now)s)
GROUP BY space, channel
