// Semantic memory, entities: resolution look-ups, writes, relationships and neighbourhoods.
// Shared by every backend. Maps (properties) are JSON strings; times are epoch milliseconds.
// alias_keys holds the canonical form (casefolded, whitespace-collapsed) of the name and every alias.

// name: find_entity_by_name
MATCH (e:Entity {user_id: $user_id, type: $type, canonical: $canonical})
WHERE e.channel IN $channels
WITH e
ORDER BY CASE WHEN e.channel = $channel THEN 0 ELSE 1 END, e.created_at
LIMIT 1
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: find_entity_by_alias
MATCH (e:Entity {user_id: $user_id, type: $type})
WHERE e.channel IN $channels AND any(key IN $keys WHERE key IN e.alias_keys)
WITH e
ORDER BY CASE WHEN e.channel = $channel THEN 0 ELSE 1 END, e.created_at
LIMIT 1
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: find_entity_any_type
// The look-alikes, exact names and the active channel first; the caller breaks ties by mention count,
// which is kept in the ledger (memory_access) rather than on the vector-indexed node.
MATCH (e:Entity {user_id: $user_id})
WHERE e.channel IN $channels AND $key IN e.alias_keys
WITH e, CASE WHEN e.canonical = $key THEN 0 ELSE 1 END AS exact,
     CASE WHEN e.channel = $channel THEN 0 ELSE 1 END AS here
ORDER BY exact, here, e.created_at
LIMIT $limit
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item, exact, here

// name: create_entity
CREATE (e:Entity {id: $id, user_id: $user_id, channel: $channel, name: $name, type: $type,
    canonical: $canonical, aliases: $aliases, alias_keys: $alias_keys, aliases_text: $aliases_text,
    description: $description, properties: $properties, mention_count: 1, created_at: $now,
    updated_at: $now, embedding: vecf32($embedding)})
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: merge_entity
// Only when a mention adds something (memory/entities_pure.merged_entity): each write re-indexes the
// node's vector. Mention and access counts go to the ledger (memory_access), never here.
MATCH (e:Entity {id: $id, user_id: $user_id})
SET e.aliases = $aliases, e.alias_keys = $alias_keys, e.aliases_text = $aliases_text,
    e.description = $description, e.properties = $properties, e.updated_at = $now
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: link_same_as_candidate
MATCH (a:Entity {id: $id, user_id: $user_id})
MATCH (b:Entity {id: $other_id, user_id: $user_id})
MERGE (a)-[r:SAME_AS]->(b)
SET r.status = 'candidate', r.score = $score, r.created_at = $now
RETURN b.id AS id

// name: get_entities
MATCH (e:Entity {user_id: $user_id})
WHERE e.id IN $ids AND e.channel IN $channels
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: same_as_candidates
MATCH (a:Entity {id: $id, user_id: $user_id})-[r:SAME_AS]->(b:Entity {user_id: $user_id})
RETURN b.id AS id, r.status AS status, r.score AS score
LIMIT $limit

// One statement per relationship type: types are never built from input (memory/entities_async.py
// maps the allow-list to these names).

// name: relate_related_to
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:RELATED_TO]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// name: relate_part_of
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:PART_OF]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// name: relate_located_in
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:LOCATED_IN]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// name: relate_works_for
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:WORKS_FOR]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// name: relate_knows
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:KNOWS]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// name: relate_created_by
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:CREATED_BY]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// name: relate_references
MATCH (a:Entity {id: $source_id, user_id: $user_id})
WHERE a.channel IN $channels
MATCH (b:Entity {id: $target_id, user_id: $user_id})
WHERE b.channel IN $channels
MERGE (a)-[r:REFERENCES]->(b)
ON CREATE SET r.created_at = $now, r.user_id = $user_id, r.channel = $channel
SET r.properties = $properties, r.updated_at = $now
RETURN a.id AS source_id, b.id AS target_id

// Neighbourhoods: variable-length bounds cannot be parameters, hence one statement per depth (<= 3).

// name: entity_graph_depth_1
MATCH (start:Entity {user_id: $user_id})
WHERE start.id IN $ids AND start.channel IN $channels
MATCH (start)-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS*0..1]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
WITH DISTINCT n
LIMIT $limit
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: entity_graph_depth_2
MATCH (start:Entity {user_id: $user_id})
WHERE start.id IN $ids AND start.channel IN $channels
MATCH (start)-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS*0..2]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
WITH DISTINCT n
LIMIT $limit
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: entity_graph_depth_3
MATCH (start:Entity {user_id: $user_id})
WHERE start.id IN $ids AND start.channel IN $channels
MATCH (start)-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS*0..3]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
WITH DISTINCT n
LIMIT $limit
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item

// name: entity_graph_edges
MATCH (a:Entity {user_id: $user_id})-[r:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS]->(b:Entity {user_id: $user_id})
WHERE a.id IN $ids AND b.id IN $ids
RETURN a.id AS source_id, b.id AS target_id, type(r) AS type, r.properties AS properties,
       r.status AS status, r.score AS score
LIMIT $limit

// name: entity_neighbours_out
MATCH (e:Entity {id: $id, user_id: $user_id})-[r:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS]->(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item, type(r) AS type
LIMIT $limit

// name: entity_neighbours_in
MATCH (e:Entity {id: $id, user_id: $user_id})<-[r:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at} AS item, type(r) AS type
LIMIT $limit

// name: entity_turns
// Starts from the entity (by id; WITH keeps the planner there): from the turn side, FalkorDB scanned
// every turn of the user (35 ms at 20k turns) before following MENTIONS.
MATCH (e:Entity {id: $id, user_id: $user_id})
WITH e
MATCH (e)<-[:MENTIONS]-(t:Turn)
WHERE t.user_id = $user_id AND t.channel IN $channels
WITH t
ORDER BY t.timestamp DESC
LIMIT $limit
RETURN t {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
          .content_hash, .metadata} AS item
