-- See migrations/sqlite/0007_inbound_parts.sql.
CREATE TABLE inbound_parts (
    provider     TEXT NOT NULL,
    provider_id  TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    PRIMARY KEY (provider, provider_id)
);

ALTER TABLE inbound_fragments ADD COLUMN provider_id TEXT NOT NULL DEFAULT '';
ALTER TABLE inbound_fragments ALTER COLUMN provider_id DROP DEFAULT;
ALTER TABLE inbound_fragments DROP CONSTRAINT inbound_fragments_pkey;
ALTER TABLE inbound_fragments ADD PRIMARY KEY (provider, from_phone, concat_ref, total, part);
