-- Learning from conversations: how far each conversation is consolidated, and each turn's token count.
-- consolidated_turns is a watermark (turn indexes below it were read by consolidation), so turns added
-- after a consolidation are learned from later without re-reading the rest.
ALTER TABLE conversations ADD COLUMN consolidated_at timestamptz;
ALTER TABLE conversations ADD COLUMN consolidated_turns integer NOT NULL DEFAULT 0;
ALTER TABLE conversation_logs ADD COLUMN token_count integer;
CREATE INDEX conversations_to_consolidate ON conversations (user_id, created_at)
    WHERE next_turn_index > consolidated_turns;
