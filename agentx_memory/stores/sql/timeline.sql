-- Reading memory_timeline (written by the subsystems and the ledger's turn statement on every write).

-- name: list_timeline
-- Newest first, within [since, until) when given, of the kinds asked (all when NULL).
SELECT memory_type, memory_id, channel, event_time, summary, importance, conversation_id::text AS conversation_id
FROM memory_timeline
WHERE user_id = %(user_id)s
  AND channel = ANY(%(channels)s::text[])
  AND (%(since)s::timestamptz IS NULL OR event_time >= %(since)s::timestamptz)
  AND (%(until)s::timestamptz IS NULL OR event_time < %(until)s::timestamptz)
  AND (%(kinds)s::text[] IS NULL OR memory_type = ANY(%(kinds)s::text[]))
ORDER BY event_time DESC, memory_type, memory_id
LIMIT %(limit)s
