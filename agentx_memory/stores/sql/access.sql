-- Access statistics (migration 007): counters, last access and salience of graph memories, kept off
-- their vector-indexed nodes. Every statement is scoped by user_id; ids arrive deduplicated.

-- name: access_get
SELECT memory_id, access_count, last_accessed, mention_count, salience, salience_at
FROM memory_access
WHERE user_id = %(user_id)s AND memory_type = %(memory_type)s AND memory_id = ANY(%(ids)s::text[])

-- name: access_last_seen
-- When each of these memories, of any kind, was last returned by a recall (ids are uuids: unique).
SELECT memory_id, last_accessed
FROM memory_access
WHERE user_id = %(user_id)s AND memory_id = ANY(%(ids)s::text[]) AND last_accessed IS NOT NULL

-- name: access_list
SELECT memory_id, access_count, last_accessed, mention_count, salience, salience_at
FROM memory_access
WHERE user_id = %(user_id)s AND memory_type = %(memory_type)s
ORDER BY memory_id

-- name: access_touch
-- One more access of each memory; a mention (an entity merged again) also counts one more mention.
INSERT INTO memory_access AS a (user_id, memory_type, memory_id, access_count, last_accessed, mention_count)
SELECT %(user_id)s, %(memory_type)s, id, 1, %(now)s, %(mentions)s FROM unnest(%(ids)s::text[]) AS id
ON CONFLICT (user_id, memory_type, memory_id) DO UPDATE
SET access_count = a.access_count + 1, last_accessed = EXCLUDED.last_accessed,
    mention_count = a.mention_count + EXCLUDED.mention_count

-- name: access_recalled
-- One more access of each recalled memory, facts and entities together (recall reinforcement: one
-- statement on the sync caller's path, not one per kind). Pairs are unique (the caller dedups).
INSERT INTO memory_access AS a (user_id, memory_type, memory_id, access_count, last_accessed)
SELECT %(user_id)s, kind, id, 1, %(now)s FROM unnest(%(kinds)s::text[], %(ids)s::text[]) AS t (kind, id)
ON CONFLICT (user_id, memory_type, memory_id) DO UPDATE
SET access_count = a.access_count + 1, last_accessed = EXCLUDED.last_accessed

-- name: access_set_salience
INSERT INTO memory_access AS a (user_id, memory_type, memory_id, salience, salience_at)
SELECT %(user_id)s, %(memory_type)s, id, value, %(now)s
FROM unnest(%(ids)s::text[], %(values)s::double precision[]) AS t (id, value)
ON CONFLICT (user_id, memory_type, memory_id) DO UPDATE
SET salience = EXCLUDED.salience, salience_at = EXCLUDED.salience_at

-- name: access_delete
DELETE FROM memory_access WHERE user_id = %(user_id)s AND memory_id = ANY(%(ids)s::text[])
