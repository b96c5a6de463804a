//! The writer's statements that both backends run alike: players found by
//! nick and created, the lobby joined and read, robot turns queued and done,
//! robot turns claimed, timers found due, a text parked.

use std::sync::LazyLock;

use super::Statement;
use crate::store::model::{Player, RobotTurn};
use crate::store::rows::{Record, column_list};

pub(crate) static PLAYER_BY_NICK: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "player by nick",
        format!(
            "SELECT {} FROM players p WHERE p.nick_key = :nick_key",
            column_list::<Player>("p")
        ),
    )
});

pub(crate) static CREATE_PLAYER: Statement = Statement::same(
    "create player",
    "INSERT INTO players (phone, created_at, updated_at) VALUES (:phone, :now, :now) RETURNING id",
);

/// Joins a queue, or moves to another one; one already in it keeps his
/// place and changes no row.
pub(crate) static JOIN_LOBBY: Statement = Statement::same(
    "join lobby",
    "INSERT INTO lobby (player_id, game, options, queued_at)
     VALUES (:player_id, :game, :options, :queued_at)
     ON CONFLICT (player_id) DO UPDATE
     SET game = excluded.game, options = excluded.options, queued_at = excluded.queued_at
     WHERE lobby.game <> excluded.game OR lobby.options <> excluded.options",
);

/// The condition that the player whose number is in `phone` (a column) is
/// in the pool bound as `pool` ([`crate::store::Pool::as_str`]). A hall
/// phone's number has the hall's prefix and length; a provider's text from
/// such a number is refused, so no real player has one.
pub(crate) fn in_pool(phone: &str, pool: &str) -> String {
    use crate::phone::{VIRTUAL_DIGITS, VIRTUAL_PREFIX};
    let length = VIRTUAL_PREFIX.len() + VIRTUAL_DIGITS;
    format!(
        "({pool} = 'everyone' OR \
         ({phone} LIKE '{VIRTUAL_PREFIX}%' AND length({phone}) = {length}) = ({pool} = 'hall'))"
    )
}

pub(crate) static QUEUE_OF: Statement = Statement::same(
    "queue of",
    "SELECT game, options FROM lobby WHERE player_id = :player_id",
);

/// A robot's turn, queued (again) with no lease.
pub(crate) static QUEUE_ROBOT_TURN: Statement = Statement::same(
    "queue robot turn",
    "INSERT INTO robot_turns (match_id, seat, turn, due_at) VALUES (:match_id, :seat, :turn, :due_at)
     ON CONFLICT (match_id, seat) DO UPDATE
     SET turn = excluded.turn, due_at = excluded.due_at, lease_until = NULL, attempts = 0",
);

/// A robot's turn done: only the turn it was queued for.
pub(crate) static ROBOT_TURN_DONE: Statement = Statement::same(
    "robot turn done",
    "DELETE FROM robot_turns WHERE match_id = :match_id AND seat = :seat AND turn = :turn",
);

pub(crate) static CLEAR_ROBOT_TURNS: Statement = Statement::same(
    "clear robot turns",
    "DELETE FROM robot_turns WHERE match_id = :match_id",
);

/// When the next robot turn falls due, or its lease runs out.
pub(crate) static NEXT_ROBOT_TURN: Statement = Statement::same(
    "next robot turn",
    "SELECT MIN(COALESCE(lease_until, due_at)) AS at FROM robot_turns",
);

/// A text given up on, waiting for an operator.
pub(crate) static PARK_TEXT: Statement = Statement::same(
    "park text",
    "UPDATE outbox SET status = 'failed', attempts = :attempts, lease_until = NULL,
     last_error = :error, updated_at = :now WHERE id = :id",
);

