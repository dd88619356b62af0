// Procedural memory: tool invocations, per-user tools with usage counters, and strategies.
// Shared by every backend. Times are epoch milliseconds; tool input/output are JSON strings.
// A Tool is per user: key = user_id + ':' + name (unique), so its counters are never shared.

// name: record_tool_invocation
// Idempotent on the invocation id: the counters move only when this statement created the invocation
// (flagged with _new, removed before returning). The _lock write takes the Tool's write lock before its
// counters are read, so concurrent invocations cannot lose an update on Neo4j (FalkorDB serialises
// writes per graph anyway).
MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
MERGE (i:ToolInvocation {id: $id, user_id: $user_id})
ON CREATE SET i._new = true, i.channel = $channel, i.conversation_id = $conversation_id,
              i.turn_index = $turn_index, i.tool_name = $tool_name, i.tool_input = $tool_input,
              i.tool_output = $tool_output, i.success = $success, i.latency_ms = $latency_ms,
              i.error_message = $error_message, i.created_at = $created_at
MERGE (t:Tool {key: $tool_key, user_id: $user_id})
ON CREATE SET t.name = $tool_name, t.created_at = $created_at
SET t._lock = true
MERGE (c)-[:USED_TOOL]->(i)
MERGE (i)-[:INVOKED]->(t)
WITH i, t, coalesce(i._new, false) AS fresh, coalesce(t.usage_count, 0) AS n0, coalesce(t.success_count, 0) AS s0,
     coalesce(t.avg_latency_ms, 0.0) AS avg0
WITH i, t, fresh, n0, s0, avg0, n0 + 1 AS n1
SET t.usage_count = CASE WHEN fresh THEN n1 ELSE n0 END,
    t.success_count = CASE WHEN fresh AND $success THEN s0 + 1 ELSE s0 END,
    t.avg_latency_ms = CASE WHEN fresh THEN (avg0 * n0 + $latency_ms) / n1 ELSE avg0 END,
    t.last_used = CASE WHEN fresh THEN $created_at ELSE t.last_used END
REMOVE i._new, t._lock
RETURN i.id AS id, fresh AS created, t.usage_count AS usage_count

// name: create_strategy
MERGE (s:Strategy {id: $id, user_id: $user_id})
ON CREATE SET s.channel = $channel, s.description = $description, s.context_pattern = $context_pattern,
              s.tool_sequence = $tool_names, s.success_count = $success_count,
              s.failure_count = $failure_count, s.source_conversation_id = $conversation_id,
              s.created_at = $created_at, s.updated_at = $created_at, s.embedding = vecf32($embedding),
              s.status = $status, s.what_failed = $what_failed, s.applies_when = $applies_when
FOREACH (position IN range(0, size($tool_keys) - 1) |
  MERGE (t:Tool {key: $tool_keys[position], user_id: $user_id})
  ON CREATE SET t.name = $tool_names[position], t.created_at = $created_at
  MERGE (s)-[:USES_TOOL {position: position}]->(t))
WITH s
OPTIONAL MATCH (c:Conversation {id: $conversation_id, user_id: $user_id})
FOREACH (x IN CASE WHEN c IS NOT NULL AND $success THEN [c] ELSE [] END | MERGE (s)-[:SUCCEEDED_IN]->(x))
RETURN s {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
          .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when, .last_used} AS item

// name: reinforce_strategy
// A single SET reading and writing the same properties: lost-update-free on both backends.
MATCH (s:Strategy {id: $id, user_id: $user_id})
WHERE s.channel IN $channels
SET s.success_count = s.success_count + CASE WHEN $success THEN 1 ELSE 0 END,
    s.failure_count = s.failure_count + CASE WHEN $success THEN 0 ELSE 1 END,
    s.updated_at = $updated_at
RETURN s {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
          .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when, .last_used} AS item

// name: tool_stats
MATCH (t:Tool {user_id: $user_id})
RETURN t {.name, .usage_count, .success_count, .avg_latency_ms, .last_used} AS item
ORDER BY coalesce(t.usage_count, 0) DESC, t.name
LIMIT $limit

// name: tool_stats_for_task
// Tools used by this user's strategies (active channel and _global) whose context pattern mentions the
// task type, case-insensitively.
MATCH (s:Strategy {user_id: $user_id})-[:USES_TOOL]->(t:Tool {user_id: $user_id})
WHERE s.channel IN $channels AND toLower(s.context_pattern) CONTAINS toLower($task_type)
WITH DISTINCT t
RETURN t {.name, .usage_count, .success_count, .avg_latency_ms, .last_used} AS item
ORDER BY coalesce(t.usage_count, 0) DESC, t.name
LIMIT $limit

// name: set_strategy_status
// Review of a proposed strategy (publish / reject); only from an allowed status, else no row.
MATCH (s:Strategy {id: $id, user_id: $user_id})
WHERE s.channel IN $channels AND coalesce(s.status, 'published') IN $allowed
SET s.status = $status, s.review_reason = $reason, s.updated_at = $now
RETURN s {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
          .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when, .last_used} AS item

// name: proposed_strategies
MATCH (s:Strategy {user_id: $user_id})
WHERE s.channel IN $channels AND s.status = 'proposed'
RETURN s {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
          .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when, .last_used} AS item
ORDER BY s.created_at DESC
LIMIT $limit

// name: get_strategy
MATCH (s:Strategy {id: $id, user_id: $user_id})
WHERE s.channel IN $channels
RETURN s {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
          .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when, .last_used} AS item

// name: pattern_strategies
// The patterns job: every strategy of one user (any channel, any review state) with its tool sequence,
// oldest first, to match newly mined conversations against.
MATCH (s:Strategy {user_id: $user_id})
RETURN s.id AS id, s.tool_sequence AS steps, coalesce(s.status, 'published') AS status,
       s.source_conversation_id AS source_conversation_id, s.created_at AS created_at
ORDER BY s.created_at, s.id

// name: record_strategy_use
// The patterns job: conversations that took a strategy's path count as its successes; last_used only
// moves forward. One write per strategy and run (every write to a vector node costs an index entry).
// Each credit ({key, n}) counts once: its key (a conversation id) is kept in s.credited, so a run that
// credited and then died before marking its conversations mined credits nothing the second time.
MATCH (s:Strategy {id: $id, user_id: $user_id})
WITH s, [credit IN $credits WHERE NOT credit.key IN coalesce(s.credited, [])] AS fresh
SET s.success_count = s.success_count + reduce(total = 0, credit IN fresh | total + credit.n),
    s.credited = coalesce(s.credited, []) + [credit IN fresh | credit.key],
    s.last_used = CASE WHEN s.last_used IS NULL OR s.last_used < $last_used THEN $last_used
                       ELSE s.last_used END,
    s.updated_at = $now
RETURN s {.id, .user_id, .channel, .description, .context_pattern, .tool_sequence, .success_count,
          .failure_count, .source_conversation_id, .created_at, .updated_at, .status, .what_failed,
          .applies_when, .last_used} AS item
