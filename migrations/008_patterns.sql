-- The patterns job mines each conversation's tool calls once: patterns_extracted_at is its flag (NULL:
-- not mined yet), tool_pattern the successful tool sequence it found (NULL: the calls did not end in
-- success). Counting a pattern across conversations is then one grouped query over this table.
ALTER TABLE conversations ADD COLUMN patterns_extracted_at timestamptz;
ALTER TABLE conversations ADD COLUMN tool_pattern text[];
CREATE INDEX conversations_tool_pattern ON conversations (user_id) WHERE tool_pattern IS NOT NULL;
