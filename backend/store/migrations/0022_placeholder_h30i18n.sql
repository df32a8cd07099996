-- 0022: a placeholder on branch h30i18n, which holds 0023; the lead renumbers at merge (drop this file).
SELECT 1;
