-- 0004: message versions as a tree, pinned chats, full-text search.

-- Versions. Each message points at the message before it on its
-- conversation path ('' for the first); messages sharing a parent and a role
-- are versions of one turn. chats.leaf_id is the last message of the active
-- path. No foreign key on either: a self-referencing cascade would recurse
-- once per message (SQLite caps trigger depth at 1000), and the store keeps
-- both consistent itself (DeleteMessage removes a whole subtree).
ALTER TABLE messages ADD COLUMN parent_id TEXT NOT NULL DEFAULT '';
ALTER TABLE chats ADD COLUMN leaf_id TEXT NOT NULL DEFAULT '';
ALTER TABLE chats ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));

-- Until now a chat was one line of messages in (created_at, id) order.
WITH ordered AS (
    SELECT id, lag(id, 1, '') OVER (PARTITION BY chat_id ORDER BY created_at, id) AS prev
    FROM messages
)
UPDATE messages SET parent_id = ordered.prev FROM ordered WHERE ordered.id = messages.id;

UPDATE chats SET leaf_id = coalesce(
    (SELECT m.id FROM messages m WHERE m.chat_id = chats.id ORDER BY m.created_at DESC, m.id DESC LIMIT 1), '');

-- Children of a message (switching versions, deleting a subtree) and the
-- versions of a turn (same parent and role, in creation order).
CREATE INDEX messages_by_parent ON messages (chat_id, parent_id, role, created_at, id);

-- The sidebar: pinned chats first, then by last activity.
DROP INDEX chats_by_activity;
CREATE INDEX chats_by_pin_activity ON chats (pinned DESC, updated_at DESC, id DESC);

-- Search.
--
-- Whether a message's or call's text holds CJK characters (see below). The
-- store sets it on every write; here it is computed once for what exists.
ALTER TABLE messages ADD COLUMN cjk INTEGER NOT NULL DEFAULT 0 CHECK (cjk IN (0, 1));
ALTER TABLE tool_calls ADD COLUMN cjk INTEGER NOT NULL DEFAULT 0 CHECK (cjk IN (0, 1));
UPDATE messages SET cjk = 1 WHERE (content || reasoning) GLOB ('*[' ||
          char(0x1100, 0x2D, 0x11FF) || char(0x2E80, 0x2D, 0x9FFF) || char(0xA960, 0x2D, 0xA97F) || char(0xAC00, 0x2D, 0xD7FF) ||
          char(0xF900, 0x2D, 0xFAFF) || char(0xFF00, 0x2D, 0xFFEF) || char(0x1B000, 0x2D, 0x1B16F) || char(0x20000, 0x2D, 0x3FFFD) || ']*');
UPDATE tool_calls SET cjk = 1 WHERE (name || arguments || edited || result) GLOB ('*[' ||
          char(0x1100, 0x2D, 0x11FF) || char(0x2E80, 0x2D, 0x9FFF) || char(0xA960, 0x2D, 0xA97F) || char(0xAC00, 0x2D, 0xD7FF) ||
          char(0xF900, 0x2D, 0xFAFF) || char(0xFF00, 0x2D, 0xFFEF) || char(0x1B000, 0x2D, 0x1B16F) || char(0x20000, 0x2D, 0x3FFFD) || ']*');
--
-- Every message and tool call gets a document number here: FTS5 needs an
-- integer rowid, and the implicit rowids of messages and tool_calls may be
-- renumbered by VACUUM (they have TEXT primary keys).
CREATE TABLE search_docs (
    doc        INTEGER PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind IN ('message', 'tool_call')),
    ref        TEXT    NOT NULL, -- messages.id or tool_calls.id
    chat_id    TEXT    NOT NULL,
    message_id TEXT    NOT NULL, -- the message, or the message that proposed the call
    UNIQUE (kind, ref)
) STRICT;

CREATE INDEX search_docs_by_chat ON search_docs (chat_id, message_id);

-- What is indexed, as one view: a message's text and reasoning, a call's
-- name and arguments (as proposed, and as edited) and its result. Streaming
-- messages are left out until they settle, so the 250 ms saves of a growing
-- answer cost no indexing. U+0002 and U+0003 are the snippet highlight
-- markers, so they are blanked out of the text.
--
-- The full-text tables below are "external content" tables reading this
-- view: the text is not stored twice. The triggers keep them in step, and
-- read the values to add and remove from the view itself, so what is
-- removed is always exactly what was added.
CREATE VIEW search_content AS
SELECT d.doc AS doc,
       replace(replace(m.content, char(2), ' '), char(3), ' ') AS body,
       replace(replace(m.reasoning, char(2), ' '), char(3), ' ') AS aux,
       m.cjk AS cjk
FROM search_docs d JOIN messages m ON m.id = d.ref
WHERE d.kind = 'message' AND m.status != 'streaming'
UNION ALL
SELECT d.doc AS doc,
       replace(replace(c.name || char(10) || c.arguments || CASE WHEN c.edited != '' THEN char(10) || c.edited ELSE '' END,
               char(2), ' '), char(3), ' ') AS body,
       replace(replace(c.result, char(2), ' '), char(3), ' ') AS aux,
       c.cjk AS cjk
FROM search_docs d JOIN tool_calls c ON c.id = d.ref
WHERE d.kind = 'tool_call';

-- Words: unicode61 folds case and diacritics; prefix indexes make the
-- search-as-you-type prefix match on the last word cheap.
CREATE VIRTUAL TABLE search_fts USING fts5 (
    body, aux,
    content = 'search_content', content_rowid = 'doc',
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);

