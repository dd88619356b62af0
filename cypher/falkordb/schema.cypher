// FalkorDB schema. Unique constraints need a range index first and are created by the adapter with
// GRAPH.CONSTRAINT CREATE (stores/schema.py UNIQUE_KEYS). Vector indexes take no name and no IF NOT
// EXISTS: the adapter ignores "already indexed". {dimension} is the locked embedding dimension.

// name: schema_user_id
CREATE INDEX FOR (n:User) ON (n.id)
// name: schema_conversation_id
CREATE INDEX FOR (n:Conversation) ON (n.id, n.user_id)
// name: schema_turn_id
CREATE INDEX FOR (n:Turn) ON (n.id, n.user_id, n.conversation_id, n.turn_index)
// name: schema_entity_id
CREATE INDEX FOR (n:Entity) ON (n.id, n.user_id, n.name)
// name: schema_fact_id
CREATE INDEX FOR (n:Fact) ON (n.id, n.user_id)
// name: schema_goal_id
CREATE INDEX FOR (n:Goal) ON (n.id, n.user_id)
// name: schema_strategy_id
CREATE INDEX FOR (n:Strategy) ON (n.id, n.user_id)
// name: schema_tool_key
CREATE INDEX FOR (n:Tool) ON (n.key, n.user_id)
// name: schema_toolinvocation_id
CREATE INDEX FOR (n:ToolInvocation) ON (n.id, n.user_id)
// name: schema_vector_entity
CREATE VECTOR INDEX FOR (n:Entity) ON (n.embedding) OPTIONS {dimension: {dimension}, similarityFunction: 'cosine'}
// name: schema_vector_fact
CREATE VECTOR INDEX FOR (n:Fact) ON (n.embedding) OPTIONS {dimension: {dimension}, similarityFunction: 'cosine'}
// name: schema_vector_strategy
CREATE VECTOR INDEX FOR (n:Strategy) ON (n.embedding) OPTIONS {dimension: {dimension}, similarityFunction: 'cosine'}
// name: schema_vector_goal
CREATE VECTOR INDEX FOR (n:Goal) ON (n.embedding) OPTIONS {dimension: {dimension}, similarityFunction: 'cosine'}
// name: schema_fulltext_fact
CALL db.idx.fulltext.createNodeIndex('Fact', 'claim')
// name: schema_fulltext_entity
CALL db.idx.fulltext.createNodeIndex('Entity', 'name', 'aliases_text')
// Turns are searched in the ledger (vector and BM25): graphs made before that lose their Turn vector and
// full-text indexes, which cost every stored turn about half its graph write (the adapter ignores "no
// such index" once they are gone).
// name: schema_drop_vector_turn
DROP VECTOR INDEX FOR (n:Turn) ON (n.embedding)
// name: schema_drop_fulltext_turn
CALL db.idx.fulltext.drop('Turn')
