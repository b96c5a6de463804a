-- The training hall's virtual phones: a number the hall handed out and the
-- SHA-256 of the token that is its key (the token itself lives only in the
-- visitor's browser), so that no page reads another phone's thread.
CREATE TABLE hall_phones (
    number      TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
