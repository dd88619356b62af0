// The decay job: one user's current facts with what the forgetting curve needs, and its writes.

// name: decay_facts
MATCH (f:Fact {user_id: $user_id})
WHERE f.valid_until IS NULL
RETURN f.id AS id, f.confidence AS confidence, coalesce(f.access_count, 0) AS access_count,
       f.last_accessed AS last_accessed, f.last_decayed AS last_decayed, f.created_at AS created_at,
       f.decay_rate AS decay_rate, f.source AS source, f.priority AS priority

// name: set_fact_decayed
// A pruned fact is soft-deleted (valid_until), as seed 001 forgets: it stays readable in history.
MATCH (f:Fact {id: $id, user_id: $user_id})
WHERE f.valid_until IS NULL
SET f.confidence = $confidence, f.last_decayed = $now, f.updated_at = $now,
    f.valid_until = CASE WHEN $pruned THEN $now ELSE null END,
    f.forgotten_reason = CASE WHEN $pruned THEN 'decayed' ELSE f.forgotten_reason END
RETURN f.id AS id

// name: decay_entities
// Every entity of the user with when it was created: its salience and accesses are in the ledger
// (memory_access), never on the vector-indexed node.
MATCH (e:Entity {user_id: $user_id})
RETURN e.id AS id, e.created_at AS created_at

// name: delete_entities
// The cleanup job's low-salience entities, with every edge that hangs off them (relationships,
// MENTIONS from turns, ABOUT from facts, SAME_AS); the facts and turns themselves stay.
MATCH (e:Entity {user_id: $user_id})
WHERE e.id IN $ids
DETACH DELETE e
RETURN count(*) AS deleted
