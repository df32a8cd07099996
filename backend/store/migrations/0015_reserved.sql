-- 0015: a placeholder on branch h24 for a number reserved by another branch.
-- The lead replaces it with that branch's migration when merging.
SELECT 1;
