-- Players, inbound log and outbox. Times are Unix milliseconds (UTC).

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    phone       TEXT NOT NULL UNIQUE,
    nick        TEXT,
    -- lower-cased nick: uniqueness is case-insensitive
    nick_key    TEXT UNIQUE,
    lang        TEXT NOT NULL DEFAULT 'RU',
    opted_out   INTEGER NOT NULL DEFAULT 0,
    away        INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE inbound (
    id           INTEGER PRIMARY KEY,
    provider     TEXT NOT NULL,
    provider_id  TEXT NOT NULL,
    from_phone   TEXT NOT NULL,
    to_number    TEXT NOT NULL,
    body         TEXT NOT NULL,
    received_at  INTEGER NOT NULL,
    UNIQUE (provider, provider_id)
);

CREATE TABLE outbox (
    id               INTEGER PRIMARY KEY,
    from_number      TEXT NOT NULL,
    to_phone         TEXT NOT NULL,
    body             TEXT NOT NULL,
    encoding         TEXT NOT NULL,
    parts            INTEGER NOT NULL,
    -- queued -> sending -> sent -> delivered | failed; cancelled when the phone opts out first
    status           TEXT NOT NULL DEFAULT 'queued',
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,
    lease_until      INTEGER,
    provider_ref     TEXT,
    last_error       TEXT,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
);

-- The dispatcher's scan: texts still to send, oldest first.
CREATE INDEX outbox_pending ON outbox (status, next_attempt_at) WHERE status IN ('queued', 'sending');
-- Per-recipient ordering and opt-out cancellation.
CREATE INDEX outbox_by_phone ON outbox (to_phone, id) WHERE status IN ('queued', 'sending');
CREATE INDEX outbox_by_ref ON outbox (provider_ref) WHERE provider_ref IS NOT NULL;
