-- 0009: what is known of each provider's model context window.

-- Per provider and model: the last discovery (the server's own word or the
-- table of well-known models: window, the model's own maximum, the window
-- a loaded model runs with, the answer limit, where it came from, a note
-- for people), the window an overflow error stated, and what the user set
-- (0 = not set; the user's window wins). Tokens throughout.
CREATE TABLE model_windows (
    provider_id         TEXT    NOT NULL,
    model               TEXT    NOT NULL,
    discovered          INTEGER NOT NULL DEFAULT 0 CHECK (discovered >= 0),
    discovered_max      INTEGER NOT NULL DEFAULT 0 CHECK (discovered_max >= 0),
    discovered_loaded   INTEGER NOT NULL DEFAULT 0 CHECK (discovered_loaded >= 0),
    discovered_output   INTEGER NOT NULL DEFAULT 0 CHECK (discovered_output >= 0),
    source              TEXT    NOT NULL DEFAULT '',
    note                TEXT    NOT NULL DEFAULT '',
    discovered_at       INTEGER NOT NULL DEFAULT 0,
    learned             INTEGER NOT NULL DEFAULT 0 CHECK (learned >= 0),
    learned_reason      TEXT    NOT NULL DEFAULT '',
    learned_at          INTEGER NOT NULL DEFAULT 0,
    user_window         INTEGER NOT NULL DEFAULT 0 CHECK (user_window >= 0),
    user_max_output     INTEGER NOT NULL DEFAULT 0 CHECK (user_max_output >= 0),
    updated_at          INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (provider_id, model)
) STRICT;
