-- The claim walks queued texts in the order they fall due, along
-- outbox_pending (status, next_attempt_at), which stops at the limit whatever
-- the backlog; the walk in id order is gone, and with it the only reader of
-- this index, which every queued text still paid to keep.
DROP INDEX IF EXISTS outbox_queued;
