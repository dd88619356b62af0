// Vector search, shared by the dialects: {{vector_query L}}, {{ann_cosine}} and {{exact_cosine}} are
// filled from cypher/<dialect>/fragments.cypher (each backend's index procedure and its score turned
// into a plain cosine). The user/channel filter runs after the ANN top-k, so the adapter oversamples
// $k and falls back to the exact scan below when the filter leaves too few rows.

// name: vector_search_turn
{{vector_query Turn}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
             .content_hash, .metadata} AS item, {{ann_cosine}} AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_turn
MATCH (node:Turn {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, {{exact_cosine}} AS similarity
RETURN node {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
             .content_hash, .metadata} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit
