-- 0019: providers that speak the Anthropic Messages API.

-- The wire a provider speaks: 'openai' (chat completions, what every
-- provider spoke until now) or 'anthropic' (/v1/messages).
ALTER TABLE providers ADD COLUMN kind TEXT NOT NULL DEFAULT 'openai' CHECK (kind IN ('openai', 'anthropic'));

-- An answer's signed reasoning blocks (thinking with its signature,
-- redacted_thinking as opaque data), as JSON, sent back with its tool calls.
ALTER TABLE messages ADD COLUMN thoughts TEXT NOT NULL DEFAULT '';

-- Prompt-cache reads and writes, as the provider reported them.
ALTER TABLE messages ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
