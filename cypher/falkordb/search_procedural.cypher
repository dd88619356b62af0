// FalkorDB vector search over strategies; same conversion and fallback as search.cypher (similarity =
// 1 - cosine distance).

// name: vector_search_strategy
CALL db.idx.vector.queryNodes('Strategy', 'embedding', $k, vecf32($vector)) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at} AS item,
       1.0 - score AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_strategy
MATCH (node:Strategy {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, 1.0 - vec.cosineDistance(node.embedding, vecf32($vector)) AS similarity
RETURN node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit
