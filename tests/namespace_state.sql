-- Everything about one Postgres schema that a test could observe or that steers the planner, one
-- (key, value) row per item, in two queries; tests/recycling.py compares them with the schema's state
-- right after its migration. The parameter is the schema's name; the caller replaces that name in the
-- text by a marker.

-- name: storage
-- What a test's writes change: each relation's size per fork (and its TOAST table's), the planner's page
-- and row counts, the column statistics ANALYZE left, the sequences, and the counters autovacuum and
-- `agentx-memory stats` (n_live_tup) read. Scan counts are left out: every facade open reads
-- schema_version. Read before and after emptying; cheap.
SELECT 'size ' || c.relname AS key,
       concat_ws(' | ', pg_relation_size(c.oid, 'main'), pg_relation_size(c.oid, 'fsm'),
                 pg_relation_size(c.oid, 'vm'), pg_relation_size(c.oid, 'init'),
                 coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0),
                 (SELECT count(*) FROM pg_statistic s WHERE s.starelid = c.oid),
                 (SELECT count(*) FROM pg_statistic_ext x WHERE x.stxrelid = c.oid)) AS value
FROM pg_class c
WHERE c.relnamespace = %(schema)s::text::regnamespace
UNION ALL
-- The planner statistics, last: tests/recycling.py puts them back with pg_restore_relation_stats.
SELECT 'plan ' || c.relname, concat_ws(' | ', c.relpages, c.reltuples, c.relallvisible, c.relallfrozen)
FROM pg_class c
WHERE c.relnamespace = %(schema)s::text::regnamespace
UNION ALL
SELECT 'seq ' || s.sequencename,
       concat_ws(' | ', s.data_type, s.start_value, s.min_value, s.max_value, s.increment_by, s.cycle,
                 s.cache_size, coalesce(s.last_value::text, 'unread'))
FROM pg_sequences s
WHERE s.schemaname = %(schema)s::text
UNION ALL
SELECT 'stat ' || s.relname,
       concat_ws(' | ', s.n_tup_ins, s.n_tup_upd, s.n_tup_del, s.n_live_tup, s.n_dead_tup,
                 s.n_mod_since_analyze, s.n_ins_since_vacuum, s.vacuum_count, s.autovacuum_count,
                 s.analyze_count, s.autoanalyze_count)
FROM pg_stat_all_tables s
WHERE s.schemaname = %(schema)s::text AND s.relname NOT IN ('schema_version', 'agentx_metadata')

-- name: definitions
-- What only DDL changes: every relation, column (dropped ones included: a table rewritten without them
-- is another table), index, constraint, trigger, function, type, rule, view and policy.
SELECT 'rel ' || c.relname AS key,
       concat_ws(' | ', c.relkind, c.relpersistence, c.reloptions::text, c.relispartition,
                 pg_get_expr(c.relpartbound, c.oid), c.relrowsecurity, c.relreplident) AS value
FROM pg_class c
WHERE c.relnamespace = %(schema)s::text::regnamespace
UNION ALL
SELECT 'col ' || c.relname || '.' || a.attnum,
       concat_ws(' | ', a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attisdropped,
                 a.attgenerated, a.attidentity, pg_get_expr(d.adbin, d.adrelid), a.attcollation,
                 a.attstorage, a.attcompression, a.attstattarget)
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE c.relnamespace = %(schema)s::text::regnamespace AND a.attnum > 0
UNION ALL
SELECT 'idx ' || i.indexrelid::regclass::text,
       concat_ws(' | ', pg_get_indexdef(i.indexrelid), i.indisvalid, i.indisready, i.indislive,
                 i.indisclustered, i.indisreplident)
FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid
WHERE c.relnamespace = %(schema)s::text::regnamespace
UNION ALL
SELECT 'con ' || c.relname || '.' || k.conname,
       concat_ws(' | ', k.contype, pg_get_constraintdef(k.oid), k.convalidated, k.condeferrable,
                 k.conenforced)
FROM pg_constraint k
JOIN pg_class c ON c.oid = k.conrelid
WHERE k.connamespace = %(schema)s::text::regnamespace
UNION ALL
SELECT 'trg ' || c.relname || '.' || t.tgname, concat_ws(' | ', pg_get_triggerdef(t.oid), t.tgenabled)
FROM pg_trigger t
JOIN pg_class c ON c.oid = t.tgrelid
-- Not the foreign keys' internal triggers: named by OID, and the constraints above define them.
WHERE c.relnamespace = %(schema)s::text::regnamespace AND NOT t.tgisinternal
UNION ALL
-- The whole definition: signature, options (SET search_path FROM CURRENT names the schema) and body.
SELECT 'fn ' || p.oid::regprocedure::text, pg_get_functiondef(p.oid)
FROM pg_proc p
WHERE p.pronamespace = %(schema)s::text::regnamespace AND p.prokind IN ('f', 'p')
UNION ALL
SELECT 'type ' || t.typname, concat_ws(' | ', t.typtype, t.typbasetype::regtype::text, t.typnotnull)
FROM pg_type t
WHERE t.typnamespace = %(schema)s::text::regnamespace AND t.typtype IN ('d', 'e', 'r', 'm')
UNION ALL
SELECT 'rule ' || r.tablename || '.' || r.rulename, r.definition
FROM pg_rules r
WHERE r.schemaname = %(schema)s::text
UNION ALL
SELECT 'view ' || v.viewname, v.definition
FROM pg_views v
WHERE v.schemaname = %(schema)s::text
UNION ALL
SELECT 'policy ' || p.tablename || '.' || p.policyname, concat_ws(' | ', p.cmd, p.qual, p.with_check)
FROM pg_policies p
WHERE p.schemaname = %(schema)s::text
