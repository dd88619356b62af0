// FalkorDB's dialect points, filled into the shared statements by the loader (stores/cypher.py).
// {label} is the node label the statement names; {index} is unused here (FalkorDB names indexes by label).

// fragment: vector_query
// Vectors are written and queried through vecf32(): a plain list is stored but not indexed.
CALL db.idx.vector.queryNodes('{label}', 'embedding', $k, vecf32($vector)) YIELD node, score

// fragment: ann_cosine
// queryNodes returns a cosine *distance* (0 = identical).
1.0 - score

// fragment: exact_cosine
1.0 - vec.cosineDistance(node.embedding, vecf32($vector))

// fragment: fulltext_query
// RediSearch syntax; $text holds plain lowercase words joined by " | ".
CALL db.idx.fulltext.queryNodes('{label}', $text) YIELD node, score
