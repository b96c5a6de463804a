-- Parts of a long inbound text (Vonage's concatenated SMS: concat-ref,
-- concat-part, concat-total), kept until the last one arrives; then the whole
-- text is handled as one and its parts deleted. Times are Unix milliseconds.
CREATE TABLE inbound_fragments (
    provider     TEXT NOT NULL,
    from_phone   TEXT NOT NULL,
    concat_ref   TEXT NOT NULL,
    part         INTEGER NOT NULL,
    total        INTEGER NOT NULL,
    body         TEXT NOT NULL,
    received_at  INTEGER NOT NULL,
    PRIMARY KEY (provider, from_phone, concat_ref, part)
);

-- Parts that never complete are dropped by age.
CREATE INDEX inbound_fragments_by_age ON inbound_fragments (received_at);
