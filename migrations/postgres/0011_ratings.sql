-- Players' standing per game: a rating (on Glicko's scale, whichever
-- system moved it), how many rated games made it, and what every finished
-- match he played there came to. Robots have no row: they play at fixed ratings.
CREATE TABLE ratings (
    player_id    BIGINT NOT NULL REFERENCES players (id),
    game         TEXT NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    -- the rating rounded, as players read it: TOP ranks by it, so that
    -- ratings that read alike share a place
    points       BIGINT NOT NULL,
    rated_games  BIGINT NOT NULL,
    games        BIGINT NOT NULL,
    wins         BIGINT NOT NULL,
    draws        BIGINT NOT NULL,
    losses       BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_top ON ratings (game, points);

-- What one rated match did to each player's rating, for LAST and his page.
CREATE TABLE rating_changes (
    match_id       BIGINT NOT NULL REFERENCES matches (id),
    player_id      BIGINT NOT NULL REFERENCES players (id),
    rating_before  DOUBLE PRECISION NOT NULL,
    rating_after   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, player_id)
);
