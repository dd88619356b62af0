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
