-- Access statistics off the graph's vector-indexed nodes. On FalkorDB 4.16 every write to a node that
-- carries an indexed vector leaves a stale HNSW entry (FalkorDB#2197), and recall reinforcement wrote
-- ~4 such nodes per recall; so what changes often lives here, keyed by the memory, and is overlaid on
-- reads. Counts are increments since this table took over: a read adds them to the count a node may
-- still carry from before (never rewritten), so no history is lost and no node is touched.
CREATE TABLE memory_access (
    user_id        text NOT NULL,
    memory_type    text NOT NULL CHECK (memory_type IN ('fact', 'entity', 'strategy', 'goal')),
    memory_id      text NOT NULL,
    access_count   integer NOT NULL DEFAULT 0,
    last_accessed  timestamptz,
    mention_count  integer NOT NULL DEFAULT 0,
    -- Set by the decay job; NULL: the memory's own (initial) salience.
    salience       double precision,
    salience_at    timestamptz,
    PRIMARY KEY (user_id, memory_type, memory_id)
);
-- promotion_candidates: a user's most accessed memories of a kind.
CREATE INDEX memory_access_count ON memory_access (user_id, memory_type, access_count DESC);
