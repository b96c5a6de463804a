-- A reference made of a letter and the text's own id (`g12`, `k12`, `h12`)
-- is found by the id: only the references a provider gave are kept in
-- outbox_by_ref, which every text sent used to enter.
DROP INDEX outbox_by_ref;
CREATE INDEX outbox_by_ref ON outbox (provider_ref)
    WHERE provider_ref IS NOT NULL
      AND provider_ref <> (substr(provider_ref, 1, 1) || CAST(id AS TEXT));
