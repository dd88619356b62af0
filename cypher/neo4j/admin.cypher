// Statements about the whole database, never about one user: the adapter runs them itself (the graph
// port's run() refuses admin_* names), each in an auto-commit transaction.

// name: admin_drop_graph
// CALL {…} IN TRANSACTIONS deletes in batches (a single transaction would hold every node in memory);
// Neo4j accepts it only in an auto-commit transaction (session.run), not through execute_query.
MATCH (n)
CALL { WITH n DETACH DELETE n } IN TRANSACTIONS
