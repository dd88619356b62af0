-- agentx-memory backfill (maintenance/backfill_async.py): the fields ingest derives from a turn's words,
-- written for the turns stored before they existed (derived_version 0, migration 013). Rows come in
-- primary-key order after a watermark, through the partial index conversation_logs_underived; a user
-- of NULL means every user.

-- name: backfill_count_turns
SELECT count(*) AS count
FROM conversation_logs
WHERE derived_version = 0 AND (%(user_id)s::text IS NULL OR user_id = %(user_id)s::text)

-- name: backfill_turn_rows
-- What turn_event and the embedded text read (memory/episodic_pure.py), and the event label stored
-- (a turn stored between migrations 011 and 013 has it, and its embedding already embeds it).
SELECT id::text AS id, user_id, content, metadata, "timestamp", event_label
FROM conversation_logs
WHERE derived_version = 0 AND id > %(after_id)s::uuid
  AND (%(user_id)s::text IS NULL OR user_id = %(user_id)s::text)
ORDER BY id
LIMIT %(limit)s

-- name: backfill_write_turns
-- Each row's event columns, and its new vector where its embedded text changed (else the stored one);
-- the question context from the turn before it, by the rule the append statements apply (migration
-- 013's turn_question_context). Only rows still at version 0: a concurrent run's work is not redone.
-- The event label moves the turn's lexemes: the update trigger keeps the BM25 statistics exact.
UPDATE conversation_logs AS l
SET event_start = (r ->> 'event_start')::timestamptz,
    event_end = (r ->> 'event_end')::timestamptz,
    event_label = r ->> 'event_label',
    embedding = coalesce((r ->> 'embedding')::vector, l.embedding),
    context_text = CASE WHEN %(with_context)s THEN
        (SELECT turn_question_context(p.role, p.metadata, p.content, l.role, l.metadata)
         FROM conversation_logs p
         WHERE p.conversation_id = l.conversation_id AND p.user_id = l.user_id
           AND p.turn_index = l.turn_index - 1)
    END,
    derived_version = 1
FROM jsonb_array_elements(%(rows)s::jsonb) AS r
WHERE l.id = (r ->> 'id')::uuid AND l.derived_version = 0
