-- A match's seats stored together in key order (WITHOUT ROWID): every text of
-- a match reads all its seats, which took an index search and then a table
-- search per seat; now it is one search and the rows that follow it. The
-- rows are small (a seat's numbers), as such tables' rows should be.
CREATE TABLE match_seats_new (
    match_id      INTEGER NOT NULL REFERENCES matches (id),
    seat          INTEGER NOT NULL,
    player_id     INTEGER REFERENCES players (id),
    -- the robot's level when the server plays the seat
    robot_level   INTEGER,
    missed        INTEGER NOT NULL DEFAULT 0,
    rematch_at    INTEGER,
    message_sent  INTEGER NOT NULL DEFAULT 0,
    -- the standing at the end: place 1 is best, and a score where the game counts
    place         INTEGER,
    score         INTEGER,
    PRIMARY KEY (match_id, seat),
    CHECK ((player_id IS NULL) <> (robot_level IS NULL))
) WITHOUT ROWID;
INSERT INTO match_seats_new
    SELECT match_id, seat, player_id, robot_level, missed, rematch_at, message_sent, place, score
    FROM match_seats;
DROP TABLE match_seats;
ALTER TABLE match_seats_new RENAME TO match_seats;
CREATE INDEX seats_by_player ON match_seats (player_id, match_id);
