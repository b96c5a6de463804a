-- The dispatcher keeps each phone's texts in order in memory (this process is
-- the only writer), so no query looks a phone's pending texts up by phone any
-- more on the hot path; the index cost an insert and a delete per text. A STOP
-- finds the phone's queued texts through outbox_pending.
DROP INDEX outbox_by_phone;
