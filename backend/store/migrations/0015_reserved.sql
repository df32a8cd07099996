-- Reserved for another branch (issue 32 needs 0019 to apply); replaced when that branch merges.
SELECT 1;
