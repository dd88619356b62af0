// Neo4j vector search over goals that are still open (active or blocked); same conversion and fallback
// as search.cypher (queryNodes gives (1 + cos) / 2, so cosine = 2s - 1).

// name: vector_search_goal
CALL db.index.vector.queryNodes('goal_embedding', $k, $vector) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.status IN ['active', 'blocked']
RETURN node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item,
       2.0 * score - 1.0 AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_goal
MATCH (node:Goal {user_id: $user_id})
WHERE node.channel IN $channels AND node.status IN ['active', 'blocked'] AND node.embedding IS NOT NULL
WITH node, 2.0 * vector.similarity.cosine(node.embedding, $vector) - 1.0 AS similarity
RETURN node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item,
       similarity
ORDER BY similarity DESC
LIMIT $limit
