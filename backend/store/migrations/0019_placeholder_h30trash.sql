-- PLACEHOLDER on branch h30trash only: 0019 is reserved for another helper's migration.
-- Drop this file at merge (the real 0019 takes its place).
SELECT 1;
