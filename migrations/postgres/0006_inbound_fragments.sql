-- See migrations/sqlite/0006_inbound_fragments.sql.
CREATE TABLE inbound_fragments (
    provider     TEXT NOT NULL,
    from_phone   TEXT NOT NULL,
    concat_ref   TEXT NOT NULL,
    part         INTEGER NOT NULL,
    total        INTEGER NOT NULL,
    body         TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    PRIMARY KEY (provider, from_phone, concat_ref, part)
);

CREATE INDEX inbound_fragments_by_age ON inbound_fragments (received_at);
