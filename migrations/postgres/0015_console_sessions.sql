-- The console's logins, one row each, so that logging out ends one on the
-- server and not only in the browser. The cookie holds a random id; this
-- table holds its SHA-256, so a copy of the database opens no session.
CREATE TABLE console_sessions (
    id_hash     TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
-- Sessions past their end, cleaned at each login.
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
