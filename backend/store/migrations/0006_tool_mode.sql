-- 0006: how a chat's model calls tools, and what Auto learned per model.

-- text: calls written as text in the chat's paradigm (what every chat did
-- until now); native: the API's tools parameter and tool_calls; auto: native
-- where the provider and model accept it, text otherwise.
ALTER TABLE chats ADD COLUMN tool_mode TEXT NOT NULL DEFAULT 'text' CHECK (tool_mode IN ('text', 'native', 'auto'));

-- Per provider and model: what Auto learned (native or text), why and when,
-- and the user's override of it ('' = none).
CREATE TABLE model_modes (
    provider_id TEXT    NOT NULL,
    model       TEXT    NOT NULL,
    learned     TEXT    NOT NULL DEFAULT '' CHECK (learned IN ('', 'native', 'text')),
    reason      TEXT    NOT NULL DEFAULT '',
    learned_at  INTEGER NOT NULL DEFAULT 0,
    override    TEXT    NOT NULL DEFAULT '' CHECK (override IN ('', 'native', 'text')),
    PRIMARY KEY (provider_id, model)
) STRICT;
