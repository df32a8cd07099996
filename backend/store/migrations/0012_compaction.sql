-- 0012: fitting conversations to the model's context window.

-- A summary stands for the start of a chat's conversation when the model is
-- asked: the messages of the active path up to through_id (covered of
-- them). The messages themselves are never changed or deleted: they stay
-- shown, searchable and exported. Re-running a compaction adds a new
-- version; undoing one sets its state, and the request goes back to
-- shortening old tool results only. At most one summary of a chat is
-- active at a time (the store keeps it so).
CREATE TABLE summaries (
    id            TEXT    PRIMARY KEY,
    chat_id       TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    through_id    TEXT    NOT NULL, -- the last message it covers
    covered       INTEGER NOT NULL CHECK (covered > 0),
    content       TEXT    NOT NULL,
    model         TEXT    NOT NULL DEFAULT '',
    tokens_before INTEGER NOT NULL DEFAULT 0, -- what the covered messages took, estimated
    tokens_after  INTEGER NOT NULL DEFAULT 0, -- what the summary takes
    version       INTEGER NOT NULL CHECK (version > 0),
    state         TEXT    NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'undone', 'replaced')),
    created_at    INTEGER NOT NULL
) STRICT;

CREATE INDEX summaries_by_chat ON summaries (chat_id, created_at, id);

-- Per chat: whether Airlock writes a summary by itself when old messages
-- must be left out (auto), asks first, or never does (off). No row: auto.
CREATE TABLE chat_compaction (
    chat_id TEXT PRIMARY KEY REFERENCES chats (id) ON DELETE CASCADE,
    mode    TEXT NOT NULL CHECK (mode IN ('auto', 'ask', 'off'))
) STRICT;
