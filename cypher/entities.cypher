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
          .access_count, .created_at, .updated_at, .first_seen} AS item

// name: find_entity_by_alias
MATCH (e:Entity {user_id: $user_id, type: $type})
WHERE e.channel IN $channels AND any(key IN $keys WHERE key IN e.alias_keys)
WITH e
ORDER BY CASE WHEN e.channel = $channel THEN 0 ELSE 1 END, e.created_at
LIMIT 1
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item

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
          .access_count, .created_at, .updated_at, .first_seen} AS item, exact, here

// name: create_entity
CREATE (e:Entity {id: $id, user_id: $user_id, channel: $channel, name: $name, type: $type,
    canonical: $canonical, aliases: $aliases, alias_keys: $alias_keys, aliases_text: $aliases_text,
    description: $description, properties: $properties, mention_count: 1, created_at: $now,
    updated_at: $now, embedding: vecf32($embedding)})
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item

// name: merge_entity
// Only when a mention adds something (memory/entities_pure.merged_entity): each write re-indexes the
// node's vector. Mention and access counts go to the ledger (memory_access), never here.
MATCH (e:Entity {id: $id, user_id: $user_id})
SET e.aliases = $aliases, e.alias_keys = $alias_keys, e.aliases_text = $aliases_text,
    e.description = $description, e.properties = $properties, e.updated_at = $now
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item

// name: entities_first_seen
// When each entity was first said: its earliest source turn's time (epoch ms). Never moved later, so
// any order of consolidation gives the same time; time windows in recall compare it, not created_at.
UNWIND $seen AS seen
MATCH (e:Entity {id: seen.id, user_id: $user_id})
SET e.first_seen = CASE WHEN e.first_seen IS NULL OR e.first_seen > seen.at THEN seen.at
                        ELSE e.first_seen END
RETURN e.id AS id

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
          .access_count, .created_at, .updated_at, .first_seen} AS item

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
          .access_count, .created_at, .updated_at, .first_seen} AS item

// name: entity_graph_depth_2
MATCH (start:Entity {user_id: $user_id})
WHERE start.id IN $ids AND start.channel IN $channels
MATCH (start)-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS*0..2]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
WITH DISTINCT n
LIMIT $limit
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item

// name: entity_graph_depth_3
MATCH (start:Entity {user_id: $user_id})
WHERE start.id IN $ids AND start.channel IN $channels
MATCH (start)-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS*0..3]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
WITH DISTINCT n
LIMIT $limit
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item

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
          .access_count, .created_at, .updated_at, .first_seen} AS item, type(r) AS type
LIMIT $limit

// name: entity_neighbours_in
MATCH (e:Entity {id: $id, user_id: $user_id})<-[r:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS]-(n:Entity {user_id: $user_id})
WHERE n.channel IN $channels
RETURN n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item, type(r) AS type
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

// -- resolve_entities job (maintenance/resolve_entities_async.py) ---------------------------------------
// Added for the job; statements above are unchanged. Every statement matches both ends by user_id.

// name: same_as_to_review
// One user's SAME_AS links still at status 'candidate', oldest first, with what the last review saw.
MATCH (a:Entity {user_id: $user_id})-[r:SAME_AS]->(b:Entity {user_id: $user_id})
WHERE coalesce(r.status, 'candidate') = 'candidate'
RETURN a.id AS id, b.id AS other_id, r.score AS score, r.created_at AS created_at,
       r.evidence AS evidence, r.reviewed_at AS reviewed_at
ORDER BY r.created_at, a.id, b.id
LIMIT $limit

// name: resolution_evidence
// What a SAME_AS review weighs for one entity: its alias keys, its current facts (ids and claims) and
// its neighbours over the typed relationships (SAME_AS left out).
MATCH (e:Entity {id: $id, user_id: $user_id})
OPTIONAL MATCH (f:Fact {user_id: $user_id})-[:ABOUT]->(e)
WHERE f.valid_until IS NULL
WITH e, collect(DISTINCT f.id) AS fact_ids, collect(DISTINCT f.claim) AS claims
OPTIONAL MATCH (e)-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES]-(n:Entity {user_id: $user_id})
RETURN e {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item,
       e.alias_keys AS alias_keys, fact_ids, claims, collect(DISTINCT n.id) AS neighbours

// name: review_same_as
// A reviewed candidate: kept (status stays 'candidate') or dismissed, with what the review saw.
MATCH (a:Entity {id: $id, user_id: $user_id})-[r:SAME_AS]->(b:Entity {id: $other_id, user_id: $user_id})
SET r.status = $status, r.reviewed_at = $now, r.evidence = $evidence, r.review_score = $review_score
RETURN a.id AS id

// name: merge_move_about
// A merge moves the loser's facts onto the winner (MERGE: a fact about both keeps one edge).
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (f:Fact {user_id: $user_id})-[:ABOUT]->(l)
MERGE (f)-[:ABOUT]->(w)
RETURN count(f) AS moved

// name: merge_move_mentions
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (t:Turn {user_id: $user_id})-[:MENTIONS]->(l)
MERGE (t)-[:MENTIONS]->(w)
RETURN count(t) AS moved

// name: merge_move_related_to_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:RELATED_TO]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:RELATED_TO]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_related_to_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:RELATED_TO]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:RELATED_TO]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_part_of_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:PART_OF]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:PART_OF]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_part_of_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:PART_OF]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:PART_OF]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_located_in_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:LOCATED_IN]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:LOCATED_IN]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_located_in_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:LOCATED_IN]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:LOCATED_IN]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_works_for_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:WORKS_FOR]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:WORKS_FOR]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_works_for_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:WORKS_FOR]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:WORKS_FOR]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_knows_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:KNOWS]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:KNOWS]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_knows_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:KNOWS]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:KNOWS]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_created_by_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:CREATED_BY]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:CREATED_BY]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_created_by_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:CREATED_BY]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:CREATED_BY]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_references_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:REFERENCES]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:REFERENCES]->(x)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_references_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:REFERENCES]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:REFERENCES]->(w)
ON CREATE SET n.created_at = r.created_at, n.updated_at = r.updated_at, n.user_id = r.user_id, n.channel = r.channel, n.properties = r.properties
RETURN count(x) AS moved

// name: merge_move_same_as_out
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (l)-[r:SAME_AS]->(x:Entity {user_id: $user_id})
WHERE x.id <> $winner_id
MERGE (w)-[n:SAME_AS]->(x)
ON CREATE SET n.created_at = r.created_at, n.status = r.status, n.score = r.score
RETURN count(x) AS moved

// name: merge_move_same_as_in
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
MATCH (x:Entity {user_id: $user_id})-[r:SAME_AS]->(l)
WHERE x.id <> $winner_id
MERGE (x)-[n:SAME_AS]->(w)
ON CREATE SET n.created_at = r.created_at, n.status = r.status, n.score = r.score
RETURN count(x) AS moved

// name: delete_merged_entity
// Last step of a merge, once everything hanging off the loser has been moved onto the winner.
MATCH (l:Entity {id: $loser_id, user_id: $user_id})
MATCH (w:Entity {id: $winner_id, user_id: $user_id})
WITH l, l.id AS id
DETACH DELETE l
RETURN id
