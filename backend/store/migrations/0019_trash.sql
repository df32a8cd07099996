-- 0022: the Trash. Deleting a chat sets deleted_at (Unix milliseconds)
-- instead of removing the row: the chat, its messages, calls, attachments,
-- workspace files, checkpoints, rules and audit rows all stay, so Restore
-- (deleted_at back to 0) brings it back exactly. A chat in the Trash is left
-- out of the sidebar, search and "export everything". The store deletes it
-- for good (everything goes with it by ON DELETE CASCADE, then the blobs no
-- message uses any more) when the user asks, or 30 days after deleted_at.
ALTER TABLE chats ADD COLUMN deleted_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX chats_in_trash ON chats (deleted_at) WHERE deleted_at > 0;
