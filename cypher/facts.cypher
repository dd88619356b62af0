// Semantic memory, facts: claims with confidence, their ABOUT / DERIVED_FROM links and correction chain.
// Shared by every backend. A fact with valid_until set is soft-deleted (no longer current).

// name: create_fact
CREATE (f:Fact {id: $id, user_id: $user_id})
SET f.channel = $channel, f.claim = $claim, f.confidence = $confidence, f.source = $source,
    f.temporal = $temporal, f.priority = $priority, f.salience = $salience, f.decay_rate = $decay_rate,
    f.access_count = 0, f.created_at = $now, f.updated_at = $now, f.embedding = vecf32($embedding)
RETURN f.id AS id

// name: link_fact_about
MATCH (f:Fact {id: $fact_id, user_id: $user_id})
MATCH (e:Entity {user_id: $user_id})
WHERE e.id IN $entity_ids
MERGE (f)-[:ABOUT]->(e)
RETURN e.id AS id

// name: find_turn
MATCH (t:Turn {id: $turn_id, user_id: $user_id})
RETURN t.id AS id

// name: link_fact_turn
MATCH (f:Fact {id: $fact_id, user_id: $user_id})
MATCH (t:Turn {id: $turn_id, user_id: $user_id})
MERGE (f)-[:DERIVED_FROM]->(t)
RETURN t.id AS id

// name: get_facts
// The edges' far ends are unlabelled: link_fact_about / link_fact_turn match both ends by user_id (see
// recall.cypher on why a labelled end is slow on FalkorDB).
MATCH (f:Fact {user_id: $user_id})
WHERE f.id IN $ids AND f.channel IN $channels
OPTIONAL MATCH (f)-[:ABOUT]->(e)
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(t)
WITH f, collect(DISTINCT e.id) AS about, collect(DISTINCT t.id) AS turns
RETURN f {.id, .user_id, .channel, .claim, .confidence, .source, .temporal, .priority, .salience, .decay_rate,
          .access_count, .last_accessed, .created_at, .valid_until, .superseded_by} AS item, about, turns

// name: entity_facts
MATCH (f:Fact {user_id: $user_id})-[:ABOUT]->(:Entity {id: $id, user_id: $user_id})
WHERE f.channel IN $channels AND f.valid_until IS NULL
WITH f
ORDER BY f.created_at DESC
LIMIT $limit
RETURN f.id AS id

// name: touch_facts
MATCH (f:Fact {user_id: $user_id})
WHERE f.id IN $ids
SET f.access_count = coalesce(f.access_count, 0) + 1, f.last_accessed = $now
RETURN f.id AS id

// name: supersede_fact
MATCH (old:Fact {id: $old_id, user_id: $user_id})
WHERE old.valid_until IS NULL
MATCH (new:Fact {id: $new_id, user_id: $user_id})
SET old.valid_until = $now, old.superseded_by = $new_id, old.updated_at = $now
MERGE (new)-[:SUPERSEDES]->(old)
RETURN old.id AS id

// name: undo_correction
MATCH (new:Fact {id: $id, user_id: $user_id})-[s:SUPERSEDES]->(old:Fact {user_id: $user_id})
WHERE new.channel IN $channels AND new.valid_until IS NULL AND old.superseded_by = $id
SET new.valid_until = $now, new.updated_at = $now, old.valid_until = null, old.superseded_by = null,
    old.updated_at = $now, s.undone_at = $now
RETURN old.id AS id

// name: confirm_fact
MATCH (f:Fact {id: $id, user_id: $user_id})
WHERE f.channel IN $channels
SET f.confidence = 1.0, f.decay_rate = 0.0, f.confirmed_at = $now, f.updated_at = $now
RETURN f.id AS id

// name: semantic_counts
MATCH (n:Turn {user_id: $user_id})
WHERE n.channel IN $channels
RETURN 'Turn' AS label, n.channel AS channel, count(n) AS count, max(n.timestamp) AS latest
UNION ALL
MATCH (n:Conversation {user_id: $user_id})
WHERE n.channel IN $channels
RETURN 'Conversation' AS label, n.channel AS channel, count(n) AS count, max(n.created_at) AS latest
UNION ALL
MATCH (n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
RETURN 'Entity' AS label, n.channel AS channel, count(n) AS count, max(n.updated_at) AS latest
UNION ALL
MATCH (n:Fact {user_id: $user_id})
WHERE n.channel IN $channels
RETURN 'Fact' AS label, n.channel AS channel, count(n) AS count, max(n.updated_at) AS latest
UNION ALL
MATCH (n:Fact {user_id: $user_id})
WHERE n.channel IN $channels AND n.valid_until IS NULL
RETURN 'current_facts' AS label, n.channel AS channel, count(n) AS count, max(n.updated_at) AS latest
