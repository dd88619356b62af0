-- Background jobs. The audit log records failures (seed 002's success / error_message) and the
-- conversation a row belongs to; every maintenance run is recorded, so `agentx-memory jobs status`
-- reads the last run, its duration, counts and error from the source of truth.
ALTER TABLE memory_audit_log ADD COLUMN success boolean NOT NULL DEFAULT true;
ALTER TABLE memory_audit_log ADD COLUMN error_message text;
ALTER TABLE memory_audit_log ADD COLUMN conversation_id text;
CREATE INDEX memory_audit_log_failures ON memory_audit_log ("timestamp" DESC) WHERE NOT success;

CREATE TABLE maintenance_runs (
    id          bigserial PRIMARY KEY,
    job         text NOT NULL,
    started_at  timestamptz NOT NULL,
    duration_ms double precision NOT NULL,
    status      text NOT NULL,
    dry_run     boolean NOT NULL,
    counts      jsonb NOT NULL DEFAULT '{}'::jsonb,
    details     jsonb NOT NULL DEFAULT '{}'::jsonb,
    error       text
);
CREATE INDEX maintenance_runs_job ON maintenance_runs (job, started_at DESC);

-- The audit partitions whose whole day is before `cutoff` (UTC); dropped unless `dry`. Returns their
-- names, oldest first. Only this table's own day partitions are touched.
CREATE FUNCTION drop_audit_partitions_before(cutoff date, dry boolean) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    part text;
BEGIN
    FOR part IN
        SELECT c.relname::text
        FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_class p ON p.oid = i.inhparent
        JOIN pg_namespace n ON n.oid = p.relnamespace
        WHERE p.relname = 'memory_audit_log' AND n.nspname = current_schema()
          AND c.relname ~ '^memory_audit_log_[0-9]{8}$'
          AND to_date(right(c.relname, 8), 'YYYYMMDD') < cutoff
        ORDER BY c.relname
    LOOP
        IF NOT dry THEN
            EXECUTE format('DROP TABLE %I.%I', current_schema(), part);
        END IF;
        RETURN NEXT part;
    END LOOP;
END;
$$;
