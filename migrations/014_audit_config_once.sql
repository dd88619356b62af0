-- The settings snapshot of an audit row (audit_policy.config_snapshot, ~1.4 KB of JSON) was stored in
-- full on every row, identical from row to row: 1.4 of the ~1.7 KB an audit row took, ~2.4 KB of the
-- data dir's ~21 KB per stored turn on real memory (benchmarks/real_memory.py, issue 36). Each distinct
-- snapshot is now stored once, keyed by its hash; a row keeps the hash, and reads join the snapshot
-- back (stores/sql/audit.sql). Rows written before keep their own copy (config_hash NULL).
CREATE TABLE audit_config_snapshots (
    hash       text PRIMARY KEY,
    snapshot   jsonb NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now()
);
-- Nullable without a default: no rewrite of the partitions.
ALTER TABLE memory_audit_log ADD COLUMN config_hash text;
