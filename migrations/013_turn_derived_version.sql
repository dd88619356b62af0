-- Which turns carry the fields ingest derives from their words: the event date (migration 011) and the
-- question before an answer (migration 012). Turns stored before those migrations have neither, so
-- recall on old history is worse than on new; `agentx-memory backfill` (maintenance/backfill_async.py)
-- derives them for every turn at derived_version 0 and sets it to 1.
--
-- Added with DEFAULT 0 (stored as the catalog's missing value: no table rewrite, every existing row
-- reads 0), then the default moves to 1 for rows inserted from now on; the append statements also
-- write 1 explicitly (stores/sql/ledger.sql). An import of a dump from before this migration has no
-- derived_version and gets 0 (stores/sql/portability.sql): the backfill then covers it too.
ALTER TABLE conversation_logs ADD COLUMN derived_version smallint NOT NULL DEFAULT 0;
ALTER TABLE conversation_logs ALTER COLUMN derived_version SET DEFAULT 1;
-- The backfill's queue: small (empty once the backfill is done), so finding the next batch and
-- doctor's count stay cheap on a large ledger.
CREATE INDEX conversation_logs_underived ON conversation_logs (id) WHERE derived_version = 0;

-- The question context of a turn (migration 012) from the turn before it, in one place for the append
-- statements and the backfill: the asker's speaker and words when another role or speaker asked a
-- question there, else NULL. A plain SQL expression, inlined by the planner.
CREATE FUNCTION turn_question_context(asked_role text, asked_metadata jsonb, asked text, role text,
                                      metadata jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN strpos(asked, '?') > 0
                     AND (asked_role, coalesce(asked_metadata ->> 'speaker', ''))
                         IS DISTINCT FROM (role, coalesce(metadata ->> 'speaker', ''))
                THEN coalesce(asked_metadata ->> 'speaker', '') || ' ' || asked END;
