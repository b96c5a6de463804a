-- A match whose stored state would not load is ended as void, with the
-- reason, instead of failing every text and timer that touches it.
ALTER TABLE matches ADD COLUMN void_reason TEXT;
