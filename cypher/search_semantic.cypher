// Vector search over Entity and Fact, shared by the dialects: {{vector_query L}}, {{ann_cosine}} and
// {{exact_cosine}} are filled from cypher/<dialect>/fragments.cypher (each backend's index procedure and
// its score turned into a plain cosine). The user/channel filter runs after the ANN top-k, so the adapter
// oversamples $k and falls back to the exact scan when the filter leaves too few rows. Facts: current
// only. (Turns are searched in the ledger: recall.sql.)

// name: vector_search_entity
{{vector_query Entity}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
             .access_count, .created_at, .updated_at, .first_seen} AS item, {{ann_cosine}} AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_entity
MATCH (node:Entity {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, {{exact_cosine}} AS similarity
RETURN node {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
             .access_count, .created_at, .updated_at, .first_seen} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit

// name: vector_search_fact
{{vector_query Fact}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.valid_until IS NULL
RETURN node {{{fact_fields}}} AS item, {{ann_cosine}} AS similarity
ORDER BY similarity DESC
LIMIT $limit

// name: exact_search_fact
MATCH (node:Fact {user_id: $user_id})
WHERE node.channel IN $channels AND node.valid_until IS NULL AND node.embedding IS NOT NULL
WITH node, {{exact_cosine}} AS similarity
RETURN node {{{fact_fields}}} AS item, similarity
ORDER BY similarity DESC
LIMIT $limit

// Full-text over Entity.name and Entity.aliases_text. $text is built by fulltext_terms (lowercase word
// characters only, so it carries no query-syntax operator in either RediSearch or Lucene).

// name: fulltext_search_entity
{{fulltext_query Entity name}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
RETURN node {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
             .access_count, .created_at, .updated_at, .first_seen} AS item, score
ORDER BY score DESC
LIMIT $limit

// Full-text over Fact.claim, current facts only. $text joins plain words with "|" (any of them).

// name: fulltext_search_fact
{{fulltext_query Fact claim}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.valid_until IS NULL
RETURN node {.id, .channel, .claim} AS item, score
ORDER BY score DESC
LIMIT $limit
