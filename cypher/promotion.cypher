// Promotion of project facts to _global: candidates by the settings' thresholds and the guarded copy.
// Shared by every backend. A global copy links (:Fact global)-[:PROMOTED_FROM]->(:Fact project) and
// carries promoted_from = the project fact's id, the deterministic key that makes promotion idempotent.

// name: promotion_candidates
// Current facts of the active (project) channel over the confidence threshold, not yet promoted, with
// the number of distinct conversations of the turns they are DERIVED_FROM. The access threshold is the
// caller's: access counts live in the ledger (memory_access), not on the vector-indexed node.
MATCH (f:Fact {user_id: $user_id, channel: $channel})
WHERE f.valid_until IS NULL AND f.confidence >= $min_confidence
OPTIONAL MATCH (p:Fact {user_id: $user_id})-[:PROMOTED_FROM]->(f)
WITH f, count(p) AS promoted
WHERE promoted = 0
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(t:Turn {user_id: $user_id})
WITH f, count(DISTINCT t.conversation_id) AS conversations
WHERE conversations >= $min_conversations
RETURN f.id AS id, conversations

// name: promote_fact
// One statement: the source must be this user's current project fact; MERGE on (user_id, promoted_from)
// returns the existing global copy on a repeated call. created tells the caller whether it was new.
MATCH (src:Fact {id: $fact_id, user_id: $user_id})
WHERE src.channel <> '_global' AND src.valid_until IS NULL
MERGE (g:Fact {user_id: $user_id, promoted_from: $fact_id})
ON CREATE SET g.id = $new_id, g.channel = '_global', g.claim = src.claim, g.confidence = src.confidence,
              g.source = src.source, g.temporal = src.temporal, g.priority = src.priority,
              g.salience = src.salience, g.decay_rate = src.decay_rate,
              g.created_at = $now, g.updated_at = $now, g.promoted_at = $now, g.promotion_reason = $reason,
              g.embedding = src.embedding
MERGE (g)-[:PROMOTED_FROM]->(src)
RETURN g.id AS id, g.id = $new_id AS created


// name: fact_conversations
MATCH (f:Fact {id: $fact_id, user_id: $user_id})
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(t:Turn {user_id: $user_id})
RETURN count(DISTINCT t.conversation_id) AS conversations
