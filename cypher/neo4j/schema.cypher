// Neo4j 5.26 schema: idempotent (IF NOT EXISTS). {dimension} is the locked embedding dimension.

// name: schema_user_id
CREATE CONSTRAINT user_id IF NOT EXISTS FOR (n:User) REQUIRE n.id IS UNIQUE
// name: schema_conversation_id
CREATE CONSTRAINT conversation_id IF NOT EXISTS FOR (n:Conversation) REQUIRE n.id IS UNIQUE
// name: schema_turn_id
CREATE CONSTRAINT turn_id IF NOT EXISTS FOR (n:Turn) REQUIRE n.id IS UNIQUE
// name: schema_entity_id
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.id IS UNIQUE
// name: schema_fact_id
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE
// name: schema_goal_id
CREATE CONSTRAINT goal_id IF NOT EXISTS FOR (n:Goal) REQUIRE n.id IS UNIQUE
// name: schema_strategy_id
CREATE CONSTRAINT strategy_id IF NOT EXISTS FOR (n:Strategy) REQUIRE n.id IS UNIQUE
// name: schema_tool_key
CREATE CONSTRAINT tool_key IF NOT EXISTS FOR (n:Tool) REQUIRE n.key IS UNIQUE
// name: schema_toolinvocation_id
CREATE CONSTRAINT toolinvocation_id IF NOT EXISTS FOR (n:ToolInvocation) REQUIRE n.id IS UNIQUE
// name: schema_fact_promotion
// One _global copy per promoted fact even under concurrent promotions (FalkorDB serialises writes).
CREATE CONSTRAINT fact_promotion IF NOT EXISTS FOR (n:Fact) REQUIRE (n.user_id, n.promoted_from) IS UNIQUE
// name: schema_turn_user
CREATE INDEX turn_user IF NOT EXISTS FOR (n:Turn) ON (n.user_id, n.conversation_id)
// name: schema_turn_position
CREATE INDEX turn_position IF NOT EXISTS FOR (n:Turn) ON (n.conversation_id, n.turn_index)
// name: schema_entity_user
CREATE INDEX entity_user IF NOT EXISTS FOR (n:Entity) ON (n.user_id, n.name)
// name: schema_fact_user
CREATE INDEX fact_user IF NOT EXISTS FOR (n:Fact) ON (n.user_id)
// name: schema_vector_entity
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: {dimension}, `vector.similarity_function`: 'cosine'}}
// name: schema_vector_fact
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: {dimension}, `vector.similarity_function`: 'cosine'}}
// name: schema_vector_strategy
CREATE VECTOR INDEX strategy_embedding IF NOT EXISTS FOR (n:Strategy) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: {dimension}, `vector.similarity_function`: 'cosine'}}
// name: schema_vector_goal
CREATE VECTOR INDEX goal_embedding IF NOT EXISTS FOR (n:Goal) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: {dimension}, `vector.similarity_function`: 'cosine'}}
// name: schema_fulltext_fact
CREATE FULLTEXT INDEX fact_claim IF NOT EXISTS FOR (n:Fact) ON EACH [n.claim]
// name: schema_fulltext_entity
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (n:Entity) ON EACH [n.name, n.aliases_text]
// Turns are searched in the ledger (vector and BM25): graphs made before that lose their Turn indexes.
// name: schema_drop_vector_turn
DROP INDEX turn_embedding IF EXISTS
// name: schema_drop_fulltext_turn
DROP INDEX turn_content IF EXISTS
