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
// Idempotent (a replay of the same turn id finds the node) but created by one CREATE with every
// property inline: FalkorDB indexes a node made by MERGE … ON CREATE SET twice (once bare, once set).
// The turn carries no vector: turns are searched in the ledger.
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
OPTIONAL MATCH (old:Turn {id: $id, user_id: $user_id})
FOREACH (_ IN CASE WHEN old IS NULL THEN [1] ELSE [] END |
  CREATE (:Turn {id: $id, user_id: $user_id, channel: $channel, conversation_id: $conversation_id,
                 turn_index: $turn_index, role: $role, content: $content, timestamp: $timestamp,
                 content_hash: $content_hash, metadata: $metadata}))
WITH c
MATCH (t:Turn {id: $id, user_id: $user_id})
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
OPTIONAL MATCH (old:Turn {id: row.id, user_id: $user_id})
FOREACH (_ IN CASE WHEN old IS NULL THEN [1] ELSE [] END |
  CREATE (:Turn {id: row.id, user_id: $user_id, channel: row.channel, conversation_id: $conversation_id,
                 turn_index: row.turn_index, role: row.role, content: row.content, timestamp: row.timestamp,
                 content_hash: row.content_hash, metadata: row.metadata}))
WITH c, row
MATCH (t:Turn {id: row.id, user_id: $user_id})
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
