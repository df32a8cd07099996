-- 0019: providers that speak the Anthropic Messages API.

-- The wire a provider speaks: 'openai' (chat completions, what every
-- provider spoke until now) or 'anthropic' (/v1/messages).
ALTER TABLE providers ADD COLUMN kind TEXT NOT NULL DEFAULT 'openai' CHECK (kind IN ('openai', 'anthropic'));

-- Anthropic's extended thinking: the tokens the model may think before it
-- answers (0 = off; the API takes 1024 or more).
ALTER TABLE providers ADD COLUMN thinking_budget INTEGER NOT NULL DEFAULT 0 CHECK (thinking_budget = 0 OR thinking_budget BETWEEN 1024 AND 128000);

-- An answer's signed reasoning blocks (thinking with its signature,
-- redacted_thinking as opaque data), as JSON, sent back with its tool calls.
ALTER TABLE messages ADD COLUMN thoughts TEXT NOT NULL DEFAULT '';

-- Prompt-cache reads and writes, as the provider reported them.
ALTER TABLE messages ADD COLUMN cache_read_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE messages ADD COLUMN cache_write_tokens INTEGER NOT NULL DEFAULT 0;
