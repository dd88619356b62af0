-- BM25's term statistics, kept per user and channel in the same transaction as the ledger writes.
-- Recall used to count them per query: each query lexeme's document frequency (capped, visiting heap
-- pages) and the corpus size and average length (a scan of all the user's rows), a cost that grew with
-- the history. A search engine keeps docFreq and the field's length totals in its index (Lucene does)
-- and reads them in O(query terms); these two tables are that, maintained by the triggers below.

CREATE TABLE lexical_df (
    user_id text    NOT NULL,
    channel text    NOT NULL,
    lexeme  text    NOT NULL,
    -- how many of the user's turns in the channel contain the lexeme (a row at 0 is deleted)
    df      integer NOT NULL,
    PRIMARY KEY (user_id, channel, lexeme)
) WITH (fillfactor = 80);  -- every turn updates its lexemes' rows: room on the page keeps those updates HOT

CREATE TABLE lexical_corpus (
    user_id   text   NOT NULL,
    channel   text   NOT NULL,
    -- the number of turns and the sum of their search_len (distinct lexemes): BM25's N and avgdl
    n         bigint NOT NULL,
    total_len bigint NOT NULL,
    PRIMARY KEY (user_id, channel)
) WITH (fillfactor = 50);

-- Adds sign × (each turn's lexemes and length) to the statistics of the turn's user and channel.
-- Rows are aggregated first and written in one fixed order — the corpus rows, then the df rows, each
-- sorted by (user_id, channel[, lexeme]) — so writers of the same user queue on the same first row
-- instead of deadlocking on two rows taken in opposite orders. Counts that reach 0 are deleted (they
-- are this transaction's rows by then, already locked). search_path is fixed at creation: triggers
-- also fire in sessions that set another one (an operator's psql DELETE, a maintenance script).
CREATE FUNCTION lexical_stats_shift(
    user_ids text[], channels text[], tsvs tsvector[], lens integer[], signs integer[]
) RETURNS void
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    INSERT INTO lexical_corpus AS s (user_id, channel, n, total_len)
    SELECT c.user_id, c.channel, sum(c.sign), sum(c.sign * c.len)
    FROM unnest(user_ids, channels, lens, signs) AS c(user_id, channel, len, sign)
    GROUP BY c.user_id, c.channel
    ORDER BY c.user_id, c.channel
    ON CONFLICT (user_id, channel)
        DO UPDATE SET n = s.n + excluded.n, total_len = s.total_len + excluded.total_len;

    INSERT INTO lexical_df AS s (user_id, channel, lexeme, df)
    SELECT c.user_id, c.channel, t.lexeme, sum(c.sign)
    FROM unnest(user_ids, channels, tsvs, signs) AS c(user_id, channel, tsv, sign)
    CROSS JOIN LATERAL unnest(tsvector_to_array(c.tsv)) AS t(lexeme)
    GROUP BY c.user_id, c.channel, t.lexeme
    -- a moved turn's unchanged lexemes cancel out: nothing to write, nothing to lock
    HAVING sum(c.sign) <> 0
    ORDER BY c.user_id, c.channel, t.lexeme
    ON CONFLICT (user_id, channel, lexeme) DO UPDATE SET df = s.df + excluded.df;

    IF -1 = ANY(signs) THEN
        DELETE FROM lexical_df d
        USING (SELECT DISTINCT c.user_id, c.channel, t.lexeme
               FROM unnest(user_ids, channels, tsvs, signs) AS c(user_id, channel, tsv, sign)
               CROSS JOIN LATERAL unnest(tsvector_to_array(c.tsv)) AS t(lexeme)
               WHERE c.sign < 0) AS gone
        WHERE d.user_id = gone.user_id AND d.channel = gone.channel AND d.lexeme = gone.lexeme
          AND d.df <= 0;
        DELETE FROM lexical_corpus s
        USING (SELECT DISTINCT c.user_id, c.channel
               FROM unnest(user_ids, channels, signs) AS c(user_id, channel, sign)
               WHERE c.sign < 0) AS gone
        WHERE s.user_id = gone.user_id AND s.channel = gone.channel AND s.n <= 0;
    END IF;
END;
$$;

-- Statement level with a transition table: one aggregation per statement, however many rows it wrote,
-- and the rows of an INSERT … ON CONFLICT DO NOTHING that were skipped are not in it. The same function
-- serves both triggers: each names its transition table "changed". Deletes by forget.sql and the
-- ON DELETE CASCADE from conversations both arrive here (a cascade is a DELETE statement of its own).
CREATE FUNCTION lexical_stats_count() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM lexical_stats_shift(array_agg(user_id), array_agg(channel), array_agg(search_tsv),
                                array_agg(search_len),
                                array_fill(CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END, ARRAY[count(*)::int]))
    FROM changed
    HAVING count(*) > 0;
    RETURN NULL;
END;
$$;

CREATE TRIGGER conversation_logs_lexical_insert
    AFTER INSERT ON conversation_logs REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION lexical_stats_count();
CREATE TRIGGER conversation_logs_lexical_delete
    AFTER DELETE ON conversation_logs REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION lexical_stats_count();

-- An edited or moved turn: its old lexemes leave the old (user, channel), its new ones join the new.
-- Row level so the WHEN clause can skip it: every store_turn also updates graph_synced, and that
-- update neither lists a column of this trigger nor changes the text, so the trigger costs nothing.
CREATE FUNCTION lexical_stats_move() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM lexical_stats_shift(ARRAY[OLD.user_id, NEW.user_id], ARRAY[OLD.channel, NEW.channel],
                                ARRAY[OLD.search_tsv, NEW.search_tsv], ARRAY[OLD.search_len, NEW.search_len],
                                ARRAY[-1, 1]);
    RETURN NULL;
END;
$$;

CREATE TRIGGER conversation_logs_lexical_update
    AFTER UPDATE OF content, metadata, user_id, channel ON conversation_logs
    FOR EACH ROW
    WHEN (OLD.search_tsv IS DISTINCT FROM NEW.search_tsv OR OLD.user_id IS DISTINCT FROM NEW.user_id
          OR OLD.channel IS DISTINCT FROM NEW.channel)
    EXECUTE FUNCTION lexical_stats_move();

-- TRUNCATE skips row and statement DELETE triggers; it empties every turn, so it empties the statistics.
CREATE FUNCTION lexical_stats_clear() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    DELETE FROM lexical_df;
    DELETE FROM lexical_corpus;
    RETURN NULL;
END;
$$;

CREATE TRIGGER conversation_logs_lexical_truncate
    AFTER TRUNCATE ON conversation_logs
    FOR EACH STATEMENT EXECUTE FUNCTION lexical_stats_clear();

-- Backfill. The triggers exist before the count and this transaction holds their lock (CREATE TRIGGER
-- takes SHARE ROW EXCLUSIVE) until it commits, so no write lands between the count and the triggers.
INSERT INTO lexical_corpus (user_id, channel, n, total_len)
SELECT user_id, channel, count(*), sum(search_len)
FROM conversation_logs
GROUP BY user_id, channel;

INSERT INTO lexical_df (user_id, channel, lexeme, df)
SELECT l.user_id, l.channel, t.lexeme, count(*)
FROM conversation_logs l
CROSS JOIN LATERAL unnest(tsvector_to_array(l.search_tsv)) AS t(lexeme)
GROUP BY l.user_id, l.channel, t.lexeme;
