//! Reads on a pooled PostgreSQL connection, in a read-only transaction of
//! their own: no row locks, nothing through the writer.

use std::sync::LazyLock;

use sqlx::Row;
use sqlx::postgres::PgConnection;

use super::tx::{MOVES, SEATS};
use super::{Driver, PgQuery};
use crate::store::records::{MatchRecord, MoveRecord, OutboxText, Player, RobotTurn, SeatRecord};
use crate::store::rows::{Record, column_list, decode};
use crate::store::statements::{HALL_PHONE_TOKEN, Value};
use crate::store::tx::Read;
use crate::store::{StoreError, StoreResult, TABLES};

pub(super) struct PgRead<'a> {
    pub driver: Driver<'a>,
    pub conn: &'a mut PgConnection,
}

impl PgRead<'_> {
    fn all<R: Record>(&mut self, q: PgQuery<'_>) -> StoreResult<Vec<R>> {
        let rows = self.driver.block_on(q.fetch_all(&mut *self.conn))?;
        rows.iter().map(|r| decode(r)).collect()
    }

    fn first<R: Record>(&mut self, q: PgQuery<'_>) -> StoreResult<Option<R>> {
        let row = self.driver.block_on(q.fetch_optional(&mut *self.conn))?;
        row.map(|r| decode(&r)).transpose()
    }
}

static PLAYER_BY_PHONE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM players p WHERE p.phone = $1",
        column_list::<Player>("p")
    )
});

static MATCH_BY_ID: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM matches m WHERE m.id = $1",
        column_list::<MatchRecord>("m")
    )
});

static LAST_MATCH_OF: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM match_seats s JOIN matches m ON m.id = s.match_id
         WHERE s.player_id = $1 ORDER BY s.match_id DESC LIMIT 1",
        column_list::<MatchRecord>("m")
    )
});

static TEXTS_TO: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM outbox o WHERE o.to_phone = $1 ORDER BY o.id",
        column_list::<OutboxText>("o")
    )
});

static ROBOT_TURNS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM robot_turns r ORDER BY r.due_at, r.match_id, r.seat",
        column_list::<RobotTurn>("r")
    )
});

impl Read for PgRead<'_> {
    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        self.first(sqlx::query(&PLAYER_BY_PHONE).bind(phone))
    }

    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        self.first(sqlx::query(&MATCH_BY_ID).bind(id))
    }

    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        self.first(sqlx::query(&LAST_MATCH_OF).bind(player_id))
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        self.all(sqlx::query(&SEATS).bind(match_id))
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        self.all(sqlx::query(&MOVES).bind(match_id))
    }

    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>> {
        self.all(sqlx::query(&TEXTS_TO).bind(phone))
    }

    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64> {
        if !TABLES.contains(&table) {
            return Err(StoreError::Corrupt(format!("no table {table}")));
        }
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let row = self
            .driver
            .block_on(sqlx::query(&sql).fetch_one(&mut *self.conn))?;
        Ok(row.try_get(0)?)
    }

    fn robot_turns(&mut self) -> StoreResult<Vec<RobotTurn>> {
        self.all(sqlx::query(&ROBOT_TURNS))
    }

    fn void_matches(&mut self) -> StoreResult<i64> {
        let row = self.driver.block_on(
            sqlx::query("SELECT COUNT(*) FROM matches WHERE void_reason IS NOT NULL")
                .fetch_one(&mut *self.conn),
        )?;
        Ok(row.try_get(0)?)
    }

    fn hall_phone(&mut self, number: &str) -> StoreResult<Option<String>> {
        let row = self.driver.block_on(
            super::exec::bound(&HALL_PHONE_TOKEN, &[(":number", Value::Text(number))])
                .fetch_optional(&mut *self.conn),
        )?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    fn console(&mut self) -> &mut dyn crate::store::console::ConsoleRead {
        self
    }
}
