// Reflections: facts with source 'reflection' that the reflect job writes (protected: they never decay).

// name: latest_reflection
// The user's newest current reflection in the channels read: created_at is the store's clock (what
// "new facts since" compares with), stated_at the job's clock (what "once per 6 days" compares with).
MATCH (f:Fact {user_id: $user_id})
WHERE f.channel IN $channels AND f.source = 'reflection' AND f.valid_until IS NULL
RETURN f.id AS id, f.created_at AS created_at, coalesce(f.stated_at, f.created_at) AS reflected_at
ORDER BY f.created_at DESC
LIMIT 1

// name: facts_for_reflection
// The user's current facts (any channel, reflections left out) created after $since, most salient
// first: what a reflection is written from. $limit bounds the digest's input, not the count.
MATCH (f:Fact {user_id: $user_id})
WHERE f.valid_until IS NULL AND f.source <> 'reflection' AND f.created_at > $since
WITH f
ORDER BY coalesce(f.salience, 0.5) DESC, f.confidence DESC, f.created_at DESC
RETURN f.id AS id, f.claim AS claim, f.confidence AS confidence, f.priority AS priority,
       f.source AS source, f.fact_kind AS fact_kind, f.created_at AS created_at
LIMIT $limit

// name: count_facts_for_reflection
MATCH (f:Fact {user_id: $user_id})
WHERE f.valid_until IS NULL AND f.source <> 'reflection' AND f.created_at > $since
RETURN count(f) AS n
