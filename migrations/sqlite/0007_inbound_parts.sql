-- Each part of a long inbound text is taken once by its own provider id
-- (a provider retries and replays parts in any order), and parts join only
-- with parts that declare the same total: the total is part of a text's key.
CREATE TABLE inbound_parts (
    provider     TEXT NOT NULL,
    provider_id  TEXT NOT NULL,
    received_at  INTEGER NOT NULL,
    PRIMARY KEY (provider, provider_id)
);

CREATE TABLE inbound_fragments_new (
    provider     TEXT NOT NULL,
    from_phone   TEXT NOT NULL,
    concat_ref   TEXT NOT NULL,
    total        INTEGER NOT NULL,
    part         INTEGER NOT NULL,
    provider_id  TEXT NOT NULL,
    body         TEXT NOT NULL,
    received_at  INTEGER NOT NULL,
    PRIMARY KEY (provider, from_phone, concat_ref, total, part)
);
INSERT INTO inbound_fragments_new
    (provider, from_phone, concat_ref, total, part, provider_id, body, received_at)
    SELECT provider, from_phone, concat_ref, total, part, '', body, received_at
    FROM inbound_fragments;
DROP TABLE inbound_fragments;
ALTER TABLE inbound_fragments_new RENAME TO inbound_fragments;
CREATE INDEX inbound_fragments_by_age ON inbound_fragments (received_at);
