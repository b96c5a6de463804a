-- Players, inbound log and outbox. Times are Unix milliseconds (UTC); the same schema as SQLite's.

CREATE TABLE players (
    id          BIGSERIAL PRIMARY KEY,
    phone       TEXT NOT NULL UNIQUE,
    nick        TEXT,
    -- lower-cased nick: uniqueness is case-insensitive
    nick_key    TEXT UNIQUE,
    lang        TEXT NOT NULL DEFAULT 'RU',
    opted_out   BOOLEAN NOT NULL DEFAULT FALSE,
    away        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE inbound (
    id           BIGSERIAL PRIMARY KEY,
    provider     TEXT NOT NULL,
    provider_id  TEXT NOT NULL,
    from_phone   TEXT NOT NULL,
    to_number    TEXT NOT NULL,
    body         TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    UNIQUE (provider, provider_id)
);

CREATE TABLE outbox (
    id               BIGSERIAL PRIMARY KEY,
    from_number      TEXT NOT NULL,
    to_phone         TEXT NOT NULL,
    body             TEXT NOT NULL,
    encoding         TEXT NOT NULL,
    parts            INTEGER NOT NULL,
    status           TEXT NOT NULL DEFAULT 'queued',
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT NOT NULL,
    lease_until      BIGINT,
    provider_ref     TEXT,
    last_error       TEXT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);

CREATE INDEX outbox_pending ON outbox (status, next_attempt_at) WHERE status IN ('queued', 'sending');
CREATE INDEX outbox_by_phone ON outbox (to_phone, id) WHERE status IN ('queued', 'sending');
CREATE INDEX outbox_by_ref ON outbox (provider_ref) WHERE provider_ref IS NOT NULL;
