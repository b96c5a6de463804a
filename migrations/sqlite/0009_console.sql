-- The operator's console: an audit row for every action (who, what, on
-- what, when, from which address), kept apart from the game's tables; and
-- the indexes its reads need, so that a look costs the writer nothing but
-- these entries.
CREATE TABLE audit (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,
    actor    TEXT NOT NULL,
    action   TEXT NOT NULL,
    target   TEXT NOT NULL,
    address  TEXT
);
-- A player's texts in, newest first.
CREATE INDEX inbound_from ON inbound (from_phone, id);
-- Texts in a minute over the last hour.
CREATE INDEX inbound_received ON inbound (received_at);
-- Parked texts.
CREATE INDEX outbox_parked ON outbox (id) WHERE status = 'failed';
-- Matches running, per game.
CREATE INDEX matches_running ON matches (game) WHERE finished = 0;
