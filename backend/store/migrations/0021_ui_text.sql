-- 0021: the sentence of a failed call or answer coded for the UI's
-- language ({"code", "params", "english"} as JSON; '' when uncoded). The
-- English in result / error_message stays what the model and exports read.
ALTER TABLE tool_calls ADD COLUMN result_text TEXT NOT NULL DEFAULT '';
ALTER TABLE messages ADD COLUMN error_text TEXT NOT NULL DEFAULT '';
ALTER TABLE checkpoint_paths ADD COLUMN note_text TEXT NOT NULL DEFAULT '';
