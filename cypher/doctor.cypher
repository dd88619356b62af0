// agentx-memory doctor (maintenance/doctor_async.py): the graph side of the invariants across stores.
// Shared by every backend. Whole-graph reads are census_ statements (numbers by label, type or user id,
// never a user's content); everything that lists ids or deletes is scoped by $user_id.

// name: census_users
// Every user id the graph holds nodes of, with how many (the ledger must know each of them).
MATCH (n)
WHERE n.user_id IS NOT NULL
RETURN n.user_id AS user_id, count(n) AS count

// name: census_unowned_nodes
// Nodes without a user_id: no scoped statement can reach them, so the doctor only reports them.
MATCH (n)
WHERE n.user_id IS NULL
RETURN labels(n)[0] AS label, count(n) AS count

// name: census_cross_user_relationships
// Relationships between two users' nodes (every query is scoped by one user: none should exist).
MATCH (a)-[r]->(b)
WHERE a.user_id IS NOT NULL AND b.user_id IS NOT NULL AND a.user_id <> b.user_id
RETURN a.user_id AS user_id, type(r) AS type, count(r) AS count

// name: doctor_newest_node
// When this user's newest node was written (epoch ms; a turn counts by its timestamp), and how many of
// the user's nodes are written only after their ledger row (turns, conversations, tool invocations).
MATCH (n {user_id: $user_id})
RETURN max(coalesce(n.created_at, n.timestamp, 0)) AS newest,
       sum(CASE WHEN n:Turn OR n:Conversation OR n:ToolInvocation THEN 1 ELSE 0 END) AS ledger_first

// name: doctor_turns
// Every turn node of this user, with whether a conversation node of this user holds it.
MATCH (t:Turn {user_id: $user_id})
OPTIONAL MATCH (c:Conversation {user_id: $user_id})-[:HAS_TURN]->(t)
RETURN t.id AS id, t.conversation_id AS conversation_id, count(c) AS linked

// name: doctor_conversations
MATCH (c:Conversation {user_id: $user_id})
RETURN c.id AS id

// name: doctor_tool_invocations
MATCH (i:ToolInvocation {user_id: $user_id})
RETURN i.id AS id, i.conversation_id AS conversation_id

// name: doctor_timeline_nodes
// The memories that must have a memory_timeline row, with what the row is rebuilt from.
MATCH (n {user_id: $user_id})
WHERE n:Fact OR n:Entity OR n:Goal OR n:Strategy
RETURN labels(n)[0] AS label, n.id AS id, n.channel AS channel, n.claim AS claim, n.name AS name,
       n.type AS type, n.description AS description, n.salience AS salience, n.created_at AS created_at

// name: doctor_delete_turns
UNWIND $ids AS turn_id
MATCH (t:Turn {id: turn_id, user_id: $user_id})
DETACH DELETE t
RETURN count(*) AS deleted

// name: doctor_delete_tool_invocations
UNWIND $ids AS invocation_id
MATCH (i:ToolInvocation {id: invocation_id, user_id: $user_id})
DETACH DELETE i
RETURN count(*) AS deleted

// name: doctor_delete_cross_user_relationships
// This user's relationships to another user's nodes (either direction).
MATCH (a {user_id: $user_id})-[r]-(b)
WHERE b.user_id IS NOT NULL AND b.user_id <> $user_id
DELETE r
RETURN count(r) AS deleted
