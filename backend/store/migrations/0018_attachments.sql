-- 0017: files attached to messages. Bytes are stored once per content
-- (blobs, by SHA-256); message_attachments links a message to its files in
-- order. Deleting a message drops its links (cascade); blobs no message
-- uses any more are removed by the store after deletes.
CREATE TABLE blobs (
    sha256 TEXT    PRIMARY KEY,
    size   INTEGER NOT NULL,
    data   BLOB    NOT NULL
) WITHOUT ROWID;

CREATE TABLE message_attachments (
    message_id TEXT    NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('image', 'text')),
    mime       TEXT    NOT NULL,
    size       INTEGER NOT NULL,
    sha256     TEXT    NOT NULL REFERENCES blobs (sha256),
    width      INTEGER NOT NULL DEFAULT 0,
    height     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, position)
);
CREATE INDEX message_attachments_by_blob ON message_attachments (sha256);

-- Whether a model takes images: learned from a refusal, or set by the user.
CREATE TABLE model_vision (
    provider_id TEXT NOT NULL,
    model       TEXT NOT NULL,
    sees        TEXT NOT NULL CHECK (sees IN ('yes', 'no')),
    source      TEXT NOT NULL CHECK (source IN ('learned', 'user')),
    reason      TEXT NOT NULL DEFAULT '',
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (provider_id, model)
);

-- Chats that do not send tools' images to the model (on by default).
CREATE TABLE chat_tool_images_off (
    chat_id TEXT PRIMARY KEY REFERENCES chats (id) ON DELETE CASCADE
);
