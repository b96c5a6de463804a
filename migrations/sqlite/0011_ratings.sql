-- Players' standing per game: a rating (on Glicko's scale, whichever
-- system moved it), how many rated games made it, and what every finished
-- match he played there came to. Robots have no row: they play at fixed ratings.
CREATE TABLE ratings (
    player_id    INTEGER NOT NULL REFERENCES players (id),
    game         TEXT NOT NULL,
    rating       REAL NOT NULL,
    deviation    REAL NOT NULL,
    volatility   REAL NOT NULL,
    -- the rating rounded, as players read it: TOP ranks by it, so that
    -- ratings that read alike share a place
    points       INTEGER NOT NULL,
    rated_games  INTEGER NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    draws        INTEGER NOT NULL,
    losses       INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_top ON ratings (game, points);

-- What one rated match did to each player's rating, for LAST and his page.
CREATE TABLE rating_changes (
    match_id       INTEGER NOT NULL REFERENCES matches (id),
    player_id      INTEGER NOT NULL REFERENCES players (id),
    rating_before  REAL NOT NULL,
    rating_after   REAL NOT NULL,
    PRIMARY KEY (match_id, player_id)
);
