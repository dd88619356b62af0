// Key rotation (maintenance/rekey_async.py): the graph's copies of sealed ledger values (stores/sealing.py
// GRAPH_SEALED) of one user that are not under the current key ($current: 'agx1:<kid>:'), sealed by an
// old key or plain JSON text from before the key, in id pages; a page is written back only where a node
// still holds what was read, so a concurrent write is never overwritten.

// name: rekey_graph_turns
MATCH (t:Turn {user_id: $user_id})
WHERE t.id > $after AND t.metadata IS NOT NULL AND NOT t.metadata STARTS WITH $current
RETURN t.id AS id, t.metadata AS metadata
ORDER BY id
LIMIT $limit

// name: rekey_write_graph_turns
UNWIND $rows AS row
MATCH (t:Turn {id: row.id, user_id: $user_id})
WHERE t.metadata = row.old_metadata
SET t.metadata = row.metadata
RETURN count(t) AS written

// name: rekey_graph_invocations
MATCH (i:ToolInvocation {user_id: $user_id})
WHERE i.id > $after
  AND (NOT coalesce(i.tool_input, $current) STARTS WITH $current
       OR NOT coalesce(i.tool_output, $current) STARTS WITH $current)
RETURN i.id AS id, i.tool_input AS tool_input, i.tool_output AS tool_output
ORDER BY id
LIMIT $limit

// name: rekey_write_graph_invocations
UNWIND $rows AS row
MATCH (i:ToolInvocation {id: row.id, user_id: $user_id})
WHERE i.tool_input = row.old_tool_input AND i.tool_output = row.old_tool_output
SET i.tool_input = row.tool_input, i.tool_output = row.tool_output
RETURN count(i) AS written