-- Chinese, Japanese and Korean are written without spaces, so unicode61
-- reads a whole sentence as one "word". Documents holding CJK characters
-- (the cjk flag) are also indexed by trigram (substring) here; queries with
-- CJK characters use it. The character ranges match isCJK in search.go.
-- Two-character CJK terms are below the trigram index; they are found by
-- scanning the CJK documents, which these hold.
CREATE INDEX messages_cjk ON messages (chat_id) WHERE cjk = 1;
CREATE INDEX tool_calls_cjk ON tool_calls (chat_id) WHERE cjk = 1;

CREATE VIEW search_content_cjk AS
SELECT doc, body, aux FROM search_content WHERE cjk = 1;

CREATE VIRTUAL TABLE search_cjk USING fts5 (
    body, aux,
    content = 'search_content_cjk', content_rowid = 'doc',
    tokenize = 'trigram'
);

-- Best matches first; text counts more than reasoning or results.
INSERT INTO search_fts (search_fts, rank) VALUES ('rank', 'bm25(1.0, 0.5)');
INSERT INTO search_cjk (search_cjk, rank) VALUES ('rank', 'bm25(1.0, 0.5)');

-- A bulk import pauses the indexing of inserted rows (a row here, inside
-- its transaction) and indexes them all in one statement at the end: FTS5
-- writes its pending index to disk at every statement that changes it, so
-- row by row an import of 10,000 messages wrote 10,000 tiny segments.
CREATE TABLE search_pause (one INTEGER PRIMARY KEY CHECK (one = 1)) STRICT;

-- Messages.
CREATE TRIGGER search_message_insert AFTER INSERT ON messages BEGIN
    INSERT INTO search_docs (kind, ref, chat_id, message_id) VALUES ('message', new.id, new.chat_id, new.id);
    INSERT INTO search_fts (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = new.id)
        AND NOT EXISTS (SELECT 1 FROM search_pause);
    INSERT INTO search_cjk (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = new.id)
        AND NOT EXISTS (SELECT 1 FROM search_pause);
END;

-- Saving a streaming answer (streaming before and after) touches nothing.
CREATE TRIGGER search_message_update_before BEFORE UPDATE OF content, reasoning, status, cjk ON messages
WHEN (old.content IS NOT new.content OR old.reasoning IS NOT new.reasoning OR old.status IS NOT new.status
      OR old.cjk IS NOT new.cjk)
     AND NOT (old.status = 'streaming' AND new.status = 'streaming')
BEGIN
    INSERT INTO search_fts (search_fts, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = old.id);
    INSERT INTO search_cjk (search_cjk, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = old.id);
END;

CREATE TRIGGER search_message_update_after AFTER UPDATE OF content, reasoning, status, cjk ON messages
WHEN (old.content IS NOT new.content OR old.reasoning IS NOT new.reasoning OR old.status IS NOT new.status
      OR old.cjk IS NOT new.cjk)
     AND NOT (old.status = 'streaming' AND new.status = 'streaming')
BEGIN
    INSERT INTO search_fts (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = new.id);
    INSERT INTO search_cjk (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = new.id);
END;

CREATE TRIGGER search_message_delete BEFORE DELETE ON messages BEGIN
    INSERT INTO search_fts (search_fts, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = old.id);
    INSERT INTO search_cjk (search_cjk, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'message' AND ref = old.id);
    DELETE FROM search_docs WHERE kind = 'message' AND ref = old.id;
END;

-- Tool calls.
CREATE TRIGGER search_call_insert AFTER INSERT ON tool_calls BEGIN
    INSERT INTO search_docs (kind, ref, chat_id, message_id) VALUES ('tool_call', new.id, new.chat_id, new.message_id);
    INSERT INTO search_fts (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = new.id)
        AND NOT EXISTS (SELECT 1 FROM search_pause);
    INSERT INTO search_cjk (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = new.id)
        AND NOT EXISTS (SELECT 1 FROM search_pause);
END;

CREATE TRIGGER search_call_update_before BEFORE UPDATE OF name, arguments, edited, result, cjk ON tool_calls
WHEN old.name IS NOT new.name OR old.arguments IS NOT new.arguments OR old.edited IS NOT new.edited
     OR old.result IS NOT new.result OR old.cjk IS NOT new.cjk
BEGIN
    INSERT INTO search_fts (search_fts, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = old.id);
    INSERT INTO search_cjk (search_cjk, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = old.id);
END;

CREATE TRIGGER search_call_update_after AFTER UPDATE OF name, arguments, edited, result, cjk ON tool_calls
WHEN old.name IS NOT new.name OR old.arguments IS NOT new.arguments OR old.edited IS NOT new.edited
     OR old.result IS NOT new.result OR old.cjk IS NOT new.cjk
BEGIN
    INSERT INTO search_fts (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = new.id);
    INSERT INTO search_cjk (rowid, body, aux)
        SELECT v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = new.id);
END;

CREATE TRIGGER search_call_delete BEFORE DELETE ON tool_calls BEGIN
    INSERT INTO search_fts (search_fts, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = old.id);
    INSERT INTO search_cjk (search_cjk, rowid, body, aux)
        SELECT 'delete', v.doc, v.body, v.aux FROM search_content_cjk v
        WHERE v.doc = (SELECT doc FROM search_docs WHERE kind = 'tool_call' AND ref = old.id);
    DELETE FROM search_docs WHERE kind = 'tool_call' AND ref = old.id;
END;

-- Index what is already there.
INSERT INTO search_docs (kind, ref, chat_id, message_id)
    SELECT 'message', id, chat_id, id FROM messages ORDER BY chat_id, created_at, id;
INSERT INTO search_docs (kind, ref, chat_id, message_id)
    SELECT 'tool_call', id, chat_id, message_id FROM tool_calls ORDER BY chat_id, created_at, idx;
INSERT INTO search_fts (search_fts) VALUES ('rebuild');
INSERT INTO search_cjk (search_cjk) VALUES ('rebuild');
