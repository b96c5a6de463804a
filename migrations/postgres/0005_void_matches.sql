-- See migrations/sqlite/0005_void_matches.sql.
ALTER TABLE matches ADD COLUMN void_reason TEXT;
