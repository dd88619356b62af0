-- Recall over the ledger: BM25 over turns and the neighbours of recalled turns.
-- Every statement filters by user_id and the channels being read. The full-text, neighbour and vector
-- reads are read as tuples (memory/episodic_pure.py's turn_hit): their first seven columns are a lean
-- turn's, in this order, and what each adds follows them.

-- name: lexical_search_turns
-- BM25 over this user's turns in the channels read, in one round trip (the statistics and the search
-- were two statements, the second waiting for the client to choose its probe: ~0.8 ms of every recall).
-- The query's lexemes (stemmed exactly as the stored text was), each one's document frequency among
-- this user's turns in the channels read, and the corpus size and average length BM25 needs: exact
-- and read from the statistics the write triggers keep (migrations/003_lexical_stats.sql), one index
-- probe per lexeme and channel, whatever the size of the history.
-- The probe is memory/lexical.py's plan_lexical_query, the reference (a test holds them equal): the
-- lexemes rarest first while each is in at most %(max_df_ratio)s of the turns, at most %(max_probe)s
-- of them, and their postings (the rarest one's always) within %(max_postings)s; when even the
-- rarest is too common, the rarest two. A common lexeme scores but does not pick candidates.
-- Each candidate is scored over every query lexeme: Okapi BM25 with the Lucene IDF, tf the lexeme's
-- count in the turn. The count is read without unpacking the tsvector into rows (an SRF per candidate
-- cost ~10 µs each): for a one-lexeme query ts_rank(tsv, q, 0) = 0.1 × H(tf) / (π²/6), with
-- H(tf) = Σ_{j≤tf} 1/j², and π²/6 − H(tf) ≈ 1/tf − 1/(2 tf²), so tf = round(1 / (π²/6 − H) − 0.5)
-- (exact for the counts turns have).
-- The CTEs are MATERIALIZED: inlined, the planner re-parses each tsquery per pair and pushes the join
-- into one bitmap scan per term, visiting a candidate's heap page once per term it holds; this way the
-- heap is read once per candidate and the (candidate, term) tests run in memory. The probe reaches the
-- candidates' scan as a run-time value, so the scan is planned for a selective probe (the GIN indexes)
-- whatever the words.
WITH words AS MATERIALIZED (
    -- The query's lexemes as a run-time value, like everything below that depends on them: the plan
    -- Postgres keeps for the prepared statement then costs what a plan made for the call does, so it is
    -- kept (planned for each call, the statement spent ~0.4 ms planning; see test_hot_plans).
    SELECT tsvector_to_array(to_tsvector('english'::regconfig, %(text)s)) AS lexemes
), corpus AS MATERIALIZED (
    SELECT coalesce(sum(n), 0)::float8 AS n,
           coalesce(sum(total_len)::float8 / nullif(sum(n), 0), 1)::float8 AS avgdl
    FROM lexical_corpus
    WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s)
), stats AS MATERIALIZED (
    -- one index scan for every lexeme
    SELECT terms.lexeme, coalesce(d.df, 0)::float8 AS df
    FROM (SELECT DISTINCT lexeme FROM unnest((SELECT lexemes FROM words)) AS lexeme LIMIT 32) AS terms
    LEFT JOIN (
        SELECT lexeme, sum(df) AS df
        FROM lexical_df
        WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s)
          AND lexeme = ANY((SELECT lexemes FROM words)::text[])
        GROUP BY lexeme
    ) AS d USING (lexeme)
), ranked AS MATERIALIZED (
    SELECT s.lexeme, s.df, corpus.n,
           ln(1 + (corpus.n - s.df + 0.5) / (s.df + 0.5)) AS idf,
           row_number() OVER rarest AS place,
           sum(s.df) OVER rarest AS postings,
           -- each lexeme quoted as a tsquery operand, taken as-is (no second parse or stemming)
           '''' || replace(replace(s.lexeme, '\', '\\'), '''', '''''') || '''' AS quoted
    FROM stats s
    CROSS JOIN corpus
    WHERE s.df > 0
    WINDOW rarest AS (ORDER BY s.df, s.lexeme ROWS UNBOUNDED PRECEDING)
), probing AS (
    -- a lexeme probes while it and every rarer one qualify
    SELECT quoted, place,
           bool_and(df <= %(max_df_ratio)s * n AND place <= %(max_probe)s
                    AND (place = 1 OR postings <= %(max_postings)s)) OVER (ORDER BY place) AS probes
    FROM ranked
), probe AS MATERIALIZED (
    SELECT coalesce(string_agg(quoted, ' | ' ORDER BY place) FILTER (WHERE probes),
                    string_agg(quoted, ' | ' ORDER BY place) FILTER (WHERE place <= 2))::tsquery AS q
    FROM probing
), terms AS MATERIALIZED (
    SELECT idf, quoted::tsquery AS q FROM ranked
), candidates AS MATERIALIZED (
    SELECT id, conversation_id, turn_index, "timestamp", metadata ->> 'speaker' AS speaker, event_start,
           event_end, search_tsv, context_tsv, search_len
    FROM conversation_logs
    WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s)
      AND (search_tsv @@ (SELECT q FROM probe) OR context_tsv @@ (SELECT q FROM probe))
      AND (%(since)s::timestamptz IS NULL OR "timestamp" >= %(since)s::timestamptz)
      AND (%(until)s::timestamptz IS NULL OR "timestamp" < %(until)s::timestamptz)
      AND (%(metadata)s::jsonb IS NULL OR metadata @> %(metadata)s::jsonb)
)
-- Lean rows (position, time, speaker, event date): recall fetches the whole turn only for what it may
-- return. Each candidate's score is summed over its terms in a lateral subquery: a join of (candidate,
-- term) pairs grouped back by candidate sorted ~2,000 rows for the grouping, 0.6 ms of a 2.7 ms statement.
-- With %(vector)s (the question's, when recall has it before this search starts) each hit also carries
-- its cosine, exactly as recall_vector_turns computes it: recall then needs no second statement for the
-- cosines of the hits its vector search did not reach. Read by primary key for the hits only.
, hits AS MATERIALIZED (
SELECT c.id, c.conversation_id, c.turn_index, c."timestamp", c.speaker, c.event_start, c.event_end, s.score
FROM candidates c
CROSS JOIN corpus
CROSS JOIN LATERAL (
    SELECT sum(t.idf * tf.n * (%(k1)s + 1)
               / (tf.n + %(k1)s * (1 - %(b)s + %(b)s * c.search_len / corpus.avgdl))) AS score
    FROM terms t
    CROSS JOIN LATERAL (
        -- the turn's own count plus its context's (the question before an answer, migration 012);
        -- a lexeme absent from a field has ts_rank 0 there, which the formula turns into a count of 0
        SELECT round(1 / (1.6449340668482264 - ts_rank(c.search_tsv, t.q, 0) * 16.449340668482264) - 0.5)::float8
               + round(1 / (1.6449340668482264 - ts_rank(c.context_tsv, t.q, 0) * 16.449340668482264) - 0.5)::float8
    ) AS tf(n)
    WHERE c.search_tsv @@ t.q OR c.context_tsv @@ t.q
) AS s
ORDER BY s.score DESC, c.id
LIMIT %(limit)s
)
SELECT h.id::text AS id, h.conversation_id::text AS conversation_id, h.turn_index, h."timestamp", h.speaker,
       h.event_start, h.event_end, h.score, 1 - (l.embedding <=> %(vector)s::vector) AS similarity
FROM hits h
LEFT JOIN conversation_logs l ON %(vector)s::vector IS NOT NULL AND l.id = h.id AND l.user_id = %(user_id)s
ORDER BY h.score DESC, h.id

-- name: turn_neighbours
-- The turns at the given (conversation, index) positions, lean (position, time, speaker, event date),
-- with their cosine to %(vector)s (NULL without one): recall weighs a turn by how close its reply is.
SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.turn_index, l."timestamp",
       l.metadata ->> 'speaker' AS speaker, l.event_start, l.event_end,
       1 - (l.embedding <=> %(vector)s::vector) AS similarity
FROM unnest(%(conversation_ids)s::uuid[], %(turn_indexes)s::int[]) AS k(conversation_id, turn_index)
JOIN conversation_logs l ON l.conversation_id = k.conversation_id AND l.turn_index = k.turn_index
WHERE l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s)
  AND (%(metadata)s::jsonb IS NULL OR l.metadata @> %(metadata)s::jsonb)

