-- Documents: JSON values under a namespace and key, for framework adapters (a LangGraph BaseStore, an
-- OpenAI Agents session). The value is stored as given: `json`, not `jsonb`, which rewrites numbers
-- (7.002895247839731e+16 comes back as the integer 70028952478397310) and reorders keys; filters are
-- evaluated by the adapter, so nothing needs jsonb's operators. The ledger is its only home: no graph
-- node, nothing for the graph's vector index to go stale over.
-- Scoped like every row: (user_id, channel); `space` keeps adapters apart (one never lists another's
-- namespaces). `ns_seq` / `item_seq` give the insertion order LangGraph's InMemoryStore lists in:
-- namespaces in the order they were first filled (since last emptied), keys in first-insert order.
CREATE SEQUENCE document_seq;

CREATE TABLE documents (
    user_id      text NOT NULL,
    channel      text NOT NULL,
    space        text NOT NULL,
    namespace    text[] NOT NULL,
    key          text NOT NULL,
    value        json NOT NULL,
    ns_seq       bigint NOT NULL,
    item_seq     bigint NOT NULL DEFAULT nextval('document_seq'),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    -- TTL: minutes from the last write (or read, when reads refresh); NULL: kept until deleted.
    ttl_minutes  double precision,
    expires_at   timestamptz,
    PRIMARY KEY (user_id, channel, space, namespace, key)
);
CREATE INDEX documents_order ON documents (user_id, channel, space, ns_seq, item_seq);
CREATE INDEX documents_expiry ON documents (expires_at) WHERE expires_at IS NOT NULL;

-- One row per embedded text of a document (a field path, or one element of a list field): a search
-- scores a document by its best-matching text, as LangGraph's stores do.
CREATE TABLE document_vectors (
    user_id    text NOT NULL,
    channel    text NOT NULL,
    space      text NOT NULL,
    namespace  text[] NOT NULL,
    key        text NOT NULL,
    path       text NOT NULL,
    -- The embedded text: an export without vectors, or a new embedding model, embeds it again.
    text       text NOT NULL,
    embedding  vector(@EMBEDDING_DIM@) NOT NULL,
    PRIMARY KEY (user_id, channel, space, namespace, key, path),
    FOREIGN KEY (user_id, channel, space, namespace, key)
        REFERENCES documents (user_id, channel, space, namespace, key) ON DELETE CASCADE
);
