-- Recall over the ledger: lexical (BM25) and vector. The graph's full-text index cannot serve it at scale: FalkorDB
-- returns every match of a term (no top-k), for every user, before our filter runs, so a common word
-- in 20k turns costs hundreds of milliseconds; and its scores ignore the user's own term statistics.
-- Here the GIN index finds a user's postings and BM25 is computed from the lexemes' positions.
-- The speaker's name (metadata.speaker) is part of the searchable text: questions name people.

ALTER TABLE conversation_logs
    ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
        to_tsvector('english'::regconfig, coalesce(metadata ->> 'speaker', '') || ' ' || content)
    ) STORED;
-- length(tsvector) counts distinct lexemes: BM25's document length, kept beside the user so the
-- per-user average is an index-only scan.
ALTER TABLE conversation_logs
    ADD COLUMN search_len integer GENERATED ALWAYS AS (
        length(to_tsvector('english'::regconfig, coalesce(metadata ->> 'speaker', '') || ' ' || content))
    ) STORED;
CREATE INDEX conversation_logs_search ON conversation_logs USING gin (search_tsv);
CREATE INDEX conversation_logs_user_len ON conversation_logs (user_id, channel) INCLUDE (search_len);
-- Turn recall by vector runs here too (it was the graph's): the ledger row is what recall returns, and
-- the graph's ANN index is shared by every user, so it needed 8x oversampling and node-map projection
-- per candidate. HNSW with iterative scans filters by user inside the index walk.
CREATE INDEX conversation_logs_embedding ON conversation_logs USING hnsw (embedding vector_cosine_ops);
