-- The platform for every game (see migrations/sqlite/0004_platform.sql).

ALTER TABLE lobby ADD COLUMN options TEXT NOT NULL DEFAULT '';
DROP INDEX lobby_queue;
CREATE INDEX lobby_queue ON lobby (game, options, queued_at);

ALTER TABLE matches
    ADD COLUMN options TEXT NOT NULL DEFAULT '',
    ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;

ALTER TABLE match_seats
    ALTER COLUMN player_id DROP NOT NULL,
    ADD COLUMN robot_level INTEGER,
    ADD COLUMN place INTEGER,
    ADD COLUMN score BIGINT,
    ADD CONSTRAINT seat_occupant CHECK ((player_id IS NULL) <> (robot_level IS NULL));

ALTER TABLE match_moves
    ADD COLUMN kind TEXT NOT NULL DEFAULT 'move',
    ADD COLUMN rng_pos TEXT;
UPDATE match_moves SET kind = 'withdrawal', move = 'resigned' WHERE move = 'resign';
UPDATE match_moves SET kind = 'withdrawal', move = 'absent' WHERE move = 'forfeit';
UPDATE match_moves SET kind = 'null' WHERE automatic AND kind = 'move';

CREATE TABLE robot_turns (
    match_id     BIGINT NOT NULL REFERENCES matches (id),
    seat         INTEGER NOT NULL,
    turn         INTEGER NOT NULL,
    due_at       BIGINT NOT NULL,
    lease_until  BIGINT,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX robot_turns_due ON robot_turns (due_at);
