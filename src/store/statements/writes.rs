//! The writer's statements that both backends run alike: players found by
//! nick and created, the lobby joined and read, robot turns queued and done,
//! a text parked.

use std::sync::LazyLock;

use super::Statement;
use crate::store::records::Player;
use crate::store::rows::column_list;

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

/// Joins a queue, or moves to another one.
pub(crate) static JOIN_LOBBY: Statement = Statement::same(
    "join lobby",
    "INSERT INTO lobby (player_id, game, options, queued_at)
     VALUES (:player_id, :game, :options, :queued_at)
     ON CONFLICT (player_id) DO UPDATE
     SET game = excluded.game, options = excluded.options, queued_at = excluded.queued_at",
);

pub(crate) static QUEUE_OF: Statement = Statement::same(
    "queue of",
    "SELECT game, options FROM lobby WHERE player_id = :player_id",
);

/// A robot's turn, queued (again) with no lease.
pub(crate) static QUEUE_ROBOT_TURN: Statement = Statement::same(
    "queue robot turn",
    "INSERT INTO robot_turns (match_id, seat, turn, due_at) VALUES (:match_id, :seat, :turn, :due_at)
     ON CONFLICT (match_id, seat) DO UPDATE
     SET turn = excluded.turn, due_at = excluded.due_at, lease_until = NULL",
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
