-- How many times a robot's turn has been claimed: a search that panics (or
-- takes its instance down) is retried after its lease, and after a few
-- claims the turn is given up instead of retried for ever.
ALTER TABLE robot_turns ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
