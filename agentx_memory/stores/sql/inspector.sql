-- The memory inspector (agentx_memory.ui): the listings the facade has no method for. Read-only.

-- name: inspector_users
-- Every user the ledger knows (as list_users), with how much each has stored in any channel.
WITH known AS (
    SELECT user_id FROM conversations
    UNION
    SELECT user_id FROM user_profiles
    UNION
    SELECT DISTINCT user_id FROM memory_timeline
),
counted AS (
    SELECT user_id,
           count(*) FILTER (WHERE memory_type = 'turn') AS turns,
           count(*) FILTER (WHERE memory_type = 'fact') AS facts,
           count(*) FILTER (WHERE memory_type = 'entity') AS entities,
           max(event_time) AS latest
    FROM memory_timeline
    GROUP BY user_id
)
SELECT known.user_id,
       (SELECT count(*) FROM conversations c WHERE c.user_id = known.user_id) AS conversations,
       (SELECT array_agg(DISTINCT c.channel ORDER BY c.channel) FROM conversations c
        WHERE c.user_id = known.user_id) AS channels,
       coalesce(counted.turns, 0) AS turns,
       coalesce(counted.facts, 0) AS facts,
       coalesce(counted.entities, 0) AS entities,
       counted.latest
FROM known LEFT JOIN counted ON counted.user_id = known.user_id
ORDER BY known.user_id
LIMIT %(limit)s

-- name: inspector_conversations
-- One user's conversations in the channels read, the latest first, with their turn counts.
SELECT c.id::text AS id, c.channel, c.title, c.created_at,
       count(l.id) AS turns, min(l."timestamp") AS first_turn_at, max(l."timestamp") AS last_turn_at
FROM conversations c
LEFT JOIN conversation_logs l ON l.conversation_id = c.id AND l.user_id = c.user_id
WHERE c.user_id = %(user_id)s AND c.channel = ANY(%(channels)s)
GROUP BY c.id
ORDER BY coalesce(max(l."timestamp"), c.created_at) DESC
LIMIT %(limit)s
