// Statements about the whole database, never about one user: the adapter runs them itself (the graph
// port's run() refuses admin_* names), each in an auto-commit transaction.

// A reindex to another embedding dimension drops the vector indexes (apply_schema creates them with
// the new dimension; CREATE … IF NOT EXISTS would keep the old one).
// name: admin_drop_vector_entity
DROP INDEX entity_embedding IF EXISTS

// name: admin_drop_vector_fact
DROP INDEX fact_embedding IF EXISTS

// name: admin_drop_vector_strategy
DROP INDEX strategy_embedding IF EXISTS

// name: admin_drop_vector_goal
DROP INDEX goal_embedding IF EXISTS

// name: admin_drop_graph
// CALL {…} IN TRANSACTIONS deletes in batches (a single transaction would hold every node in memory);
// Neo4j accepts it only in an auto-commit transaction (session.run), not through execute_query.
MATCH (n)
CALL { WITH n DETACH DELETE n } IN TRANSACTIONS
