// Neo4j's dialect points, filled into the shared statements by the loader (stores/cypher.py).
// {label} is the node label the statement names; {index} the index named in schema.cypher
// (<label>_<property>).

// fragment: vector_query
CALL db.index.vector.queryNodes('{index}', $k, $vector) YIELD node, score

// fragment: ann_cosine
// queryNodes returns (1 + cos) / 2.
2.0 * score - 1.0

// fragment: exact_cosine
2.0 * vector.similarity.cosine(node.embedding, $vector) - 1.0

// fragment: fulltext_query
// Lucene syntax; $text holds plain lowercase words joined by " OR ".
CALL db.index.fulltext.queryNodes('{index}', $text, {limit: $k}) YIELD node, score
