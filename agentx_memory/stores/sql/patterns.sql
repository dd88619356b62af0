-- The patterns job: conversations whose tool calls are not mined yet, and the patterns already mined.
-- Every statement filters by user_id.

-- name: conversations_to_mine
-- One user's unmined conversations with tool calls whose last activity (call or turn) is before
-- idle_before: a conversation still going on is mined later, with all its calls.
SELECT c.id::text AS id, c.channel, greatest(max(t.created_at),
       (SELECT max(l."timestamp") FROM conversation_logs l
        WHERE l.conversation_id = c.id AND l.user_id = %(user_id)s)) AS ended_at
FROM conversations c
JOIN tool_invocations t ON t.conversation_id = c.id AND t.user_id = %(user_id)s
WHERE c.user_id = %(user_id)s AND c.patterns_extracted_at IS NULL
GROUP BY c.id, c.channel
HAVING greatest(max(t.created_at),
       (SELECT max(l."timestamp") FROM conversation_logs l
        WHERE l.conversation_id = c.id AND l.user_id = %(user_id)s)) < %(idle_before)s
ORDER BY ended_at, c.id

-- name: mined_patterns
-- How many of one user's mined conversations ended in each successful tool sequence.
SELECT tool_pattern AS steps, count(*) AS conversations
FROM conversations
WHERE user_id = %(user_id)s AND tool_pattern IS NOT NULL AND patterns_extracted_at IS NOT NULL
GROUP BY tool_pattern

-- name: mark_patterns_extracted
UPDATE conversations SET patterns_extracted_at = %(now)s, tool_pattern = %(steps)s
WHERE id = %(id)s AND user_id = %(user_id)s AND patterns_extracted_at IS NULL
