-- outbox_by_ref leaves out our own references by naming their letters,
-- not by cutting the first character off with substr(): in SQLite a
-- function in an index's condition makes every multi-row INSERT into the
-- outbox open a statement journal. The letters are the senders' (generic,
-- the hall, Kannel, Vonage: store/reference.rs, OWN_LETTERS); a reference
-- of another letter is a provider's, and is kept in the index.
DROP INDEX outbox_by_ref;
CREATE INDEX outbox_by_ref ON outbox (provider_ref)
    WHERE provider_ref IS NOT NULL
      AND provider_ref NOT IN ('g' || CAST(id AS TEXT), 'h' || CAST(id AS TEXT),
                               'k' || CAST(id AS TEXT), 'v' || CAST(id AS TEXT));
