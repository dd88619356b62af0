-- Conversations past retention.turn_days are archived by the cleanup job: a flag, nothing deleted.
-- The ledger keeps every turn (history stays recallable); the graph node carries the same flag.
ALTER TABLE conversations ADD COLUMN archived_at timestamptz;
