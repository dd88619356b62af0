// Graph expansion for recall, both backends: for each entity in $ids, its neighbours (either direction)
// and the current facts ABOUT it (newest first), at most $limit of each per entity; and the facts in
// $fact_ids (the best fact candidates, to be shown whole). One round trip for all three.
// Facts come with what the retriever returns for them (ABOUT ids, DERIVED_FROM turn ids). Both branches
// start from the entities (WITH keeps FalkorDB's planner there rather than scanning the user's facts).
// A fact's ABOUT and DERIVED_FROM ends are left unlabelled and unfiltered: the statements that create
// those edges (facts.cypher) match both ends by user_id, so they never cross users, and on FalkorDB a
// labelled end costs a label-matrix product per traversal (measured: 4.2 -> 1.9 ms server time).
// Each fact comes back once: an entity's facts as one row per fact with the ids of the entities in
// $ids it is about (`from_ids`), and without its properties when it is also in $fact_ids (the third
// branch returns it whole). $words (null: every fact) maps each id in $ids to word prefixes: of the
// entity's newest $limit facts only those whose lowercased claim contains one of its prefixes come
// back, and those holding a character of $folding (whose case folding differs from lowercasing) — a
// superset of the facts the retriever's word-overlap test keeps (fusion.term_overlap), so the rows it
// would drop never travel (on LoCoMo, ~8 of ~70 an expansion used to return). An empty prefix ('')
// keeps every fact of its entity. Without $statements the facts of $fact_ids that are free statements
// stay out of the third branch (recall does not return them: 30 of the 50 best facts on LoCoMo).

// name: expand_entities
MATCH (e:Entity {user_id: $user_id})-[:RELATED_TO|PART_OF|LOCATED_IN|WORKS_FOR|KNOWS|CREATED_BY|REFERENCES|SAME_AS]-(n:Entity {user_id: $user_id})
WHERE e.id IN $ids AND n.channel IN $channels AND n.id <> e.id
WITH e, collect(DISTINCT n)[..$limit] AS neighbours
UNWIND neighbours AS n
RETURN 'neighbour' AS source, [e.id] AS from_ids,
       n {.id, .user_id, .channel, .name, .type, .aliases, .description, .properties, .mention_count,
          .access_count, .created_at, .updated_at, .first_seen} AS item, [] AS about, [] AS turns
UNION ALL
MATCH (e:Entity {user_id: $user_id})
WHERE e.id IN $ids
WITH e
MATCH (f:Fact)-[:ABOUT]->(e)
WHERE f.user_id = $user_id AND f.channel IN $channels AND f.valid_until IS NULL
WITH e, f
ORDER BY f.created_at DESC
WITH e, collect(f)[..$limit] AS facts
UNWIND facts AS f
WITH e, f, toLower(f.claim) AS claim, CASE WHEN $words IS NULL THEN [''] ELSE $words[e.id] END AS words
WHERE any(w IN words WHERE claim CONTAINS w) OR any(x IN $folding WHERE f.claim CONTAINS x)
WITH f, collect(e.id) AS from_ids
WITH f, from_ids, f.id IN $fact_ids AND ($statements OR coalesce(f.fact_kind, '') <> 'statement') AS whole_below
OPTIONAL MATCH (f)-[:ABOUT]->(a)
WHERE NOT whole_below
WITH f, from_ids, whole_below, collect(DISTINCT a.id) AS about
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(t)
WHERE NOT whole_below
WITH f, from_ids, whole_below, about, collect(DISTINCT t.id) AS turns
RETURN 'fact' AS source, from_ids,
       CASE WHEN whole_below THEN f {.id} ELSE f {{{fact_fields}}} END AS item, about, turns
UNION ALL
MATCH (f:Fact {user_id: $user_id})
WHERE f.id IN $fact_ids AND f.channel IN $channels
  AND ($statements OR coalesce(f.fact_kind, '') <> 'statement')
