-- When what a turn tells happened: "I went camping yesterday", said on 8 May 2023, happened on 7 May.
-- Resolved at ingest from the turn's relative time phrase against its own timestamp (memory/
-- episodic_pure.py, turn_event), so that a question about a date finds the event rather than only
-- what was said that day. event_label is the range in words ("7 May 2023"): it joins the full-text
-- column (and the embedded text) beside the speaker. Turns stored before this migration have none;
-- their searchable text is unchanged, so the BM25 statistics (migration 003) stay exact.
ALTER TABLE conversation_logs
    ADD COLUMN event_start timestamptz,
    ADD COLUMN event_end   timestamptz,
    ADD COLUMN event_label text;

-- The update trigger's WHEN clause reads search_tsv: dropped while the expression changes, then
-- recreated with event_label among the columns whose update can move a turn's lexemes.
DROP TRIGGER conversation_logs_lexical_update ON conversation_logs;
ALTER TABLE conversation_logs ALTER COLUMN search_tsv SET EXPRESSION AS (
    to_tsvector('english'::regconfig,
                coalesce(metadata ->> 'speaker', '') || ' ' || content || ' ' || coalesce(event_label, ''))
);
ALTER TABLE conversation_logs ALTER COLUMN search_len SET EXPRESSION AS (
    length(to_tsvector('english'::regconfig,
                       coalesce(metadata ->> 'speaker', '') || ' ' || content || ' ' || coalesce(event_label, '')))
);
CREATE TRIGGER conversation_logs_lexical_update
    AFTER UPDATE OF content, metadata, event_label, user_id, channel ON conversation_logs
    FOR EACH ROW
    WHEN (OLD.search_tsv IS DISTINCT FROM NEW.search_tsv OR OLD.user_id IS DISTINCT FROM NEW.user_id
          OR OLD.channel IS DISTINCT FROM NEW.channel)
    EXECUTE FUNCTION lexical_stats_move();
