//! Reads beside the SQLite writer, on a connection of their own: WAL lets it
//! read what the last commit left while the writer goes on.

use rusqlite::Connection;

use super::queries;
use crate::store::StoreResult;
use crate::store::records::{MatchRecord, MoveRecord, OutboxText, Player, RobotTurn, SeatRecord};
use crate::store::tx::Read;

pub(super) struct SqliteRead<'c> {
    pub conn: &'c Connection,
}

impl Read for SqliteRead<'_> {
    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        queries::player_by_phone(self.conn, phone)
    }

    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        queries::match_by_id(self.conn, id)
    }

    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        queries::last_match_of(self.conn, player_id)
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        queries::seats(self.conn, match_id)
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        queries::moves(self.conn, match_id)
    }

    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>> {
        queries::texts_to(self.conn, phone)
    }

    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64> {
        queries::count_rows(self.conn, table)
    }

    fn robot_turns(&mut self) -> StoreResult<Vec<RobotTurn>> {
        queries::robot_turns(self.conn)
    }

    fn void_matches(&mut self) -> StoreResult<i64> {
        Ok(self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM matches WHERE void_reason IS NOT NULL")?
            .query_row([], |r| r.get(0))?)
    }

    fn hall_phone(&mut self, number: &str) -> StoreResult<Option<String>> {
        super::hall::hall_phone(self.conn, number)
    }

    fn console(&mut self) -> &mut dyn crate::store::console::ConsoleRead {
        self
    }
}
