// Vector search over goals that are still open (active or blocked); same fragments and fallback as
// search_semantic.cypher.

// name: vector_search_goal
{{vector_query Goal}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.status IN ['active', 'blocked']
RETURN node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item,
       {{ann_cosine}} AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_goal
MATCH (node:Goal {user_id: $user_id})
WHERE node.channel IN $channels AND node.status IN ['active', 'blocked'] AND node.embedding IS NOT NULL
WITH node, {{exact_cosine}} AS similarity
RETURN node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item,
       similarity
ORDER BY similarity DESC
LIMIT $limit
