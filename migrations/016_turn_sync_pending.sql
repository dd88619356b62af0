-- A turn whose graph write is not confirmed yet is a row here, no longer a flag on its ledger row.
-- store_turn set conversation_logs.graph_synced = true after every graph write, and that UPDATE could
-- never be HOT (the partial index conversation_logs_unsynced named the column): each one wrote a new
-- version of the ~1.5 KB row into every index of the table, HNSW and GIN included (~1.1-1.6 ms of each
-- store_turn, issue 36). Now the turn's statement inserts its id here in the same commit, and the
-- graph's confirmation deletes it: the ledger row is written once. Reconcile replays the turns listed
-- here; readers that report a turn's sync state compute it as "not listed here".
-- No foreign key: its check would lock the just-inserted turn row on every store_turn. The forget
-- statements delete a turn's row here with the turn, and every reader joins conversation_logs.
CREATE TABLE turn_sync_pending (
    turn_id   uuid PRIMARY KEY,
    queued_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO turn_sync_pending (turn_id, queued_at)
SELECT id, created_at FROM conversation_logs WHERE NOT graph_synced;

-- Drops conversation_logs_unsynced with it (the index's predicate names the column).
ALTER TABLE conversation_logs DROP COLUMN graph_synced;
