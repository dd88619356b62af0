// FalkorDB vector search. queryNodes returns a cosine *distance* (0 = identical): similarity = 1 - d.
// The user/channel filter runs after the ANN top-k, so the adapter oversamples $k and falls back to
// the exact scan below when the filter leaves too few rows.

// name: vector_search_turn
CALL db.idx.vector.queryNodes('Turn', 'embedding', $k, vecf32($vector)) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
             .content_hash, .metadata} AS item, 1.0 - score AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_turn
MATCH (node:Turn {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, 1.0 - vec.cosineDistance(node.embedding, vecf32($vector)) AS similarity
RETURN node {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
             .content_hash, .metadata} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit
