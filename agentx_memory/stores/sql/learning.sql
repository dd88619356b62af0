-- Consolidation's view of the ledger: which conversations have turns not yet learned from.

-- name: conversations_to_consolidate
-- The user's conversations with turns past their watermark, with the time of their last turn.
SELECT c.id::text AS id, c.channel, c.consolidated_turns, c.next_turn_index,
       (SELECT max(l."timestamp") FROM conversation_logs l WHERE l.conversation_id = c.id) AS last_turn_at
FROM conversations c
WHERE c.user_id = %(user_id)s AND c.next_turn_index > c.consolidated_turns
ORDER BY c.created_at
LIMIT %(limit)s

-- name: consolidation_state
SELECT consolidated_turns, next_turn_index, consolidated_at, channel
FROM conversations
WHERE id = %(conversation_id)s AND user_id = %(user_id)s

-- name: turns_from
SELECT id::text AS id, conversation_id::text AS conversation_id, user_id, channel, turn_index, role, content,
       content_hash, metadata, "timestamp",
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced, token_count
FROM conversation_logs l
WHERE conversation_id = %(conversation_id)s AND user_id = %(user_id)s AND turn_index >= %(from_index)s
ORDER BY turn_index
LIMIT %(limit)s

-- name: advance_consolidation
-- Monotonic: a slower, older run can never move the watermark back.
UPDATE conversations
SET consolidated_turns = GREATEST(consolidated_turns, %(upto)s), consolidated_at = now()
WHERE id = %(conversation_id)s AND user_id = %(user_id)s

-- name: turns_of_conversation
-- Which of these turns are the conversation's (get_context leaves out what was learned from it).
SELECT id::text AS id FROM conversation_logs
WHERE user_id = %(user_id)s AND conversation_id = %(conversation_id)s AND id = ANY(%(turn_ids)s::uuid[])
