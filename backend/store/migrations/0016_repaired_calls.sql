-- 0015: a call whose closers Airlock added because the message ended without
-- them (issue 28). A person must approve it: no rule runs it by itself.

ALTER TABLE tool_calls ADD COLUMN repaired INTEGER NOT NULL DEFAULT 0 CHECK (repaired IN (0, 1));
