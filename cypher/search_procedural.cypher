// Vector search over strategies; same fragments and fallback as search_semantic.cypher.

// name: vector_search_strategy
{{vector_query Strategy}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND coalesce(node.status, 'published') = 'published'
RETURN node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when} AS item,
       {{ann_cosine}} AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_strategy
MATCH (node:Strategy {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL AND coalesce(node.status, 'published') = 'published'
WITH node, {{exact_cosine}} AS similarity
RETURN node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit
