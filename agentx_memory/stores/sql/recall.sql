-- Recall over the ledger: BM25 over turns (two steps) and the neighbours of recalled turns.
-- Every statement filters by user_id and the channels being read.

-- name: lexical_term_stats
-- Step 1: the query's lexemes (stemmed exactly as the stored text was), each one's document frequency
-- among this user's turns in the channels read, and the corpus size and average length BM25 needs.
WITH terms AS (
    SELECT DISTINCT lexeme
    FROM unnest(tsvector_to_array(to_tsvector('english'::regconfig, %(text)s))) AS lexeme
    LIMIT 32
), corpus AS (
    SELECT count(*)::float8 AS n, coalesce(avg(search_len), 1)::float8 AS avgdl
    FROM conversation_logs
    WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s)
)
SELECT terms.lexeme, corpus.n, corpus.avgdl,
       -- counted up to the df_cap parameter: past that a lexeme is common, and counting it exactly would visit
       -- every one of its rows
       (SELECT count(*) FROM (
            SELECT 1 FROM conversation_logs c
            WHERE c.user_id = %(user_id)s AND c.channel = ANY(%(channels)s)
              -- the lexeme quoted as a tsquery operand, taken as-is (no second parse or stemming)
              AND c.search_tsv @@ ('''' || replace(replace(terms.lexeme, '\', '\\'), '''', '''''') || '''')::tsquery
            LIMIT %(df_cap)s
        ) AS capped)::float8 AS df
FROM terms CROSS JOIN corpus

-- name: lexical_search_turns
-- Step 2: BM25 of the turns that contain a probe lexeme (the selective ones, chosen by the caller), each
-- scored over every query lexeme with the caller's IDFs; tf is the number of positions of a lexeme.
WITH terms AS (
    SELECT lexeme, idf FROM unnest(%(lexemes)s::text[], %(idfs)s::float8[]) AS t(lexeme, idf)
), candidates AS (
    SELECT id, search_tsv, search_len
    FROM conversation_logs
    WHERE user_id = %(user_id)s AND channel = ANY(%(channels)s)
      AND search_tsv @@ %(probe)s::tsquery
      AND (%(since)s::timestamptz IS NULL OR "timestamp" >= %(since)s::timestamptz)
      AND (%(until)s::timestamptz IS NULL OR "timestamp" < %(until)s::timestamptz)
), scored AS (
    SELECT c.id,
           sum(t.idf * tf.n * (%(k1)s + 1)
               / (tf.n + %(k1)s * (1 - %(b)s + %(b)s * c.search_len / %(avgdl)s))) AS score
    FROM candidates c
    CROSS JOIN LATERAL unnest(c.search_tsv) AS u(lexeme, positions, weights)
    JOIN terms t ON t.lexeme = u.lexeme
    CROSS JOIN LATERAL (SELECT coalesce(array_length(u.positions, 1), 1)::float8 AS n) AS tf
    GROUP BY c.id
    ORDER BY score DESC
    LIMIT %(limit)s
)
SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.user_id, l.channel, l.turn_index,
       l.role, l.content, l.content_hash, l.metadata, l."timestamp", l.graph_synced, s.score
FROM scored s JOIN conversation_logs l ON l.id = s.id
ORDER BY s.score DESC

-- name: turn_neighbours
-- The turns at the given (conversation, index) positions, with their cosine similarity to the query.
SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.user_id, l.channel, l.turn_index,
       l.role, l.content, l.content_hash, l.metadata, l."timestamp", l.graph_synced,
       CASE WHEN l.embedding IS NULL THEN 0.0 ELSE 1 - (l.embedding <=> %(vector)s) END AS similarity
FROM unnest(%(conversation_ids)s::uuid[], %(turn_indexes)s::int[]) AS k(conversation_id, turn_index)
JOIN conversation_logs l ON l.conversation_id = k.conversation_id AND l.turn_index = k.turn_index
WHERE l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s)

-- name: vector_search_turns
-- Nearest turns of this user by cosine (HNSW with iterative scan; re-sorted because relaxed order may
-- return the last few slightly out of order).
SELECT * FROM (
    SELECT l.id::text AS id, l.conversation_id::text AS conversation_id, l.user_id, l.channel, l.turn_index,
           l.role, l.content, l.content_hash, l.metadata, l."timestamp", l.graph_synced,
           1 - (l.embedding <=> %(vector)s) AS similarity
    FROM conversation_logs l
    WHERE l.user_id = %(user_id)s AND l.channel = ANY(%(channels)s) AND l.embedding IS NOT NULL
    ORDER BY l.embedding <=> %(vector)s
    LIMIT %(limit)s
) AS nearest
ORDER BY similarity DESC
