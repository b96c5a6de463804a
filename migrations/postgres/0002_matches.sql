-- Lobby, matches, seats and the full move record (see migrations/sqlite/0002_matches.sql).

CREATE TABLE lobby (
    player_id  BIGINT PRIMARY KEY REFERENCES players (id),
    game       TEXT NOT NULL,
    queued_at  BIGINT NOT NULL
);
CREATE INDEX lobby_queue ON lobby (game, queued_at);

CREATE TABLE matches (
    id                   BIGSERIAL PRIMARY KEY,
    game                 TEXT NOT NULL,
    state                TEXT NOT NULL,
    seed                 BIGINT NOT NULL,
    rng_pos              TEXT NOT NULL,
    finished             BOOLEAN NOT NULL DEFAULT FALSE,
    deadline_at          BIGINT,
    rematch_deadline_at  BIGINT,
    rematch_of           BIGINT REFERENCES matches (id),
    started_at           BIGINT NOT NULL,
    finished_at          BIGINT,
    initial_state        TEXT NOT NULL
);
CREATE INDEX matches_deadline ON matches (deadline_at) WHERE NOT finished;
CREATE INDEX matches_rematch ON matches (rematch_deadline_at) WHERE rematch_deadline_at IS NOT NULL;

CREATE TABLE match_seats (
    match_id      BIGINT NOT NULL REFERENCES matches (id),
    seat          INTEGER NOT NULL,
    player_id     BIGINT NOT NULL REFERENCES players (id),
    missed        INTEGER NOT NULL DEFAULT 0,
    rematch_at    BIGINT,
    message_sent  BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_by_player ON match_seats (player_id, match_id);

CREATE TABLE match_moves (
    match_id     BIGINT NOT NULL REFERENCES matches (id),
    ply          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    move         TEXT NOT NULL,
    automatic    BOOLEAN NOT NULL DEFAULT FALSE,
    at           BIGINT NOT NULL,
    state_after  TEXT NOT NULL,
    PRIMARY KEY (match_id, ply)
);