-- name: recall_vector_turns
-- Nearest turns of this user by cosine (HNSW with iterative scan), lean (position, time, speaker, event
-- date, similarity),
-- flagged `nearest`; and the cosine of the turns in %(also)s (the full-text candidates) that are not
-- among them, flagged not `nearest`: fusion then weighs every candidate on both signals, rather than
-- counting a turn the vector search did not reach as dissimilar. Re-sorted because relaxed order may
-- return the last few nearest slightly out of order.
WITH nearest AS MATERIALIZED (
    SELECT l.id, l.conversation_id, l.turn_index, l."timestamp", l.metadata ->> 'speaker' AS speaker,
           l.event_start, l.event_end, 1 - (l.embedding <=> %(vector)s) AS similarity
    FROM conversation_logs l
    WHERE l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s) AND l.embedding IS NOT NULL
      AND (%(metadata)s::jsonb IS NULL OR l.metadata @> %(metadata)s::jsonb)
    ORDER BY l.embedding <=> %(vector)s
    LIMIT %(limit)s
)
SELECT n.id::text AS id, n.conversation_id::text AS conversation_id, n.turn_index, n."timestamp", n.speaker,
       n.event_start, n.event_end, n.similarity, true AS nearest
FROM nearest n
UNION ALL
SELECT l.id::text, l.conversation_id::text, l.turn_index, l."timestamp", l.metadata ->> 'speaker',
       l.event_start, l.event_end, 1 - (l.embedding <=> %(vector)s), false
