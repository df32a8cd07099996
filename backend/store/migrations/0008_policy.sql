-- 0008: rules on names and arguments, with scopes, and the audit trail.

-- A rule allows or never allows a tool (a name, or a glob of names) for any
-- arguments ('any'), for paths under a folder ('path': match_path is the
-- folder or a glob, clean, relative to the workspace root) or for an exact
-- value of one argument ('exact': match_arg and match_value, JSON).
-- Scopes: 'call' (the answer message_id), 'chat' (chat_id), 'hour'
-- (expires_at), 'session' (until Airlock quits) and 'always'. Rules of the
-- 'call' and 'session' scopes carry the session_id of the run that made
-- them: they hold only in that run and are deleted at the next start.
-- chat_id NULL: every chat.
CREATE TABLE rules (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    effect       TEXT    NOT NULL CHECK (effect IN ('allow', 'deny')),
    tool         TEXT    NOT NULL CHECK (tool <> ''),
    match_kind   TEXT    NOT NULL CHECK (match_kind IN ('any', 'path', 'exact')),
    match_path   TEXT    NOT NULL DEFAULT '',
    match_arg    TEXT    NOT NULL DEFAULT '',
    match_value  TEXT    NOT NULL DEFAULT '',
    scope        TEXT    NOT NULL CHECK (scope IN ('call', 'chat', 'hour', 'session', 'always')),
    chat_id      TEXT    REFERENCES chats (id) ON DELETE CASCADE,
    message_id   TEXT    REFERENCES messages (id) ON DELETE CASCADE,
    session_id   TEXT    NOT NULL DEFAULT '',
    expires_at   INTEGER NOT NULL DEFAULT 0,
    message      TEXT    NOT NULL DEFAULT '',
    from_call    TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    uses         INTEGER NOT NULL DEFAULT 0,
    last_used_at INTEGER NOT NULL DEFAULT 0,
    CHECK (scope <> 'chat' OR chat_id IS NOT NULL),
    CHECK (scope <> 'call' OR message_id IS NOT NULL),
    CHECK ((scope IN ('call', 'session')) = (session_id <> ''))
) STRICT;

CREATE INDEX rules_by_tool ON rules (tool);
CREATE INDEX rules_by_chat ON rules (chat_id) WHERE chat_id IS NOT NULL;
CREATE INDEX rules_by_message ON rules (message_id) WHERE message_id IS NOT NULL;

-- The always-allow rules of before: a tool everywhere, or in one chat.
INSERT INTO rules (effect, tool, match_kind, scope, chat_id, created_at)
    SELECT 'allow', tool, 'any', CASE chat_id WHEN '' THEN 'always' ELSE 'chat' END, nullif(chat_id, ''), created_at
    FROM allow_rules
    WHERE chat_id = '' OR chat_id IN (SELECT id FROM chats)
    ORDER BY created_at, id;
DROP TABLE allow_rules;

-- The audit trail: one row per decision on a call, only ever appended.
-- id orders the events (and pages the Activity view); uid is global, so an
-- exported trail imports once. call_id has no foreign key: the row stays
-- when its message is deleted. Rows go with their chat. decision and
-- decided_by are checked by the store (new kinds need no table rebuild).
CREATE TABLE audit (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    uid           TEXT    NOT NULL UNIQUE,
    chat_id       TEXT    NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    call_id       TEXT    NOT NULL DEFAULT '',
    message_id    TEXT    NOT NULL DEFAULT '',
    tool          TEXT    NOT NULL DEFAULT '',
    decision      TEXT    NOT NULL,
    decided_by    TEXT    NOT NULL,
    rule_id       INTEGER NOT NULL DEFAULT 0,
    rule          TEXT    NOT NULL DEFAULT '',
    detail        TEXT    NOT NULL DEFAULT '',
    at            INTEGER NOT NULL,
    arguments     TEXT    NOT NULL DEFAULT '',
    run_arguments TEXT    NOT NULL DEFAULT '',
    preview       TEXT    NOT NULL DEFAULT '',
    result_status TEXT    NOT NULL DEFAULT '',
    duration_ms   INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX audit_by_chat ON audit (chat_id, id);
CREATE INDEX audit_by_call ON audit (call_id) WHERE call_id <> '';
