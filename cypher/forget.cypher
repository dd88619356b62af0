// Forgetting: hard deletion from the graph. The ledger is deleted first (it is the source of truth, so
// reconcile can never resurrect what was forgotten); these statements are idempotent for retries.

// name: forget_conversation_graph
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
OPTIONAL MATCH (c)-[:HAS_TURN]->(t:Turn)
OPTIONAL MATCH (c)-[:USED_TOOL]->(i:ToolInvocation)
WITH c, collect(DISTINCT t) AS turns, collect(DISTINCT i) AS invocations
FOREACH (n IN turns | DETACH DELETE n)
FOREACH (n IN invocations | DETACH DELETE n)
DETACH DELETE c
RETURN size(turns) AS turns, size(invocations) AS invocations

// name: forget_turn_graph
MATCH (t:Turn {id: $turn_id, user_id: $user_id})
DETACH DELETE t
RETURN count(t) AS turns

// name: fact_versions
// A fact goes with every version of it: its correction chain (SUPERSEDES) and its promoted copies
// (PROMOTED_FROM), so no earlier or copied claim survives the user's "forget that".
MATCH (f:Fact {id: $fact_id, user_id: $user_id})
OPTIONAL MATCH (f)-[:SUPERSEDES|PROMOTED_FROM*1..50]-(v:Fact {user_id: $user_id})
WITH f, collect(DISTINCT v.id) AS versions
RETURN [f.id] + [id IN versions WHERE id <> f.id] AS ids

// name: forget_facts_graph
UNWIND $fact_ids AS fact_id
MATCH (f:Fact {id: fact_id, user_id: $user_id})
DETACH DELETE f
RETURN count(*) AS deleted
