-- PLACEHOLDER on branch h30trash only: 0020 is reserved for another helper's migration.
-- Drop this file at merge (the real 0020 takes its place).
SELECT 1;
