//! The lookups the read side and the writer both make, without locks: a
//! player, a match, its seats and moves, a phone's texts, robot turns.

use std::sync::LazyLock;

use super::Statement;
use crate::store::TABLES;
use crate::store::model::{MatchRow, MoveRow, OutboxText, Player, RobotTurn, SeatRow};
use crate::store::rows::column_list;

pub(crate) static PLAYER_BY_PHONE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "player by phone",
        format!(
            "SELECT {} FROM players p WHERE p.phone = :phone",
            column_list::<Player>("p")
        ),
    )
});

pub(crate) static MATCH_BY_ID: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "match by id",
        format!(
            "SELECT {} FROM matches m WHERE m.id = :id",
            column_list::<MatchRow>("m")
        ),
    )
});

/// The newest match a player sat in.
pub(crate) static LAST_MATCH_OF: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "last match of",
        format!(
            "SELECT {} FROM match_seats s JOIN matches m ON m.id = s.match_id
             WHERE s.player_id = :player_id ORDER BY s.match_id DESC LIMIT 1",
            column_list::<MatchRow>("m")
        ),
    )
});

/// Why the writer's reads of a row it may write lock it on PostgreSQL.
const LOCKED: &str = "instances write beside each other: the row is locked until the \
                      transaction ends, so texts arriving at once apply one after the other; \
                      SQLite's one writer needs no lock";

/// [`PLAYER_BY_PHONE`] as the writer reads it, locked.
pub(crate) static PLAYER_FOR_UPDATE: LazyLock<Statement> = LazyLock::new(|| {
    let sql = PLAYER_BY_PHONE.sqlite();
    Statement::made_differing(
        "player for update",
        sql.into(),
        format!("{sql} FOR UPDATE"),
        LOCKED,
    )
});

/// [`MATCH_BY_ID`] as the writer reads it, locked.
pub(crate) static MATCH_FOR_UPDATE: LazyLock<Statement> = LazyLock::new(|| {
    let sql = MATCH_BY_ID.sqlite();
    Statement::made_differing(
        "match for update",
        sql.into(),
        format!("{sql} FOR UPDATE"),
        LOCKED,
    )
});

/// [`LAST_MATCH_OF`] as the writer reads it, the match locked.
pub(crate) static LAST_MATCH_FOR_UPDATE: LazyLock<Statement> = LazyLock::new(|| {
    let sql = LAST_MATCH_OF.sqlite();
    Statement::made_differing(
        "last match for update",
        sql.into(),
        format!("{sql} FOR UPDATE OF m"),
        LOCKED,
    )
});

/// A match's seats in order, each with its player (none for a robot).
pub(crate) static SEATS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "seats",
        format!(
            "SELECT {} FROM match_seats s LEFT JOIN players sp ON sp.id = s.player_id
             WHERE s.match_id = :match_id ORDER BY s.seat",
            SeatRow::column_list("s", "sp")
        ),
    )
});

/// A match's record in order.
pub(crate) static MOVES: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "moves",
        format!(
            "SELECT {} FROM match_moves mm WHERE mm.match_id = :match_id ORDER BY mm.ply",
            column_list::<MoveRow>("mm")
        ),
    )
});

/// Every text queued to a phone, oldest first.
pub(crate) static TEXTS_TO: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "texts to",
        format!(
            "SELECT {} FROM outbox o WHERE o.to_phone = :phone ORDER BY o.id",
            column_list::<OutboxText>("o")
        ),
    )
});

/// Robot turns waiting, soonest first.
pub(crate) static ROBOT_TURNS: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "robot turns",
        format!(
            "SELECT {} FROM robot_turns r ORDER BY r.due_at, r.match_id, r.seat",
            column_list::<RobotTurn>("r")
        ),
    )
});

/// Matches ended as void.
pub(crate) static VOID_MATCHES: Statement = Statement::same(
    "void matches",
    "SELECT COUNT(*) AS n FROM matches WHERE void_reason IS NOT NULL",
);

/// One count per table of [`TABLES`], in its order.
pub(crate) static COUNT_ROWS: LazyLock<Vec<Statement>> = LazyLock::new(|| {
    TABLES
        .iter()
        .map(|table| Statement::made("count rows", format!("SELECT COUNT(*) AS n FROM {table}")))
        .collect()
});
