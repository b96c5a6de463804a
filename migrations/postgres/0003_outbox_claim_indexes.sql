-- The claim walks queued texts in id order and stops once it has enough (it
-- used to read every pending text and sort them, O(backlog) per claim);
-- expired leases are found apart, by their own index.
CREATE INDEX outbox_queued ON outbox (id) WHERE status = 'queued';
CREATE INDEX outbox_leased ON outbox (lease_until) WHERE status = 'sending';
