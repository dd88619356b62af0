// Portability (export / import of one user, memory/portability_async.py). Shared by every backend.
// Export reads every node and relationship of the user as plain property maps; import recreates the
// ones the store lacks (the caller diffs against an export first, so a second import writes nothing).
// Labels and relationship types are never parameters: one import statement per label and per
// (label)-[TYPE]->(label) triple that the subsystems write (memory/portability_pure.py lists them).

// name: export_nodes
// A page of the user's nodes; Tool nodes are keyed by `key` (user id + name), every other by `id`.
MATCH (n {user_id: $user_id})
WITH n, labels(n)[0] AS label, coalesce(n.id, n.key) AS key
ORDER BY label, key
SKIP $offset
LIMIT $limit
RETURN label, properties(n) AS props

// name: export_node_keys
// The keys of a page of the user's nodes (an import diffs against them).
MATCH (n {user_id: $user_id})
WITH labels(n)[0] AS label, coalesce(n.id, n.key) AS key
ORDER BY label, key
SKIP $offset
LIMIT $limit
RETURN label, key

// name: export_edges
// A page of the relationships between the user's nodes (never to another user's node).
MATCH (a {user_id: $user_id})-[r]->(b {user_id: $user_id})
WITH labels(a)[0] AS source_label, coalesce(a.id, a.key) AS source_key, type(r) AS rel,
     labels(b)[0] AS target_label, coalesce(b.id, b.key) AS target_key, properties(r) AS props
ORDER BY source_label, source_key, rel, target_label, target_key
SKIP $offset
LIMIT $limit
RETURN source_label, source_key, rel, target_label, target_key, props

// An import checks first that none of its node keys belongs to another user: the keys are unique
// across users, so creating such a node would fail half-way through (and must never touch theirs).
// name: foreign_nodes_user
MATCH (n:User) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_conversation
MATCH (n:Conversation) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_turn
MATCH (n:Turn) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_toolinvocation
MATCH (n:ToolInvocation) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_tool
MATCH (n:Tool) WHERE n.key IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_entity
MATCH (n:Entity) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_fact
MATCH (n:Fact) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_goal
MATCH (n:Goal) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: foreign_nodes_strategy
MATCH (n:Strategy) WHERE n.id IN $keys AND n.user_id <> $user_id
RETURN count(n) AS foreign

// name: import_nodes_user
UNWIND $rows AS row
CREATE (n:User)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_conversation
UNWIND $rows AS row
CREATE (n:Conversation)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_turn
UNWIND $rows AS row
CREATE (n:Turn)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_toolinvocation
UNWIND $rows AS row
CREATE (n:ToolInvocation)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_tool
UNWIND $rows AS row
CREATE (n:Tool)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_entity
UNWIND $rows AS row
CREATE (n:Entity)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_fact
UNWIND $rows AS row
CREATE (n:Fact)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_goal
UNWIND $rows AS row
CREATE (n:Goal)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_nodes_strategy
UNWIND $rows AS row
CREATE (n:Strategy)
SET n += row.props, n.user_id = $user_id
FOREACH (v IN CASE WHEN row.embedding IS NULL THEN [] ELSE [row.embedding] END | SET n.embedding = vecf32(v))
RETURN count(n) AS created

// name: import_edges_user_has_conversation_conversation
UNWIND $rows AS row
MATCH (a:User {id: row.source, user_id: $user_id})
MATCH (b:Conversation {id: row.target, user_id: $user_id})
CREATE (a)-[r:HAS_CONVERSATION]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_user_has_goal_goal
UNWIND $rows AS row
MATCH (a:User {id: row.source, user_id: $user_id})
MATCH (b:Goal {id: row.target, user_id: $user_id})
CREATE (a)-[r:HAS_GOAL]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_conversation_has_turn_turn
UNWIND $rows AS row
MATCH (a:Conversation {id: row.source, user_id: $user_id})
MATCH (b:Turn {id: row.target, user_id: $user_id})
CREATE (a)-[r:HAS_TURN]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_conversation_used_tool_toolinvocation
UNWIND $rows AS row
MATCH (a:Conversation {id: row.source, user_id: $user_id})
MATCH (b:ToolInvocation {id: row.target, user_id: $user_id})
CREATE (a)-[r:USED_TOOL]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_turn_followed_by_turn
UNWIND $rows AS row
MATCH (a:Turn {id: row.source, user_id: $user_id})
MATCH (b:Turn {id: row.target, user_id: $user_id})
CREATE (a)-[r:FOLLOWED_BY]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_turn_mentions_entity
UNWIND $rows AS row
MATCH (a:Turn {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:MENTIONS]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_toolinvocation_invoked_tool
UNWIND $rows AS row
MATCH (a:ToolInvocation {id: row.source, user_id: $user_id})
MATCH (b:Tool {key: row.target, user_id: $user_id})
CREATE (a)-[r:INVOKED]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_fact_about_entity
UNWIND $rows AS row
MATCH (a:Fact {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:ABOUT]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_fact_derived_from_turn
UNWIND $rows AS row
MATCH (a:Fact {id: row.source, user_id: $user_id})
MATCH (b:Turn {id: row.target, user_id: $user_id})
CREATE (a)-[r:DERIVED_FROM]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_fact_supersedes_fact
UNWIND $rows AS row
MATCH (a:Fact {id: row.source, user_id: $user_id})
MATCH (b:Fact {id: row.target, user_id: $user_id})
CREATE (a)-[r:SUPERSEDES]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_fact_contradicts_fact
UNWIND $rows AS row
MATCH (a:Fact {id: row.source, user_id: $user_id})
MATCH (b:Fact {id: row.target, user_id: $user_id})
CREATE (a)-[r:CONTRADICTS]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_fact_promoted_from_fact
UNWIND $rows AS row
MATCH (a:Fact {id: row.source, user_id: $user_id})
MATCH (b:Fact {id: row.target, user_id: $user_id})
CREATE (a)-[r:PROMOTED_FROM]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_goal_subgoal_of_goal
UNWIND $rows AS row
MATCH (a:Goal {id: row.source, user_id: $user_id})
MATCH (b:Goal {id: row.target, user_id: $user_id})
CREATE (a)-[r:SUBGOAL_OF]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_goal_blocked_by_goal
UNWIND $rows AS row
MATCH (a:Goal {id: row.source, user_id: $user_id})
MATCH (b:Goal {id: row.target, user_id: $user_id})
CREATE (a)-[r:BLOCKED_BY]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_strategy_uses_tool_tool
UNWIND $rows AS row
MATCH (a:Strategy {id: row.source, user_id: $user_id})
MATCH (b:Tool {key: row.target, user_id: $user_id})
CREATE (a)-[r:USES_TOOL]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_strategy_succeeded_in_conversation
UNWIND $rows AS row
MATCH (a:Strategy {id: row.source, user_id: $user_id})
MATCH (b:Conversation {id: row.target, user_id: $user_id})
CREATE (a)-[r:SUCCEEDED_IN]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_same_as_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:SAME_AS]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_related_to_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:RELATED_TO]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_part_of_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:PART_OF]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_located_in_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:LOCATED_IN]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_works_for_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:WORKS_FOR]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_knows_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:KNOWS]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_created_by_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:CREATED_BY]->(b)
SET r += row.props
RETURN count(r) AS created

// name: import_edges_entity_references_entity
UNWIND $rows AS row
MATCH (a:Entity {id: row.source, user_id: $user_id})
MATCH (b:Entity {id: row.target, user_id: $user_id})
CREATE (a)-[r:REFERENCES]->(b)
SET r += row.props
RETURN count(r) AS created
