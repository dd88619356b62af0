-- Turn vectors in half precision (pgvector halfvec: 2 bytes a dimension instead of 4). A 384-d turn
-- vector took 1,544 bytes in the row and as much again in its HNSW index entry: about 3 of the ledger's
-- ~8.5 KB per stored turn (benchmarks/scale.py, issue 36). Recall by vector measured the same on LoCoMo
-- (docs/benchmarks/scale.md). Queries need no change: a vector parameter casts implicitly to halfvec,
-- so `embedding <=> %(vector)s` still walks the index. The table is rewritten once, here.
DROP INDEX conversation_logs_embedding;
ALTER TABLE conversation_logs
    ALTER COLUMN embedding TYPE halfvec(@EMBEDDING_DIM@) USING embedding::halfvec(@EMBEDDING_DIM@);
CREATE INDEX conversation_logs_embedding ON conversation_logs USING hnsw (embedding halfvec_cosine_ops);
