//! SQLite statements that both the writer's transaction and the read
//! connection run, over a plain connection, decoded by the shared row codec.

use std::sync::LazyLock;

use rusqlite::{Connection, Params, Row};

use crate::store::records::{MatchRecord, MoveRecord, OutboxText, Player, RobotTurn, SeatRecord};
use crate::store::rows::{Columns, Record, column_list, decode};
use crate::store::{StoreError, StoreResult, TABLES};

impl Columns for Row<'_> {
    fn int(&self, i: usize) -> Result<Option<i64>, String> {
        self.get(i).map_err(|e| e.to_string())
    }

    fn text(&self, i: usize) -> Result<Option<String>, String> {
        self.get(i).map_err(|e| e.to_string())
    }

    fn flag(&self, i: usize) -> Result<Option<bool>, String> {
        self.get(i).map_err(|e| e.to_string())
    }
}

/// Every row `sql` gives, decoded as `R`.
pub(super) fn all<R: Record>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
) -> StoreResult<Vec<R>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(decode(row)?);
    }
    Ok(out)
}

/// The first row `sql` gives, if any, decoded as `R`.
pub(super) fn first<R: Record>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
) -> StoreResult<Option<R>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params)?;
    match rows.next()? {
        Some(row) => Ok(Some(decode(row)?)),
        None => Ok(None),
    }
}

static PLAYER_BY_PHONE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM players p WHERE p.phone = ?1",
        column_list::<Player>("p")
    )
});

static MATCH_BY_ID: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM matches m WHERE m.id = ?1",
        column_list::<MatchRecord>("m")
    )
});

static LAST_MATCH_OF: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM match_seats s JOIN matches m ON m.id = s.match_id
         WHERE s.player_id = ?1 ORDER BY s.match_id DESC LIMIT 1",
        column_list::<MatchRecord>("m")
    )
});

static SEATS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM match_seats s LEFT JOIN players p ON p.id = s.player_id
         WHERE s.match_id = ?1 ORDER BY s.seat",
        SeatRecord::column_list("s", "p")
    )
});

static MOVES: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM match_moves mm WHERE mm.match_id = ?1 ORDER BY mm.ply",
        column_list::<MoveRecord>("mm")
    )
});

static TEXTS_TO: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM outbox o WHERE o.to_phone = ?1 ORDER BY o.id",
        column_list::<OutboxText>("o")
    )
});

pub(super) fn player_by_phone(conn: &Connection, phone: &str) -> StoreResult<Option<Player>> {
    first(conn, &PLAYER_BY_PHONE, [phone])
}

pub(super) fn match_by_id(conn: &Connection, id: i64) -> StoreResult<Option<MatchRecord>> {
    first(conn, &MATCH_BY_ID, [id])
}

pub(super) fn last_match_of(conn: &Connection, player_id: i64) -> StoreResult<Option<MatchRecord>> {
    first(conn, &LAST_MATCH_OF, [player_id])
}

pub(super) fn seats(conn: &Connection, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
    all(conn, &SEATS, [match_id])
}

pub(super) fn moves(conn: &Connection, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
    all(conn, &MOVES, [match_id])
}

pub(super) fn texts_to(conn: &Connection, phone: &str) -> StoreResult<Vec<OutboxText>> {
    all(conn, &TEXTS_TO, [phone])
}

pub(super) fn count_rows(conn: &Connection, table: &'static str) -> StoreResult<i64> {
    if !TABLES.contains(&table) {
        return Err(StoreError::Corrupt(format!("no table {table}")));
    }
    Ok(conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM {table}"))?
        .query_row([], |r| r.get(0))?)
}

static ROBOT_TURNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM robot_turns r ORDER BY r.due_at, r.match_id, r.seat",
        column_list::<RobotTurn>("r")
    )
});

pub(super) fn robot_turns(conn: &Connection) -> StoreResult<Vec<RobotTurn>> {
    all(conn, &ROBOT_TURNS, [])
}
