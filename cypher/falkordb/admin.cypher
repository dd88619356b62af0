// Statements about the whole database, never about one user: the adapter runs them itself (the graph
// port's run() refuses admin_* names). They serve vector-index compaction: FalkorDB 4.16 leaves a stale
// HNSW entry behind on every write to a node with a vector (FalkorDB#2197), and dropping and creating
// a label's vector index rebuilds it from the live nodes (schema_vector_<label> creates it again).

// name: admin_vector_indexes
CALL db.indexes() YIELD label, types, options, info, status
RETURN label, types, options, info, status

// name: admin_drop_vector_entity
DROP VECTOR INDEX FOR (n:Entity) ON (n.embedding)

// name: admin_drop_vector_fact
DROP VECTOR INDEX FOR (n:Fact) ON (n.embedding)

// name: admin_drop_vector_strategy
DROP VECTOR INDEX FOR (n:Strategy) ON (n.embedding)

// name: admin_drop_vector_goal
DROP VECTOR INDEX FOR (n:Goal) ON (n.embedding)
