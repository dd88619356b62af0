// Goals: (:User)-[:HAS_GOAL]->(:Goal), (:Goal)-[:SUBGOAL_OF]->(:Goal), (:Goal)-[:BLOCKED_BY]->(:Goal).
// Shared by every backend. Times are epoch milliseconds. There are no multi-statement transactions in
// FalkorDB, so each write checks its precondition (owner, status, no cycle) in the same statement and
// returns no row when it refused; the caller then tells "not found" from "conflict" with get_goal.

// name: create_goal
// collect + size, not `p IS NOT NULL`: FalkorDB keeps the null row of an OPTIONAL MATCH through that test.
OPTIONAL MATCH (p:Goal {id: $parent_id, user_id: $user_id})
WITH collect(p) AS parents
WHERE $parent_id IS NULL OR size(parents) > 0
MERGE (u:User {id: $user_id})
ON CREATE SET u.user_id = $user_id, u.created_at = $created_at
CREATE (g:Goal {id: $id, user_id: $user_id, channel: $channel, description: $description,
    priority: $priority, status: 'active', deadline: $deadline, created_at: $created_at,
    embedding: vecf32($embedding)})
MERGE (u)-[:HAS_GOAL]->(g)
FOREACH (x IN parents | MERGE (g)-[:SUBGOAL_OF]->(x))
RETURN g.id AS id

// name: get_goals
// Every goal in $ids of this user, with parent, subgoals (oldest first) and blockers.
MATCH (g:Goal {user_id: $user_id})
WHERE g.id IN $ids
OPTIONAL MATCH (g)-[:SUBGOAL_OF]->(p:Goal {user_id: $user_id})
WITH g, head(collect(p.id)) AS parent
OPTIONAL MATCH (s:Goal {user_id: $user_id})-[:SUBGOAL_OF]->(g)
WITH g, parent, s
ORDER BY s.created_at, s.id
WITH g, parent, collect(s.id) AS subgoals
OPTIONAL MATCH (g)-[:BLOCKED_BY]->(b:Goal {user_id: $user_id})
WITH g, parent, subgoals, b
ORDER BY b.id
WITH g, parent, subgoals, collect(b.id) AS blocked_by
RETURN g {.id, .user_id, .channel, .description, .priority, .status, .deadline, .created_at,
          .completed_at, .result} AS item, parent, subgoals, blocked_by

// name: active_goal_ids
MATCH (g:Goal {user_id: $user_id})
WHERE g.channel IN $channels AND g.status IN ['active', 'blocked']
RETURN g.id AS id
ORDER BY g.priority DESC, g.created_at, g.id
LIMIT $limit

// name: finish_goal
// Only an active or blocked goal moves on; completed and abandoned are final.
MATCH (g:Goal {id: $id, user_id: $user_id})
WHERE g.status IN ['active', 'blocked']
SET g.status = $status, g.completed_at = $completed_at, g.result = coalesce($result, g.result)
RETURN g.id AS id

// name: block_goal
// Refused for a finished goal, a self-block and a blocker that already (transitively) waits on the goal.
MATCH (g:Goal {id: $id, user_id: $user_id})
MATCH (b:Goal {id: $blocked_by_id, user_id: $user_id})
WHERE g.status IN ['active', 'blocked'] AND g.id <> b.id
OPTIONAL MATCH (b)-[:BLOCKED_BY*1..50]->(c:Goal {id: $id, user_id: $user_id})
WITH g, b, count(c) AS cycles
WHERE cycles = 0
MERGE (g)-[:BLOCKED_BY]->(b)
SET g.status = 'blocked'
RETURN g.id AS id

// name: set_goal_parent
// Refused for a self-parent and a parent that is already (transitively) a subgoal of the goal.
MATCH (g:Goal {id: $id, user_id: $user_id})
MATCH (p:Goal {id: $parent_id, user_id: $user_id})
WHERE g.id <> p.id
OPTIONAL MATCH (p)-[:SUBGOAL_OF*1..50]->(c:Goal {id: $id, user_id: $user_id})
WITH g, p, count(c) AS cycles
WHERE cycles = 0
OPTIONAL MATCH (g)-[old:SUBGOAL_OF]->(:Goal)
DELETE old
WITH DISTINCT g, p
MERGE (g)-[:SUBGOAL_OF]->(p)
RETURN g.id AS id
