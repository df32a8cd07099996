-- 0019: an agent's approval defaults (chat.ApprovalMode): which rules
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
