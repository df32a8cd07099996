-- 0001: chats, messages, settings and providers.
-- Times are Unix milliseconds. Tables are STRICT so a wrong type is an error,
-- not a silent conversion.

CREATE TABLE chats (
    id         TEXT    PRIMARY KEY,
    title      TEXT    NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
) STRICT;

-- The sidebar lists chats by last activity.
CREATE INDEX chats_by_activity ON chats (updated_at DESC, id DESC);

CREATE TABLE messages (
    id                TEXT    PRIMARY KEY,
    chat_id           TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    role              TEXT    NOT NULL CHECK (role IN ('system', 'user', 'assistant')),
    -- No CHECK on kind: later features may add kinds, and SQLite cannot alter
    -- a CHECK without rebuilding the table. The store validates it instead.
    kind              TEXT    NOT NULL DEFAULT 'text',
    content           TEXT    NOT NULL DEFAULT '',
    reasoning         TEXT    NOT NULL DEFAULT '',
    status            TEXT    NOT NULL CHECK (status IN ('streaming', 'complete', 'interrupted', 'error')),
    error_code        TEXT    NOT NULL DEFAULT '',
    error_message     TEXT    NOT NULL DEFAULT '',
    model             TEXT    NOT NULL DEFAULT '',
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    total_tokens      INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL
) STRICT;

-- Serves ListMessages in order, and the chat_id lookups of the cascade.
CREATE INDEX messages_by_chat ON messages (chat_id, created_at, id);

-- InterruptStreaming runs at every start-up; this keeps it from scanning
-- every message ever written.
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

CREATE TABLE providers (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    base_url   TEXT    NOT NULL DEFAULT '',
    api_key    TEXT    NOT NULL DEFAULT '',
    model      TEXT    NOT NULL DEFAULT '',
    demo       INTEGER NOT NULL DEFAULT 0 CHECK (demo IN (0, 1)),
    created_at INTEGER NOT NULL
) STRICT;

-- The built-in offline demo. Its base URL is empty here: the app fills it in
-- at run time with the address of the local demo server.
INSERT INTO providers (id, name, base_url, api_key, model, demo, created_at)
VALUES ('demo', 'Demo (offline)', '', '', 'airlock-demo', 1,
        CAST(strftime('%s', 'now') AS INTEGER) * 1000);
