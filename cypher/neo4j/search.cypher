// Neo4j vector search. queryNodes returns a similarity in [0, 1] = (1 + cos) / 2: cosine = 2s - 1, the
// same scale as the FalkorDB statements. The filter runs after the ANN top-k (see the adapter).

// name: vector_search_turn
CALL db.index.vector.queryNodes('turn_embedding', $k, $vector) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
             .content_hash, .metadata} AS item, 2.0 * score - 1.0 AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_turn
MATCH (node:Turn {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, 2.0 * vector.similarity.cosine(node.embedding, $vector) - 1.0 AS similarity
RETURN node {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
             .content_hash, .metadata} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit
