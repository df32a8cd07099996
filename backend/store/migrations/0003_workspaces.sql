-- 0003: each chat's workspace, and the files of scratch workspaces.

ALTER TABLE chats ADD COLUMN workspace_kind TEXT NOT NULL DEFAULT 'scratch' CHECK (workspace_kind IN ('scratch', 'folder', 'overlay'));
ALTER TABLE chats ADD COLUMN workspace_dir TEXT NOT NULL DEFAULT '';

-- A scratch workspace lives in memory; its files are saved here after every
-- change so they survive a restart.
CREATE TABLE scratch_files (
    chat_id  TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    path     TEXT    NOT NULL,
    is_dir   INTEGER NOT NULL DEFAULT 0 CHECK (is_dir IN (0, 1)),
    mode     INTEGER NOT NULL DEFAULT 0,
    mod_time INTEGER NOT NULL DEFAULT 0, -- Unix nanoseconds
    content  BLOB    NOT NULL DEFAULT x'',
    PRIMARY KEY (chat_id, path)
) STRICT;
