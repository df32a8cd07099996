-- 0020: an agent's approval defaults (chat.ApprovalMode): which rules
-- decide the calls of its chats. Agents kept so far go on as before (your
-- rules decide); the built-in file reviewer runs its read-only tools
-- without asking inside the workspace, as long as nobody changed it to
-- something else.
UPDATE agents SET config = json_set(config, '$.approval', 'reads',
        '$.description', 'Reads and searches the workspace, without asking; no tool that writes, moves or deletes is offered.')
    WHERE id = 'reviewer' AND builtin = 1 AND json_extract(config, '$.approval') IS NULL
      AND json_extract(config, '$.tools.readOnly') = 1;
UPDATE agents SET config = json_set(config, '$.approval', 'rules')
    WHERE json_valid(config) AND json_extract(config, '$.approval') IS NULL;

-- A chat's tool mode and call format follow its agent at every turn, unless
-- the chat chose its own in Chat options (tool_mode_own, paradigm_own).
-- Until now the agent's were copied into the chat when it was picked, so a
-- chat whose values differ from its agent's chose them itself.
ALTER TABLE chats ADD COLUMN tool_mode_own INTEGER NOT NULL DEFAULT 0 CHECK (tool_mode_own IN (0, 1));
ALTER TABLE chats ADD COLUMN paradigm_own INTEGER NOT NULL DEFAULT 0 CHECK (paradigm_own IN (0, 1));
UPDATE chats SET
    tool_mode_own = tool_mode IS NOT coalesce(
        (SELECT json_extract(a.config, '$.toolMode') FROM agents a WHERE a.id = chats.agent_id),
        (SELECT json_extract(a.config, '$.toolMode') FROM agents a WHERE a.id = 'default'), 'auto'),
    paradigm_own = paradigm IS NOT coalesce(
        (SELECT json_extract(a.config, '$.paradigm') FROM agents a WHERE a.id = chats.agent_id),
        (SELECT json_extract(a.config, '$.paradigm') FROM agents a WHERE a.id = 'default'), 'json');
