-- 0005: MCP servers, the servers a chat offers, and images in tool results.

-- One row per MCP server. config is the server's settings as JSON (command,
-- args, env, working folder; or URL and headers). Its env values and
-- headers may hold secrets: like API keys they stay in this file and never
-- go into exports or logs.
CREATE TABLE mcp_servers (
    name       TEXT    PRIMARY KEY,
    enabled    INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    config     TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- The servers whose tools a chat offers: NULL means every enabled server
-- (the default, so a server added later shows up), otherwise a JSON array
-- of server names.
ALTER TABLE chats ADD COLUMN mcp_servers TEXT;

-- Pictures a tool returned (an MCP server's image content), a JSON array of
-- {mime, data}; '' when there are none. Shown on the card, not searched.
ALTER TABLE tool_calls ADD COLUMN result_images TEXT NOT NULL DEFAULT '';
