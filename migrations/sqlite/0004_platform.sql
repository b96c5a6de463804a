-- The platform for every game: options a match and a lobby place were asked
-- with, robot seats, each seat's result, typed moves with the generator's
-- position after them, and robots' turns as durable jobs.

ALTER TABLE lobby ADD COLUMN options TEXT NOT NULL DEFAULT '';
DROP INDEX lobby_queue;
-- `P WB 6` waits only for another `P WB 6`.
CREATE INDEX lobby_queue ON lobby (game, options, queued_at);

ALTER TABLE matches ADD COLUMN options TEXT NOT NULL DEFAULT '';
-- Counts the turns that moved on: a robot's move for an older turn is dropped.
ALTER TABLE matches ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;

-- A seat is a player's or a robot's (SQLite cannot drop NOT NULL in place).
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
);
INSERT INTO match_seats_new (match_id, seat, player_id, missed, rematch_at, message_sent)
    SELECT match_id, seat, player_id, missed, rematch_at, message_sent FROM match_seats;
DROP TABLE match_seats;
ALTER TABLE match_seats_new RENAME TO match_seats;
CREATE INDEX seats_by_player ON match_seats (player_id, match_id);

-- 'move' (texted or a robot's), 'null' (played for an absent seat) or
-- 'withdrawal' (then `move` says why); the words 'resign' and 'forfeit'
-- stood for the last before.
ALTER TABLE match_moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'move';
-- the seeded generator's position after the move (u128 as text; unknown for older moves)
ALTER TABLE match_moves ADD COLUMN rng_pos TEXT;
UPDATE match_moves SET kind = 'withdrawal', move = 'resigned' WHERE move = 'resign';
UPDATE match_moves SET kind = 'withdrawal', move = 'absent' WHERE move = 'forfeit';
UPDATE match_moves SET kind = 'null' WHERE automatic = 1 AND kind = 'move';

-- A robot seat's turn, due to be computed; claimed with a lease, so that
-- after a crash another instance (or this one, restarted) takes it over.
CREATE TABLE robot_turns (
    match_id     INTEGER NOT NULL REFERENCES matches (id),
    seat         INTEGER NOT NULL,
    turn         INTEGER NOT NULL,
    due_at       INTEGER NOT NULL,
    lease_until  INTEGER,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX robot_turns_due ON robot_turns (due_at);
