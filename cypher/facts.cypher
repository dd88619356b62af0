// Semantic memory, facts: claims with confidence, their ABOUT / DERIVED_FROM links and correction chain.
// Shared by every backend. A fact with valid_until set is soft-deleted (no longer current). Access counts
// are not written here: they live in the ledger (memory_access), because every write to a node with an
// indexed vector leaves a stale HNSW entry on FalkorDB 4.16. A node written before that may still carry
// access_count / last_accessed; reads add the ledger's to them.

// name: create_fact
// The atom's properties (fact_kind … certainty) are null for a fact written through learn_fact; a
// User node is kept for every user that owns facts. The fact and its ABOUT / DERIVED_FROM edges are one
// statement: a graph server killed between two statements would leave a fact about nothing.
MERGE (u:User {id: $user_id})
ON CREATE SET u.user_id = $user_id, u.created_at = $now
CREATE (f:Fact {id: $id, user_id: $user_id, channel: $channel, claim: $claim, confidence: $confidence,
    source: $source, temporal: $temporal, priority: $priority, salience: $salience,
    decay_rate: $decay_rate, created_at: $now, updated_at: $now, embedding: vecf32($embedding),
    fact_kind: $fact_kind, subject: $subject, key: $key, value: $value, negated: $negated,
    event_time: $event_time, certainty: $certainty, stated_at: $stated_at, ends: $ends,
    ends_words: $ends_words})
WITH f
OPTIONAL MATCH (e:Entity {user_id: $user_id})
WHERE e.id IN $entity_ids
WITH f, collect(DISTINCT e) AS entities
OPTIONAL MATCH (t:Turn {user_id: $user_id})
WHERE t.id IN $turn_ids
WITH f, entities, collect(DISTINCT t) AS turns
FOREACH (x IN entities | MERGE (f)-[:ABOUT]->(x))
FOREACH (x IN turns | MERGE (f)-[:DERIVED_FROM]->(x))
RETURN f.id AS id

// name: correct_fact
// valid_until is when the old value stopped holding: the new statement's time ($ended_at, a learned
// fact's source turn) or, for a correction made through the API, now.
// One atomic step: the old fact stops being current and the new one supersedes it, or nothing happens
// (the old fact was corrected first by someone else). Setting correction_lock first takes the node's
// write lock on Neo4j, so the valid_until check below reads the winner's commit, not a stale value;
// FalkorDB runs each query alone, which gives the same guarantee. The correction is about what the old
// fact was about; a correction with no turn of its own (made through the API) keeps every turn the old
// fact came from, one learned from turns names only those (the old turn said the old value, so it is
// no source of the new one). The edges are written by the same statement, so a crash never leaves a
// correction without them.
MATCH (old:Fact {id: $old_id, user_id: $user_id})
WHERE old.channel IN $channels
SET old.correction_lock = $now
WITH old
WHERE old.valid_until IS NULL
SET old.valid_until = coalesce($ended_at, $now), old.superseded_by = $id, old.updated_at = $now
CREATE (f:Fact {id: $id, user_id: $user_id, channel: $channel, claim: $claim, confidence: $confidence,
    source: $source, temporal: $temporal, priority: $priority, salience: $salience,
    decay_rate: $decay_rate, created_at: $now, updated_at: $now, embedding: vecf32($embedding),
    fact_kind: $fact_kind, subject: $subject, key: $key, value: $value, negated: $negated,
    event_time: $event_time, certainty: $certainty, stated_at: $stated_at, ends: $ends,
    ends_words: $ends_words})
MERGE (f)-[:SUPERSEDES]->(old)
WITH f, old
OPTIONAL MATCH (old)-[:ABOUT]->(e)
WITH f, old, collect(DISTINCT e) AS entities
OPTIONAL MATCH (old)-[:DERIVED_FROM]->(t)
WITH f, entities, collect(DISTINCT t) AS turns
OPTIONAL MATCH (named:Entity {user_id: $user_id})
WHERE named.id IN $entity_ids
WITH f, entities, turns, collect(DISTINCT named) AS about
OPTIONAL MATCH (source:Turn {user_id: $user_id})
WHERE source.id IN $turn_ids
WITH f, entities, turns, about, collect(DISTINCT source) AS sources
FOREACH (x IN entities | MERGE (f)-[:ABOUT]->(x))
FOREACH (x IN about | MERGE (f)-[:ABOUT]->(x))
FOREACH (x IN CASE WHEN size($turn_ids) = 0 THEN turns ELSE [] END | MERGE (f)-[:DERIVED_FROM]->(x))
FOREACH (x IN sources | MERGE (f)-[:DERIVED_FROM]->(x))
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

// name: link_fact_turns
MATCH (f:Fact {id: $fact_id, user_id: $user_id})
MATCH (t:Turn {user_id: $user_id})
WHERE t.id IN $turn_ids
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
RETURN f {{{fact_fields}}} AS item, about, turns

// name: entity_facts
MATCH (f:Fact {user_id: $user_id})-[:ABOUT]->(:Entity {id: $id, user_id: $user_id})
WHERE f.channel IN $channels AND f.valid_until IS NULL
WITH f
ORDER BY f.created_at DESC
LIMIT $limit
RETURN f.id AS id

// name: supersede_fact
MATCH (old:Fact {id: $old_id, user_id: $user_id})
WHERE old.valid_until IS NULL
MATCH (new:Fact {id: $new_id, user_id: $user_id})
SET old.valid_until = coalesce($ended_at, $now), old.superseded_by = $new_id, old.updated_at = $now
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

// name: list_facts
MATCH (f:Fact {user_id: $user_id})
WHERE f.channel IN $channels AND (f.valid_until IS NULL OR $include_history)
WITH f
ORDER BY f.created_at DESC
SKIP $offset
LIMIT $limit
RETURN f.id AS id
