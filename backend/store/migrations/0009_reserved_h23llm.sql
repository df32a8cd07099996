-- 0009 is reserved for the context-window table of branch h23llm. This
-- placeholder only keeps the numbering without gaps on branch h23ctx:
-- delete it when h23llm's 0009 is merged.
SELECT 1;