OPTIONAL MATCH (f)-[:ABOUT]->(a)
WITH f, collect(DISTINCT a.id) AS about
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(t)
WITH f, about, collect(DISTINCT t.id) AS turns
RETURN 'fact' AS source, [] AS from_ids,
       f {{{fact_fields}}} AS item, about, turns

// name: stale_turns
// Which of the turns in $ids have changed: a fact learned from them was superseded; `whole` when every
// one was (the turn is stale: "I live in Montreal"), not when one still holds ("I work at Google as a
// backend engineer" after "I joined Stripe": the job title holds). A current fact that
// replaced one of the turn's facts does not count as the turn's own, because a correction made through
// the API keeps the turns its old fact came from (correct_fact copies DERIVED_FROM when it has no turns
// of its own); a fact ended without a successor
// (decayed, forgotten) makes no turn stale. One row per stale turn and fact it said, with the current
// fact that replaced it (following the SUPERSEDES chain), whole, or null when none is current in
// $channels. Starts from the turns (range index on Turn.id) so a user's many facts are never scanned.
MATCH (t:Turn {user_id: $user_id})
WHERE t.id IN $ids
MATCH (f:Fact)-[:DERIVED_FROM]->(t)
WHERE f.user_id = $user_id
WITH t, collect(f) AS facts
WITH t, facts, [x IN facts WHERE x.valid_until IS NOT NULL AND x.superseded_by IS NOT NULL | x.superseded_by] AS replaced
WHERE size(replaced) > 0
WITH t, facts, none(x IN facts WHERE x.valid_until IS NULL AND NOT x.id IN replaced) AS whole
UNWIND [x IN facts WHERE x.valid_until IS NOT NULL AND x.superseded_by IS NOT NULL] AS old
OPTIONAL MATCH (cur:Fact)-[:SUPERSEDES*1..4]->(old)
WHERE cur.user_id = $user_id AND cur.valid_until IS NULL AND cur.channel IN $channels
WITH t, whole, old, cur
OPTIONAL MATCH (cur)-[:ABOUT]->(a)
WITH t, whole, old, cur, collect(DISTINCT a.id) AS about
OPTIONAL MATCH (cur)-[:DERIVED_FROM]->(s)
WITH t, whole, old, cur, about, collect(DISTINCT s.id) AS turns
RETURN t.id AS id, whole, old.superseded_by AS superseded_by,
       CASE WHEN cur IS NULL THEN null ELSE cur {{{fact_fields}}} END AS item, about, turns

// name: slot_facts
// The current facts in the slots a question asks about ($keys; appointments by the thing, $things:
// "appointment_dentist"), newest said first. Whose: the user's when it asks in the first person ($mine):
// "The user" or the name they gave (a current `name` fact), or whoever stated a fact of their own (a
// user-stated fact about its speaker is `critical`, fact_priority), a third person's facts in the same
// slot are not theirs; and the people it names, by subject ($names, lower-cased).
OPTIONAL MATCH (n:Fact {user_id: $user_id, key: 'name'})
WHERE $mine AND n.valid_until IS NULL AND n.channel IN $channels
WITH [x IN collect(n.value) + ['The user'] WHERE $mine | toLower(x)] + $names AS selves
MATCH (f:Fact {user_id: $user_id})
WHERE f.valid_until IS NULL AND f.channel IN $channels AND f.negated = false
  AND (toLower(f.subject) IN selves OR ($mine AND f.priority = 'critical'))
  AND (f.key IN $keys OR any(thing IN $things WHERE f.key STARTS WITH 'appointment_'
       AND f.key ENDS WITH ('_' + thing)))
WITH f
ORDER BY coalesce(f.stated_at, f.created_at) DESC
LIMIT $limit
OPTIONAL MATCH (f)-[:ABOUT]->(e)
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(t)
WITH f, collect(DISTINCT e.id) AS about, collect(DISTINCT t.id) AS turns
RETURN f {{{fact_fields}}} AS item, about, turns
