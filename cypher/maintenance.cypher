// Census counts across users for the metrics: numbers only, never a user's data (the census_ prefix is
// the graph store's allowance for a statement without user_id).

// name: census_nodes_by_label
MATCH (n)
RETURN labels(n)[0] AS label, count(n) AS count

// name: census_relationships_by_type
MATCH ()-[r]->()
RETURN type(r) AS type, count(r) AS count

// name: census_vector_nodes
// The nodes that carry a vector, by label: what a compact vector index holds, one entry each.
MATCH (n)
WHERE n.embedding IS NOT NULL
RETURN labels(n)[0] AS label, count(n) AS count
