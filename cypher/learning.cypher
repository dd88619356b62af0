// Learning from conversations: what consolidation reads and writes beyond plain facts and entities —
// the facts in one (subject, key) slot, MENTIONS edges, contradictions flagged for review.

// name: facts_in_slot
// The current facts about one subject under these keys (dedup and contradiction candidates that
// the vector search can miss: "Dana lives in Montreal" vs "Dana lives in Toronto" are far apart);
// $prefixes: whole families of keys ("favourite_": a new favourite of a category not yet known).
MATCH (f:Fact {user_id: $user_id})
WHERE f.channel IN $channels AND f.valid_until IS NULL AND f.subject = $subject
  AND (f.key IN $keys OR any(prefix IN $prefixes WHERE f.key STARTS WITH prefix))
RETURN f.id AS id
LIMIT 20

// name: link_turn_mentions
MATCH (t:Turn {id: $turn_id, user_id: $user_id})
MATCH (e:Entity {user_id: $user_id})
WHERE e.id IN $entity_ids
MERGE (t)-[:MENTIONS]->(e)
RETURN e.id AS id

// name: flag_contradiction
// Both facts stay current; the pair waits in review_queue until someone decides.
MATCH (new:Fact {id: $new_id, user_id: $user_id})
MATCH (old:Fact {id: $old_id, user_id: $user_id})
MERGE (new)-[c:CONTRADICTS]->(old)
ON CREATE SET c.status = 'review', c.reason = $reason, c.created_at = $now
RETURN c.status AS status

// name: review_queue
MATCH (new:Fact {user_id: $user_id})-[c:CONTRADICTS]->(old:Fact {user_id: $user_id})
WHERE c.status = 'review' AND new.channel IN $channels
RETURN new.id AS new_id, old.id AS old_id, c.reason AS reason, c.created_at AS created_at
ORDER BY c.created_at
LIMIT $limit

// name: close_contradiction
MATCH (new:Fact {id: $new_id, user_id: $user_id})-[c:CONTRADICTS]->(old:Fact {id: $old_id, user_id: $user_id})
WHERE c.status = 'review'
SET c.status = $status, c.resolved_at = $now
RETURN c.status AS status

// name: entity_names
// The names and aliases of the user's entities, so the extractor recognises them in new turns.
MATCH (e:Entity {user_id: $user_id})
WHERE e.channel IN $channels AND e.type <> 'date'
RETURN e.id AS id, e.name AS name, e.aliases AS aliases
LIMIT $limit
