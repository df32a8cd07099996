-- 0012: a rule on one MCP tool follows that tool (its server and the name
-- the server gives it), not the sanitised name Airlock offers the model:
-- when a server's list changes so that two tools compete for a sanitised
-- name, the rule never moves to the other tool. Empty for Airlock's own
-- tools and for globs.
ALTER TABLE rules ADD COLUMN tool_server TEXT NOT NULL DEFAULT '';
ALTER TABLE rules ADD COLUMN tool_remote TEXT NOT NULL DEFAULT '';