/// Robot turns due and not leased elsewhere, of robots of levels
/// `:lowest..=:highest`, leased until `:lease_until`, each claim counted.
pub(crate) static CLAIM_ROBOT_TURNS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made_differing(
        "claim robot turns",
        format!(
            "UPDATE robot_turns SET lease_until = :lease_until, attempts = attempts + 1
             WHERE (match_id, seat) IN (
                SELECT t.match_id, t.seat FROM robot_turns t
                JOIN match_seats s ON s.match_id = t.match_id AND s.seat = t.seat
                WHERE t.due_at <= :now AND (t.lease_until IS NULL OR t.lease_until < :now)
                  AND s.robot_level BETWEEN :lowest AND :highest
                ORDER BY t.due_at, t.match_id, t.seat LIMIT :limit)
             RETURNING {}",
            RobotTurn::COLUMNS.join(", ")
        ),
        // The seat's level is a subquery per due turn, so that a plan made
        // once, on an empty table, still walks the due turns rather than
        // every seat of every match.
        format!(
            "UPDATE robot_turns r SET lease_until = :lease_until, attempts = r.attempts + 1
             FROM (SELECT t.match_id, t.seat FROM robot_turns t
                   WHERE t.due_at <= :now AND (t.lease_until IS NULL OR t.lease_until < :now)
                     AND (SELECT s.robot_level FROM match_seats s
                          WHERE s.match_id = t.match_id AND s.seat = t.seat)
                         BETWEEN :lowest AND :highest
                   ORDER BY t.due_at, t.match_id, t.seat LIMIT :limit
                   FOR UPDATE OF t SKIP LOCKED) AS due
             WHERE r.match_id = due.match_id AND r.seat = due.seat
             RETURNING {}",
            column_list::<RobotTurn>("r")
        ),
        "instances split the due turns: a turn another holds is skipped, not waited for",
    )
});

/// Matches whose deadline passed.
pub(crate) static DUE_TURNS: Statement = Statement::differing(
    "due turns",
    "SELECT id FROM matches WHERE finished = 0 AND deadline_at <= :now
     ORDER BY deadline_at LIMIT :limit",
    "SELECT id FROM matches WHERE NOT finished AND deadline_at <= :now
     ORDER BY deadline_at LIMIT :limit FOR UPDATE SKIP LOCKED",
    "instances split the due deadlines: one another holds is skipped, not waited for; \
     and SQLite's partial index is on `finished = 0`, which `NOT finished` does not match",
);

/// Finished matches whose rematch window closed.
pub(crate) static DUE_REMATCHES: Statement = Statement::differing(
    "due rematches",
    "SELECT id FROM matches WHERE rematch_deadline_at <= :now
     ORDER BY rematch_deadline_at LIMIT :limit",
    "SELECT id FROM matches WHERE rematch_deadline_at <= :now
     ORDER BY rematch_deadline_at LIMIT :limit FOR UPDATE SKIP LOCKED",
    "instances split the due windows: one another holds is skipped, not waited for",
);

/// The next deadline or rematch window, each found by its index.
pub(crate) static NEXT_TIMER: Statement = Statement::differing(
    "next timer",
    "SELECT MIN(t) AS at FROM (
        SELECT MIN(deadline_at) AS t FROM matches WHERE finished = 0
        UNION ALL
        SELECT MIN(rematch_deadline_at) FROM matches WHERE rematch_deadline_at IS NOT NULL) AS timers",
    "SELECT MIN(t) AS at FROM (
        SELECT MIN(deadline_at) AS t FROM matches WHERE NOT finished
        UNION ALL
        SELECT MIN(rematch_deadline_at) FROM matches WHERE rematch_deadline_at IS NOT NULL) AS timers",
    SQLITE_FINISHED,
);

/// Why a statement about running matches differs.
pub(crate) const SQLITE_FINISHED: &str = "SQLite's partial indexes on running matches are on \
    `finished = 0`, which `NOT finished` does not match; PostgreSQL's column is a boolean";

/// A queue's players of one pool, oldest first.
pub(crate) static LOBBY_QUEUE: LazyLock<Statement> = LazyLock::new(|| {
    let sql = format!(
        "SELECT {} FROM lobby l JOIN players p ON p.id = l.player_id
         WHERE l.game = :game AND l.options = :options AND {}
         ORDER BY l.queued_at, l.player_id LIMIT :limit",
        column_list::<Player>("p"),
        in_pool("p.phone", ":pool")
    );
    Statement::made_differing(
        "lobby queue",
        sql.clone(),
        format!("{sql} FOR UPDATE OF l"),
        "the queue's rows are locked for the matchmaker of every instance; SQLite's one \
         writer is the only matchmaker",
    )
});

/// A new match's row; its id (`Sql::insert`).
pub(crate) static INSERT_MATCH: Statement = Statement::differing(
    "insert match",
    "INSERT INTO matches (game, state, seed, rng_pos, deadline_at, rematch_of, started_at,
     initial_state, options)
     VALUES (:game, :state, :seed, :rng_pos, :deadline_at, :rematch_of, :now, :state, :options)",
    "INSERT INTO matches (game, state, seed, rng_pos, deadline_at, rematch_of, started_at,
     initial_state, options)
     VALUES (:game, :state, :seed, :rng_pos, :deadline_at, :rematch_of, :now, :state, :options)
     RETURNING id",
    "SQLite gives the new id as the connection's last rowid, which a RETURNING would cost a \
     temporary table per row to give",
);