FROM conversation_logs l
WHERE l.id = ANY(%(also)s::uuid[]) AND l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s)
  AND l.embedding IS NOT NULL AND l.id NOT IN (SELECT id FROM nearest)
  AND (%(metadata)s::jsonb IS NULL OR l.metadata @> %(metadata)s::jsonb)
ORDER BY similarity DESC

-- name: turns_by_id
-- Whole turns of this user by id (the recall candidates that may be returned).
SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.user_id, l.channel, l.turn_index,
       l.role, l.content, l.content_hash, l.metadata, l."timestamp",
       NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced
FROM conversation_logs l
WHERE l.id = ANY(%(ids)s::uuid[]) AND l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s)

-- name: vector_search_turns
-- Nearest whole turns of this user by cosine (HNSW with iterative scan; re-sorted because relaxed order
-- may return the last few slightly out of order): the cheapest recall that returns turns, which is the
-- floor benchmarks/recall_latency.py measures recall against (recall itself uses recall_vector_turns).
SELECT * FROM (
    SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.user_id, l.channel, l.turn_index,
           l.role, l.content, l.content_hash, l.metadata, l."timestamp",
           NOT EXISTS (SELECT FROM turn_sync_pending p WHERE p.turn_id = l.id) AS graph_synced,
           1 - (l.embedding <=> %(vector)s) AS similarity
    FROM conversation_logs l
    WHERE l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s) AND l.embedding IS NOT NULL
    ORDER BY l.embedding <=> %(vector)s
    LIMIT %(limit)s
) AS nearest
ORDER BY similarity DESC
