// One round trip for every graph kind a recall searches. Each branch is one technique on one
// label, tagged by `source`; the full-text branches run only for a non-empty $text (Lucene refuses an
// empty query). Per label either the shared ANN index ($ann) or an exact scan of the user's own nodes
// ($exact) runs, chosen by the adapter: the exact scan is exact and, for a few
// hundred nodes, as cheap; the ANN's top-$k counts other users' nodes and the index's tombstones
// (every property update re-indexes a node), so it can come back short. The `*.seen` branches count
// the user's nodes of the labels in $count (every label now and then, see the adapter), which is how
// the adapter chooses next time and knows when an ANN came back short; OPTIONAL MATCH so that a
// label with no node of the user's counts 0 instead of returning no row.
// Separate statements cost ~1 ms each in client overhead and re-send the 384-float vector every time.
// Facts come back as ids: the retriever fills the best ones. Scores are cosines on both backends.
// Every branch sorts and cuts to $limit before it projects the node's properties: projecting first
// built a map for every node a scan visits and threw all but $limit away (on the recall benchmark at
// 20k turns, 251 entities scanned exactly: 3.4 -> 2.7 ms of FalkorDB time per statement).

// name: recall_candidates
UNWIND [label IN $ann WHERE label = 'Fact'] AS go
{{vector_query Fact}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.valid_until IS NULL
WITH node, {{ann_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Fact.vector' AS source, node {.id} AS item, score
UNION ALL
UNWIND [label IN $exact WHERE label = 'Fact'] AS go
MATCH (node:Fact {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL AND node.valid_until IS NULL
WITH node, {{exact_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Fact.vector' AS source, node {.id} AS item, score
UNION ALL
UNWIND CASE WHEN $text = '' THEN [] ELSE [1] END AS go
{{fulltext_query Fact claim}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.valid_until IS NULL
WITH node, score
ORDER BY score DESC
LIMIT $limit
RETURN 'Fact.fulltext' AS source, node {.id} AS item, score
UNION ALL
UNWIND [label IN $ann WHERE label = 'Entity'] AS go
{{vector_query Entity}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
WITH node, {{ann_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Entity.vector' AS source, node {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
             .access_count, .created_at, .updated_at, .first_seen} AS item, score
UNION ALL
UNWIND [label IN $exact WHERE label = 'Entity'] AS go
MATCH (node:Entity {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL
WITH node, {{exact_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Entity.vector' AS source, node {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
             .access_count, .created_at, .updated_at, .first_seen} AS item, score
UNION ALL
UNWIND CASE WHEN $text = '' THEN [] ELSE [1] END AS go
{{fulltext_query Entity name}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels
WITH node, score
ORDER BY score DESC
LIMIT $limit
RETURN 'Entity.fulltext' AS source, node {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
             .access_count, .created_at, .updated_at, .first_seen} AS item, score
UNION ALL
UNWIND [label IN $ann WHERE label = 'Strategy'] AS go
{{vector_query Strategy}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND coalesce(node.status, 'published') = 'published'
WITH node, {{ann_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Strategy.vector' AS source, node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when} AS item, score
UNION ALL
UNWIND [label IN $exact WHERE label = 'Strategy'] AS go
MATCH (node:Strategy {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL AND coalesce(node.status, 'published') = 'published'
WITH node, {{exact_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Strategy.vector' AS source, node {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
             .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when} AS item, score
UNION ALL
UNWIND [label IN $ann WHERE label = 'Goal'] AS go
{{vector_query Goal}}
WITH node, score
WHERE node.user_id = $user_id AND node.channel IN $channels AND node.status IN ['active', 'blocked']
WITH node, {{ann_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Goal.vector' AS source, node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item, score
UNION ALL
UNWIND [label IN $exact WHERE label = 'Goal'] AS go
MATCH (node:Goal {user_id: $user_id})
WHERE node.channel IN $channels AND node.embedding IS NOT NULL AND node.status IN ['active', 'blocked']
WITH node, {{exact_cosine}} AS score
ORDER BY score DESC
LIMIT $limit
RETURN 'Goal.vector' AS source, node {.id, .user_id, .channel, .description, .priority, .status, .created_at, .deadline} AS item, score
UNION ALL
UNWIND [label IN $count WHERE label = 'Fact'] AS go
OPTIONAL MATCH (node:Fact {user_id: $user_id})
WHERE node.channel IN $channels AND node.valid_until IS NULL
WITH go, count(node) AS seen
RETURN 'Fact.seen' AS source, null AS item, toFloat(seen) AS score
UNION ALL
UNWIND [label IN $count WHERE label = 'Entity'] AS go
OPTIONAL MATCH (node:Entity {user_id: $user_id})
WHERE node.channel IN $channels
WITH go, count(node) AS seen
RETURN 'Entity.seen' AS source, null AS item, toFloat(seen) AS score
UNION ALL
UNWIND [label IN $count WHERE label = 'Strategy'] AS go
OPTIONAL MATCH (node:Strategy {user_id: $user_id})
WHERE node.channel IN $channels
WITH go, count(node) AS seen
RETURN 'Strategy.seen' AS source, null AS item, toFloat(seen) AS score
UNION ALL
UNWIND [label IN $count WHERE label = 'Goal'] AS go
OPTIONAL MATCH (node:Goal {user_id: $user_id})
WHERE node.channel IN $channels AND node.status IN ['active', 'blocked']
WITH go, count(node) AS seen
RETURN 'Goal.seen' AS source, null AS item, toFloat(seen) AS score
