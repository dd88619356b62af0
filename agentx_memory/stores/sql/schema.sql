-- Statements about the store itself, run on a bare connection before the pool (and its search_path)
-- exists: {schema} is the schema identifier, composed with psycopg.sql (never from user input).

-- name: schema_state
SELECT (SELECT max(version) FROM {schema}.schema_version) AS version,
       (SELECT value FROM {schema}.agentx_metadata WHERE key = 'embedding_dimensions') AS embedding_dimensions,
       (SELECT value FROM {schema}.agentx_metadata WHERE key = 'embedding_model') AS embedding_model,
       (SELECT value FROM {schema}.agentx_metadata WHERE key = 'reindex_model') AS reindex_model,
       (SELECT value FROM {schema}.agentx_metadata WHERE key = 'reindex_dimensions') AS reindex_dimensions,
       to_regclass(%(last_partition)s) IS NOT NULL AS partitions_ready

-- name: read_metadata
-- The whole metadata table: the embedding lock and, during `agentx-memory reindex`, its progress.
SELECT key, value FROM {schema}.agentx_metadata ORDER BY key
