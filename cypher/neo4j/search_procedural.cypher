// Neo4j vector search over strategies; same conversion and fallback as search.cypher (queryNodes gives
// (1 + cos) / 2, so cosine = 2s - 1).

// name: vector_search_strategy
CALL db.index.vector.queryNodes('strategy_embedding', $k, $vector) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at} AS item,
       2.0 * score - 1.0 AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_strategy
MATCH (node:Strategy {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, 2.0 * vector.similarity.cosine(node.embedding, $vector) - 1.0 AS similarity
RETURN node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit
