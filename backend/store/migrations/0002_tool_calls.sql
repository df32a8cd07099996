-- 0002: tool calls and their decisions, always-allow rules, per-chat options.

ALTER TABLE chats ADD COLUMN paradigm TEXT NOT NULL DEFAULT 'json';
ALTER TABLE chats ADD COLUMN recognize_others INTEGER NOT NULL DEFAULT 1 CHECK (recognize_others IN (0, 1));

CREATE TABLE tool_calls (
    id            TEXT    PRIMARY KEY,
    model_call_id TEXT    NOT NULL,
    chat_id       TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    message_id    TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    idx           INTEGER NOT NULL,
    name          TEXT    NOT NULL DEFAULT '',
    arguments     TEXT    NOT NULL DEFAULT '{}',
    edited        TEXT    NOT NULL DEFAULT '',
    raw           TEXT    NOT NULL DEFAULT '',
    format        TEXT    NOT NULL DEFAULT '',
    state         TEXT    NOT NULL CHECK (state IN ('pending', 'approved', 'running', 'done', 'error', 'denied', 'interrupted', 'problem')),
    problem       TEXT    NOT NULL DEFAULT '',
    guard         TEXT    NOT NULL DEFAULT '',
    decided_by    TEXT    NOT NULL DEFAULT '',
    decided_at    INTEGER NOT NULL DEFAULT 0,
    reason        TEXT    NOT NULL DEFAULT '',
    result        TEXT    NOT NULL DEFAULT '',
    result_status TEXT    NOT NULL DEFAULT '',
    truncated     INTEGER NOT NULL DEFAULT 0,
    started_at    INTEGER NOT NULL DEFAULT 0,
    finished_at   INTEGER NOT NULL DEFAULT 0,
    preview       TEXT    NOT NULL DEFAULT '',
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
) STRICT;

CREATE INDEX tool_calls_by_message ON tool_calls (message_id, idx);
CREATE INDEX tool_calls_by_chat ON tool_calls (chat_id, created_at, idx);
-- Start-up marks calls that were running when the app died.
CREATE INDEX tool_calls_running ON tool_calls (state) WHERE state = 'running';

CREATE TABLE allow_rules (
    id         TEXT    PRIMARY KEY,
    tool       TEXT    NOT NULL,
    chat_id    TEXT    NOT NULL DEFAULT '', -- '' means every chat
    created_at INTEGER NOT NULL,
    UNIQUE (tool, chat_id)
) STRICT;
