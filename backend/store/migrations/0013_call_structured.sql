-- 0018: a tool's structured result (tools.Output.Structured) beside its
-- text: MCP's structuredContent, and the report of a code run
-- (run_javascript, run_python) that its card shows: output, return value,
-- files changed with diffs, time and memory. Empty when there is none.
ALTER TABLE tool_calls ADD COLUMN result_structured TEXT NOT NULL DEFAULT '';
