//! The read side, written once for both backends over [`Sql`]: a read
//! connection (SQLite) or a pooled one (PostgreSQL) that is a [`Reader`]
//! answers [`Read`] with the statements of the table. The SQLite writer
//! makes the same lookups through these functions.

use super::model::{MatchRow, MoveRow, OutboxText, Player, RobotTurn, SeatRow};
use super::rows::{Fields, Record};
use super::sql::{Reader, Sql};
use super::statements::lookups::{
    COUNT_ROWS, LAST_MATCH_FOR_UPDATE, LAST_MATCH_OF, MATCH_BY_ID, MATCH_FOR_UPDATE, MOVES,
    PLAYER_BY_PHONE, PLAYER_FOR_UPDATE, ROBOT_TURNS, SEATS, TEXTS_TO, VOID_MATCHES,
};
use super::statements::{HALL_PHONE_TOKEN, Statement, Value};
use super::tx::Read;
use super::{StoreError, StoreResult, TABLES};

pub(crate) fn player_by_phone(db: &mut impl Sql, phone: &str) -> StoreResult<Option<Player>> {
    db.first(&PLAYER_BY_PHONE, &[(":phone", Value::Text(phone))])
}

pub(crate) fn match_by_id(db: &mut impl Sql, id: i64) -> StoreResult<Option<MatchRow>> {
    db.first(&MATCH_BY_ID, &[(":id", Value::Int(id))])
}

pub(crate) fn last_match_of(db: &mut impl Sql, player_id: i64) -> StoreResult<Option<MatchRow>> {
    db.first(&LAST_MATCH_OF, &[(":player_id", Value::Int(player_id))])
}

/// The writer's reads of a row it may write: locked on PostgreSQL until the
/// transaction ends (`statements/lookups.rs` says why).
pub(crate) fn player_for_update(db: &mut impl Sql, phone: &str) -> StoreResult<Option<Player>> {
    db.first(&PLAYER_FOR_UPDATE, &[(":phone", Value::Text(phone))])
}

pub(crate) fn match_for_update(db: &mut impl Sql, id: i64) -> StoreResult<Option<MatchRow>> {
    db.first(&MATCH_FOR_UPDATE, &[(":id", Value::Int(id))])
}

pub(crate) fn last_match_for_update(
    db: &mut impl Sql,
    player_id: i64,
) -> StoreResult<Option<MatchRow>> {
    db.first(
        &LAST_MATCH_FOR_UPDATE,
        &[(":player_id", Value::Int(player_id))],
    )
}

pub(crate) fn seats(db: &mut impl Sql, match_id: i64) -> StoreResult<Vec<SeatRow>> {
    db.all(&SEATS, &[(":match_id", Value::Int(match_id))])
}

pub(crate) fn moves(db: &mut impl Sql, match_id: i64) -> StoreResult<Vec<MoveRow>> {
    db.all(&MOVES, &[(":match_id", Value::Int(match_id))])
}

/// One count, as a record.
pub(crate) struct Count(pub i64);

impl Record for Count {
    const NAME: &'static str = "count";
    const COLUMNS: &'static [&'static str] = &["n"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Count> {
        Ok(Count(f.int("n")?))
    }
}

fn count(db: &mut impl Sql, statement: &Statement) -> StoreResult<i64> {
    let n: Option<Count> = db.first(statement, &[])?;
    n.map(|Count(n)| n)
        .ok_or_else(|| StoreError::Corrupt(format!("{} gave no row", statement.name)))
}

/// A hall phone's token hash.
struct TokenHash(String);

impl Record for TokenHash {
    const NAME: &'static str = "hall phone";
    const COLUMNS: &'static [&'static str] = &["token_hash"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<TokenHash> {
        Ok(TokenHash(f.text("token_hash")?))
    }
}

impl<R: Reader> Read for R {
    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        player_by_phone(self, phone)
    }

    fn player_by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>> {
        super::writes::player_by_nick(self, nick)
    }

    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRow>> {
        match_by_id(self, id)
    }

    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        last_match_of(self, player_id)
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>> {
        seats(self, match_id)
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRow>> {
        moves(self, match_id)
    }

    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>> {
        self.all(&TEXTS_TO, &[(":phone", Value::Text(phone))])
    }

    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64> {
        let Some(at) = TABLES.iter().position(|&t| t == table) else {
            return Err(StoreError::Corrupt(format!("no table {table}")));
        };
        count(self, &COUNT_ROWS[at])
    }

    fn robot_turns(&mut self) -> StoreResult<Vec<RobotTurn>> {
        self.all(&ROBOT_TURNS, &[])
    }

    fn void_matches(&mut self) -> StoreResult<i64> {
        count(self, &VOID_MATCHES)
    }

    fn hall_phone(&mut self, number: &str) -> StoreResult<Option<String>> {
        let found: Option<TokenHash> =
            self.first(&HALL_PHONE_TOKEN, &[(":number", Value::Text(number))])?;
        Ok(found.map(|TokenHash(hash)| hash))
    }

    fn console(&mut self) -> &mut dyn super::console::ConsoleRead {
        self
    }

    fn standings(&mut self) -> &mut dyn super::standings::StandingsRead {
        self
    }
}
