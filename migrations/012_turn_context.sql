-- An answer's full-text entry also holds the question before it (its speaker and words; a turn after
-- another speaker's or role's turn with a "?"), written at ingest: an answer rarely repeats its question
-- ("They loved it!" after "How did the kids like the museum?"), so the words that find an exchange are
-- spread over its two turns. Not after a statement: an assistant's echo must not outrank what was said.
-- Lexical only: the embedding stays the turn's own (a longer embedded text would slow every
-- store_turn), and neighbour smoothing still passes scores between adjacent turns. Measured on LoCoMo
-- dev (README, "Recall quality II").
--
-- A field of its own, BM25F-style: the context's words add matches (term frequency) to the answer, but
-- neither its length (BM25 normalises by the turn's own search_len) nor the document frequencies (the
-- statistics of migration 003 count search_tsv only). Counted in them, every question's lexemes were
-- upserted twice per exchange: +1.7 ms a store_turn. Forgetting a turn clears it from the next turn's
-- context (forget.sql, forget_turn_rows).
ALTER TABLE conversation_logs
    ADD COLUMN context_text text,
    ADD COLUMN context_tsv tsvector GENERATED ALWAYS AS (
        to_tsvector('english'::regconfig, coalesce(context_text, ''))
    ) STORED;
CREATE INDEX conversation_logs_context_search ON conversation_logs USING gin (context_tsv);
