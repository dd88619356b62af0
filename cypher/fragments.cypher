// Fragments shared by every dialect, filled into statements by the loader (stores/cypher.py) like the
// dialect ones: one place for what many statements repeat.

// fragment: fact_fields
// Every property a Fact is read with (facts_pure.fact_from_graph): a read that leaves one out returns a
// fact that is silently different (a statement not known as one, a learned fact dated by its write).
.id, .user_id, .channel, .claim, .confidence, .source, .temporal, .priority, .salience, .decay_rate,
.access_count, .last_accessed, .created_at, .valid_until, .superseded_by, .fact_kind, .subject, .key,
.value, .negated, .event_time, .certainty, .stated_at, .ends, .ends_words
