-- A tool invocation's graph write can fail after its ledger row committed (the graph server killed or
-- restarting): like a turn, the row stays graph_synced = false until the graph confirms it, and the
-- reconcile job replays it. Rows written before this column existed count as synced.
ALTER TABLE tool_invocations ADD COLUMN graph_synced boolean NOT NULL DEFAULT true;
ALTER TABLE tool_invocations ALTER COLUMN graph_synced SET DEFAULT false;
CREATE INDEX tool_invocations_unsynced ON tool_invocations (created_at) WHERE NOT graph_synced;
