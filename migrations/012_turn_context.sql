-- An answer's full-text entry also holds the question before it (its speaker and words; a turn after
-- another speaker's or role's turn with a "?"), written at ingest: an answer rarely repeats its question
-- ("They loved it!" after "How did the kids like the museum?"), so the words that find an exchange are
-- spread over its two turns. Not after a statement: an assistant's echo must not outrank what was said.
-- Lexical only: the embedding stays the turn's own (a longer embedded text would slow every
-- store_turn), and neighbour smoothing still passes scores between adjacent turns. Measured on LoCoMo
-- dev (README, "Recall quality II").
-- Forgetting a turn clears it from the next turn's context (forget.sql, forget_turn_rows).
ALTER TABLE conversation_logs ADD COLUMN context_text text;

DROP TRIGGER conversation_logs_lexical_update ON conversation_logs;
ALTER TABLE conversation_logs ALTER COLUMN search_tsv SET EXPRESSION AS (
    to_tsvector('english'::regconfig,
                coalesce(metadata ->> 'speaker', '') || ' ' || content || ' ' || coalesce(event_label, '')
                || ' ' || coalesce(context_text, ''))
);
-- search_len, BM25's document length, stays the turn's own (migration 011): the question's words add
-- matches to its answer, not length, so an answer is not ranked below a turn with no question before it
-- merely for having one.
CREATE TRIGGER conversation_logs_lexical_update
    AFTER UPDATE OF content, metadata, event_label, context_text, user_id, channel ON conversation_logs
    FOR EACH ROW
    WHEN (OLD.search_tsv IS DISTINCT FROM NEW.search_tsv OR OLD.user_id IS DISTINCT FROM NEW.user_id
          OR OLD.channel IS DISTINCT FROM NEW.channel)
    EXECUTE FUNCTION lexical_stats_move();
