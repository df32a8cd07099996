-- 0015: what signing in to an MCP server left (its OAuth tokens, JSON), when
-- no system keychain answers; with a keychain the row holds "@keychain" and
-- the grant is there. Deleted (secure_delete) on sign-out and with the server.
CREATE TABLE mcp_grants (
    server     TEXT    PRIMARY KEY,
    grant_json TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
