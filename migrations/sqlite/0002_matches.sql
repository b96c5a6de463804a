-- Lobby, matches, seats and the full move record. Times are Unix milliseconds (UTC).

CREATE TABLE lobby (
    player_id  INTEGER PRIMARY KEY REFERENCES players (id),
    game       TEXT NOT NULL,
    -- the player's place in the queue (a rematch request keeps the time of its PA)
    queued_at  INTEGER NOT NULL
);
CREATE INDEX lobby_queue ON lobby (game, queued_at);

CREATE TABLE matches (
    id                   INTEGER PRIMARY KEY,
    game                 TEXT NOT NULL,
    -- the game's state string (Display/FromStr of the game's State)
    state                TEXT NOT NULL,
    seed                 INTEGER NOT NULL,
    -- the seeded generator's position (u128 as text), so play resumes where it was
    rng_pos              TEXT NOT NULL,
    finished             INTEGER NOT NULL DEFAULT 0,
    deadline_at          INTEGER,
    rematch_deadline_at  INTEGER,
    rematch_of           INTEGER REFERENCES matches (id),
    started_at           INTEGER NOT NULL,
    finished_at          INTEGER,
    -- the opening state, so a match replays from seed and moves alone
    initial_state        TEXT NOT NULL
);
CREATE INDEX matches_deadline ON matches (deadline_at) WHERE finished = 0;
CREATE INDEX matches_rematch ON matches (rematch_deadline_at) WHERE rematch_deadline_at IS NOT NULL;

CREATE TABLE match_seats (
    match_id      INTEGER NOT NULL REFERENCES matches (id),
    seat          INTEGER NOT NULL,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    -- deadlines missed in a row
    missed        INTEGER NOT NULL DEFAULT 0,
    -- when the player asked for a rematch (PA)
    rematch_at    INTEGER,
    -- the one after-match message (S) is used
    message_sent  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_by_player ON match_seats (player_id, match_id);

CREATE TABLE match_moves (
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    ply          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    -- the move's notation; 'resign' for a resignation
    move         TEXT NOT NULL,
    -- played by the platform (deadline, timeout), not texted by the player
    automatic    INTEGER NOT NULL DEFAULT 0,
    at           INTEGER NOT NULL,
    state_after  TEXT NOT NULL,
    PRIMARY KEY (match_id, ply)
);
