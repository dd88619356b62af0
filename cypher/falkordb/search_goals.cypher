// FalkorDB vector search over goals that are still open (active or blocked); same conversion and
// fallback as search.cypher (similarity = 1 - cosine distance).

// name: vector_search_goal
CALL db.idx.vector.queryNodes('Goal', 'embedding', $k, vecf32($vector)) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.status IN ['active', 'blocked']
RETURN node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item,
       1.0 - score AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_goal
MATCH (node:Goal {user_id: $user_id})
WHERE node.channel IN $channels AND node.status IN ['active', 'blocked'] AND node.embedding IS NOT NULL
WITH node, 1.0 - vec.cosineDistance(node.embedding, vecf32($vector)) AS similarity
RETURN node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item,
       similarity
ORDER BY similarity DESC
LIMIT $limit
