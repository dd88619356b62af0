-- The ledger (source of truth for turns), the timeline, tool invocations, profiles and the audit log.
-- Runs inside the agentx schema (search_path = <schema>, public); @EMBEDDING_DIM@ is the locked dimension.

CREATE TABLE agentx_metadata (
    key        text PRIMARY KEY,
    value      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE conversations (
    id              uuid PRIMARY KEY,
    user_id         text NOT NULL,
    channel         text NOT NULL,
    title           text,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- the next index handed out when store_turn gets no turn_index; bumped under the row lock
    next_turn_index integer NOT NULL DEFAULT 0,
    graph_synced    boolean NOT NULL DEFAULT false
);
CREATE INDEX conversations_user_created ON conversations (user_id, created_at DESC);

CREATE TABLE conversation_logs (
    id              uuid PRIMARY KEY,
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    user_id         text NOT NULL,
    channel         text NOT NULL,
    turn_index      integer NOT NULL CHECK (turn_index >= 0),
    role            text NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    content         text NOT NULL,
    content_hash    text NOT NULL,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- kept so the graph can be rebuilt without re-embedding; searched in the graph, so no ANN index here
    embedding       vector(@EMBEDDING_DIM@),
    "timestamp"     timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- false until the graph copy is written; the reconcile job replays unsynced rows
    graph_synced    boolean NOT NULL DEFAULT false,
    UNIQUE (conversation_id, turn_index)
);
CREATE INDEX conversation_logs_ts_brin ON conversation_logs USING brin ("timestamp");
CREATE INDEX conversation_logs_user_ts ON conversation_logs (user_id, "timestamp" DESC);
CREATE INDEX conversation_logs_unsynced ON conversation_logs (created_at) WHERE NOT graph_synced;

CREATE TABLE memory_timeline (
    id              bigserial PRIMARY KEY,
    user_id         text NOT NULL,
    channel         text NOT NULL,
    memory_type     text NOT NULL,
    memory_id       text NOT NULL,
    conversation_id uuid,
    event_time      timestamptz NOT NULL,
    summary         text NOT NULL,
    importance      real NOT NULL DEFAULT 0.5,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (memory_type, memory_id)
);
CREATE INDEX memory_timeline_user_time ON memory_timeline (user_id, event_time DESC);
CREATE INDEX memory_timeline_conversation ON memory_timeline (conversation_id);

CREATE TABLE tool_invocations (
    id              uuid PRIMARY KEY,
    conversation_id uuid NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    turn_index      integer,
    user_id         text NOT NULL,
    channel         text NOT NULL,
    tool_name       text NOT NULL,
    tool_input      jsonb NOT NULL DEFAULT '{}'::jsonb,
    tool_output     jsonb,
    success         boolean NOT NULL,
    latency_ms      double precision,
    error_message   text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tool_invocations_user_tool ON tool_invocations (user_id, tool_name, created_at DESC);

CREATE TABLE user_profiles (
    user_id             text PRIMARY KEY,
    preferences         jsonb NOT NULL DEFAULT '{}'::jsonb,
    expertise_areas     jsonb NOT NULL DEFAULT '[]'::jsonb,
    communication_style text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- Range-partitioned by day. No DEFAULT partition on purpose: a row for a missing day fails loudly and
-- the writer creates the partition and retries (a DEFAULT partition would block creating it later).
CREATE TABLE memory_audit_log (
    id              bigserial,
    "timestamp"     timestamptz NOT NULL DEFAULT now(),
    user_id         text NOT NULL,
    channel         text,
    operation       text NOT NULL,
    memory_type     text,
    memory_id       text,
    level           text NOT NULL,
    details         jsonb NOT NULL DEFAULT '{}'::jsonb,
    payload         jsonb,
    config_snapshot jsonb NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (id, "timestamp")
) PARTITION BY RANGE ("timestamp");
CREATE INDEX memory_audit_log_user_ts ON memory_audit_log (user_id, "timestamp" DESC);
CREATE INDEX memory_audit_log_operation_ts ON memory_audit_log (operation, "timestamp" DESC);
CREATE INDEX memory_audit_log_memory ON memory_audit_log (memory_type, memory_id);
CREATE INDEX memory_audit_log_channel_ts ON memory_audit_log (channel, "timestamp" DESC);
CREATE INDEX memory_audit_log_details ON memory_audit_log USING gin (details jsonb_path_ops);

-- Creates the partition holding `day` (UTC) if it is missing; returns its name. Idempotent and safe to
-- call concurrently (the advisory lock serialises creators of the same day).
CREATE FUNCTION ensure_audit_partition(day date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    part text := 'memory_audit_log_' || to_char(day, 'YYYYMMDD');
    lo   timestamptz := (day::timestamp AT TIME ZONE 'UTC');
    hi   timestamptz := ((day + 1)::timestamp AT TIME ZONE 'UTC');
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext(current_schema() || '.' || part));
    IF to_regclass(quote_ident(current_schema()) || '.' || quote_ident(part)) IS NULL THEN
        EXECUTE format('CREATE TABLE %I.%I PARTITION OF memory_audit_log FOR VALUES FROM (%L) TO (%L)',
                       current_schema(), part, lo, hi);
    END IF;
    RETURN part;
END;
$$;
