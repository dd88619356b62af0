// Episodic memory: users, conversations, turns and the FOLLOWED_BY chain. Shared by every backend.
// Times are epoch milliseconds (FalkorDB has no datetime type); metadata is a JSON string.

// name: ensure_conversation
MERGE (u:User {id: $user_id})
ON CREATE SET u.user_id = $user_id, u.created_at = $created_at
MERGE (c:Conversation {id: $conversation_id, user_id: $user_id})
ON CREATE SET c.channel = $channel, c.title = $title, c.created_at = $created_at
MERGE (u)-[:HAS_CONVERSATION]->(c)
RETURN c.id AS id

// name: create_turn
// The turn carries no vector and has no vector or full-text index: turns are searched in the ledger.
// (An inline CREATE behind OPTIONAL MATCH instead of MERGE … ON CREATE SET measured no faster once
// those indexes were gone: README, "Bulk ingest throughput".)
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
MERGE (t:Turn {id: $id, user_id: $user_id})
ON CREATE SET t.channel = $channel, t.conversation_id = $conversation_id,
              t.turn_index = $turn_index, t.role = $role, t.content = $content, t.timestamp = $timestamp,
              t.content_hash = $content_hash, t.metadata = $metadata
MERGE (c)-[:HAS_TURN]->(t)
WITH t
// Neighbours by index lookup (conversation_id, turn_index), not by walking every HAS_TURN edge.
OPTIONAL MATCH (prev:Turn {conversation_id: $conversation_id, user_id: $user_id, turn_index: $turn_index - 1})
OPTIONAL MATCH (next:Turn {conversation_id: $conversation_id, user_id: $user_id, turn_index: $turn_index + 1})
FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | MERGE (p)-[:FOLLOWED_BY]->(t))
FOREACH (n IN CASE WHEN next IS NULL THEN [] ELSE [next] END | MERGE (t)-[:FOLLOWED_BY]->(n))
RETURN t.id AS id

// name: create_turns
// create_turn for a batch of one conversation's turns ($turns: maps with create_turn's per-turn values),
// in one statement. Each chain link is merged once: by the later turn of the pair (prev), or by the
// earlier one when the later is stored already and not in the batch ($indexes: the batch's indexes).
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
UNWIND $turns AS row
MERGE (t:Turn {id: row.id, user_id: $user_id})
ON CREATE SET t.channel = row.channel, t.conversation_id = $conversation_id,
              t.turn_index = row.turn_index, t.role = row.role, t.content = row.content,
              t.timestamp = row.timestamp, t.content_hash = row.content_hash, t.metadata = row.metadata
MERGE (c)-[:HAS_TURN]->(t)
WITH t, row
OPTIONAL MATCH (prev:Turn {conversation_id: $conversation_id, user_id: $user_id, turn_index: row.turn_index - 1})
OPTIONAL MATCH (next:Turn {conversation_id: $conversation_id, user_id: $user_id, turn_index: row.turn_index + 1})
FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | MERGE (p)-[:FOLLOWED_BY]->(t))
FOREACH (n IN CASE WHEN next IS NULL OR (row.turn_index + 1) IN $indexes THEN [] ELSE [next] END |
         MERGE (t)-[:FOLLOWED_BY]->(n))
RETURN t.id AS id

// name: get_conversation_turns
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})-[:HAS_TURN]->(t:Turn)
RETURN t {.id, .conversation_id, .user_id, .channel, .turn_index, .role, .content, .timestamp,
          .content_hash, .metadata} AS item
ORDER BY t.turn_index

// name: get_turn_chain
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})-[:HAS_TURN]->(a:Turn)-[:FOLLOWED_BY]->(b:Turn)
RETURN a.turn_index AS source, b.turn_index AS target
ORDER BY source

// name: count_user_nodes
MATCH (n {user_id: $user_id})
RETURN labels(n)[0] AS label, count(n) AS count
ORDER BY label

// name: delete_user_graph
MATCH (n {user_id: $user_id})
DETACH DELETE n
RETURN count(n) AS deleted

// name: archive_conversation
// The cleanup job's flag; turns stay, and recall still reads them.
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
SET c.archived_at = $now
RETURN c.id AS id
