-- 0007: checkpoints (what a real folder held before a change, for Undo) and
-- the pending changes of overlay workspaces (so they survive a quit or a crash).

-- One change to a real folder: a folder workspace's tool run, or an
-- overlay's Apply. Its paths are saved before the folder is written
-- (complete = 0), and what the change left is added once it is done.
CREATE TABLE checkpoints (
    id         TEXT    PRIMARY KEY, -- chat.NewID: sorts by creation
    chat_id    TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    call_id    TEXT    NOT NULL DEFAULT '', -- the tool call ('' for a run by hand or an Apply)
    tool       TEXT    NOT NULL DEFAULT '', -- the tool's name, or 'apply'
    dir        TEXT    NOT NULL,            -- the real folder
    created_at INTEGER NOT NULL,            -- Unix ms
    complete   INTEGER NOT NULL DEFAULT 0 CHECK (complete IN (0, 1)),
    bytes      INTEGER NOT NULL DEFAULT 0,  -- contents kept
    undone_at  INTEGER NOT NULL DEFAULT 0,
    dropped_at INTEGER NOT NULL DEFAULT 0   -- contents dropped to keep the chat under its cap
) STRICT;
CREATE INDEX checkpoints_by_chat ON checkpoints (chat_id, id);

-- Each path a change touched: what it held before (with the content, when
-- kept) and after. kind: absent, file, dir, link (or unreadable).
CREATE TABLE checkpoint_paths (
    checkpoint_id TEXT    NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL, -- the order the paths were first touched
    path          TEXT    NOT NULL,
    follow        INTEGER NOT NULL DEFAULT 0 CHECK (follow IN (0, 1)),
    before_kind   TEXT    NOT NULL,
    before_mode   INTEGER NOT NULL DEFAULT 0,
    before_size   INTEGER NOT NULL DEFAULT 0,
    before_mtime  INTEGER NOT NULL DEFAULT 0, -- Unix ns
    before_hash   BLOB,
    content       BLOB,                       -- NULL: not kept, or dropped
    kept          INTEGER NOT NULL DEFAULT 0 CHECK (kept IN (0, 1)),
    note          TEXT    NOT NULL DEFAULT '',
    after_kind    TEXT    NOT NULL DEFAULT '',
    after_mode    INTEGER NOT NULL DEFAULT 0,
    after_size    INTEGER NOT NULL DEFAULT 0,
    after_mtime   INTEGER NOT NULL DEFAULT 0,
    after_hash    BLOB,
    PRIMARY KEY (checkpoint_id, path)
) STRICT;

-- An overlay's pending changes, per chat and folder: the layer's folders
-- and files, and the paths of the folder the model deleted (whiteouts).
CREATE TABLE overlay_entries (
    chat_id  TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    dir      TEXT    NOT NULL,
    path     TEXT    NOT NULL,
    kind     TEXT    NOT NULL CHECK (kind IN ('file', 'dir', 'whiteout')),
    mode     INTEGER NOT NULL DEFAULT 0,
    mod_time INTEGER NOT NULL DEFAULT 0, -- Unix ns
    content  BLOB    NOT NULL DEFAULT x'',
    PRIMARY KEY (chat_id, dir, path, kind)
) STRICT;

-- What the disk held when the overlay first touched each path: Apply
-- refuses a file that changed on disk since.
CREATE TABLE overlay_seen (
    chat_id  TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    dir      TEXT    NOT NULL,
    path     TEXT    NOT NULL,
    present  INTEGER NOT NULL CHECK (present IN (0, 1)),
    is_dir   INTEGER NOT NULL DEFAULT 0 CHECK (is_dir IN (0, 1)),
    size     INTEGER NOT NULL DEFAULT 0,
    mod_time INTEGER NOT NULL DEFAULT 0, -- Unix ns
    hash     BLOB,                       -- NULL: the content was not read
    PRIMARY KEY (chat_id, dir, path)
) STRICT;
