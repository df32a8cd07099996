-- PLACEHOLDER on branch h30trash only: 0021 is reserved for another helper's migration.
-- Drop this file at merge (the real 0021 takes its place).
SELECT 1;
