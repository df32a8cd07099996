-- 0013: rows of the audit trail that came in an imported file are marked:
-- nothing vouches for them (their "rule:<id>" names a rule of the computer
-- they came from), so Activity and the audit exports tell them apart from
-- the decisions made here.
ALTER TABLE audit ADD COLUMN imported INTEGER NOT NULL DEFAULT 0 CHECK (imported IN (0, 1));
