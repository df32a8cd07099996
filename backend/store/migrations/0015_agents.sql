-- 0016: agents (named setups), each chat's agent and model, and the tools a
-- chat turns on or off one by one.

-- An agent's settings are one JSON object (chat.Agent without id, name and
-- the built-in flag): new options need no migration. Never an API key.
CREATE TABLE agents (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    builtin    INTEGER NOT NULL DEFAULT 0 CHECK (builtin IN (0, 1)),
    config     TEXT    NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- The default agent is today's global settings: the system prompt, the
-- temperature (negative meant "the provider's default"), the tool mode of
-- new chats, the turn cap and the tool timeout.
INSERT INTO agents (id, name, builtin, config, created_at, updated_at)
SELECT 'default', 'Default', 1, json_object(
    'description', 'Every tool, the model you pick. What Airlock did before agents existed.',
    'systemPrompt', coalesce((SELECT value FROM settings WHERE key = 'system_prompt'), ''),
    'temperature', (SELECT CAST(value AS REAL) FROM settings WHERE key = 'temperature' AND CAST(value AS REAL) >= 0),
    'toolMode', coalesce((SELECT value FROM settings WHERE key = 'tool_mode' AND value IN ('text', 'native', 'auto')), 'auto'),
    'paradigm', 'json',
    'tools', json_object('default', json('true')),
    'maxTurns', coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'max_turns' AND CAST(value AS INTEGER) BETWEEN 1 AND 1000), 25),
    'toolTimeoutSeconds', coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'tool_timeout_seconds' AND CAST(value AS INTEGER) BETWEEN 1 AND 3600), 30),
    'workspaceKind', 'scratch'),
    CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000;

-- Two more to start from: a reviewer that reads files and cannot change
-- them (calls one at a time), and a plain chat with no tools at all, for
-- small models that lose their way in tool instructions.
INSERT INTO agents (id, name, builtin, config, created_at, updated_at) VALUES
('reviewer', 'File reviewer (read-only)', 1, json_object(
    'description', 'Reads and searches the workspace; no tool that writes, moves or deletes is offered.',
    'systemPrompt', 'You review the files in the workspace. Read what you need with the tools, then answer with concrete findings: file, line, problem, suggested fix. You cannot change files; describe changes instead.',
    'toolMode', 'auto', 'paradigm', 'json',
    'tools', json_object('default', json('true'), 'readOnly', json('true')),
    'maxTurns', 25, 'toolTimeoutSeconds', 30, 'workspaceKind', 'scratch', 'sequential', json('true')),
    CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000),
('plain', 'Plain chat (no tools)', 1, json_object(
    'description', 'No tools and no tool instructions: the shortest prompt, for small models.',
    'systemPrompt', '', 'toolMode', 'text', 'paradigm', 'json',
    'tools', json_object('default', json('false')),
    'maxTurns', 25, 'toolTimeoutSeconds', 30, 'workspaceKind', 'scratch'),
    CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000);

-- Each chat's agent, provider and model ('' = the active provider and its
-- model), and its own tool toggles (a JSON object of name → on; '' = none).
ALTER TABLE chats ADD COLUMN agent_id TEXT NOT NULL DEFAULT 'default';
ALTER TABLE chats ADD COLUMN provider_id TEXT NOT NULL DEFAULT '';
ALTER TABLE chats ADD COLUMN model TEXT NOT NULL DEFAULT '';
ALTER TABLE chats ADD COLUMN tool_toggles TEXT NOT NULL DEFAULT '';

-- Existing chats keep talking to what is active now.
UPDATE chats SET
    provider_id = coalesce((SELECT p.id FROM providers p WHERE p.id = (SELECT value FROM settings WHERE key = 'active_provider_id')), 'demo'),
    model = coalesce((SELECT p.model FROM providers p WHERE p.id = (SELECT value FROM settings WHERE key = 'active_provider_id')),
                     (SELECT p.model FROM providers p WHERE p.id = 'demo'), '');
