//! A PostgreSQL transaction on one connection (the writer's, or a pooled one
//! for a solo caller): statements that first send the deferred writes, the
//! batch runner's controls, and lobby, matches and timers (players are in
//! `players.rs`, the outbox in `outbox.rs`).

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::postgres::{PgConnection, PgRow};

use super::parts::{
    LEFT_LOBBY, RECORDED_MOVES, RecordedMove, SAVED_MATCHES, SAVED_SEATS, SavedMatch, SavedSeat,
};
use super::pending::{self, Pending};
use super::{Driver, PgQuery};
use crate::store::backend::{LobbyBackend, MatchesBackend};
use crate::store::group_commit::{BatchTx, Patience};
use crate::store::model::{MatchRow, NewMatch, NewMove, NewSeat, SeatRow};
use crate::store::rows::{Record, decode, millis};
use crate::store::tx::{Pool, Queue, Tx};
use crate::store::{StoreResult, lookups, writes};

pub(in crate::store) struct PgTx<'a> {
    pub(super) driver: Driver<'a>,
    pub(super) conn: &'a mut PgConnection,
    pub(super) pending: Pending,
    /// Whether this transaction queued a text (the claiming loop is woken after COMMIT).
    pub(super) queued_texts: bool,
    /// Whom this transaction's texts go to, for the metrics after COMMIT.
    pub(super) queued_to: Vec<String>,
    /// How many of `queued_to` came before the current job's savepoint.
    queued_at_savepoint: usize,
    /// The writer's batches of new callers give up on a lobby queue another
    /// transaction matches ([`Queue::Busy`]); a transaction of its own waits.
    patience: Patience,
}

impl<'a> PgTx<'a> {
    pub(super) fn new(
        driver: Driver<'a>,
        conn: &'a mut PgConnection,
        patience: Patience,
    ) -> PgTx<'a> {
        PgTx {
            driver,
            conn,
            pending: Pending::default(),
            queued_texts: false,
            queued_to: Vec::new(),
            queued_at_savepoint: 0,
            patience,
        }
    }

    /// A transaction-control statement, sent as a simple query.
    fn control(&mut self, sql: &'static str) -> StoreResult<()> {
        self.driver
            .block_on(sqlx::raw_sql(sql).execute(&mut *self.conn))?;
        Ok(())
    }

    /// Sends the deferred writes, so that the next statement sees them.
    pub(super) fn before_statement(&mut self) -> StoreResult<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let q = pending.bind(sqlx::query(pending::statement(pending.mask(), None)));
        self.driver.block_on(q.execute(&mut *self.conn))?;
        Ok(())
    }

    pub(super) fn execute(&mut self, q: PgQuery<'_>) -> StoreResult<u64> {
        self.before_statement()?;
        let done = self.driver.block_on(q.execute(&mut *self.conn))?;
        Ok(done.rows_affected())
    }

    pub(super) fn fetch_one(&mut self, q: PgQuery<'_>) -> StoreResult<PgRow> {
        self.before_statement()?;
        Ok(self.driver.block_on(q.fetch_one(&mut *self.conn))?)
    }

    pub(super) fn fetch_all(&mut self, q: PgQuery<'_>) -> StoreResult<Vec<PgRow>> {
        self.before_statement()?;
        Ok(self.driver.block_on(q.fetch_all(&mut *self.conn))?)
    }

    /// Every row `q` gives, decoded as `R`.
    pub(super) fn all<R: Record>(&mut self, q: PgQuery<'_>) -> StoreResult<Vec<R>> {
        self.fetch_all(q)?.iter().map(|r| decode(r)).collect()
    }

    /// Forgets what this connection keeps beside the database, after a rollback.
    fn forget(&mut self) {
        self.pending = Pending::default();
    }
}

impl BatchTx for PgTx<'_> {
    fn tx(&mut self) -> &mut dyn Tx {
        self
    }

    /// How long a lock is waited for is the session's choice, not the
    /// statements': briefly on the writer's connection (its `lock_timeout`,
    /// where new callers run), for as long as it takes on a solo one
    /// (where callers that met a conflict run alone).
    fn begin(&mut self) -> StoreResult<()> {
        self.forget();
        self.queued_texts = false;
        self.queued_to.clear();
        self.queued_at_savepoint = 0;
        self.control("BEGIN")
    }

    fn savepoint(&mut self) -> StoreResult<()> {
        self.queued_at_savepoint = self.queued_to.len();
        self.control("SAVEPOINT job")
    }

    fn rollback_to_savepoint(&mut self) -> StoreResult<()> {
        self.forget();
        self.queued_to.truncate(self.queued_at_savepoint);
        self.control("ROLLBACK TO SAVEPOINT job")
    }

    fn release_savepoint(&mut self) -> StoreResult<()> {
        self.control("RELEASE SAVEPOINT job")
    }

    fn flush(&mut self) -> StoreResult<()> {
        self.before_statement()
    }

    fn commit(&mut self) -> StoreResult<()> {
        self.control("COMMIT")
    }

    fn rollback(&mut self) {
        self.forget();
        let _ = self.control("ROLLBACK");
    }
}

/// The matchmaker's lock on one queue, across every instance, until the
/// transaction ends, waited for as long as the session allows.
const LOBBY_LOCK: &str = "SELECT pg_advisory_xact_lock(hashtext('lobby:' || $1 || ':' || $2))";

/// The same lock, taken only if free: whether it was.
const LOBBY_TRY_LOCK: &str =
    "SELECT pg_try_advisory_xact_lock(hashtext('lobby:' || $1 || ':' || $2))";

impl LobbyBackend for PgTx<'_> {
    fn leave(&mut self, player_id: i64) -> StoreResult<()> {
        self.pending.put(&LEFT_LOBBY, player_id);
        Ok(())
    }

    fn queue(&mut self, game: &str, options: &str, pool: Pool, limit: usize) -> StoreResult<Queue> {
        // One matchmaker per queue at a time, across every instance, until this transaction ends.
        match self.patience {
            Patience::Brief => {
                let lock = sqlx::query(LOBBY_TRY_LOCK).bind(game).bind(options);
                if !self.fetch_one(lock)?.try_get::<bool, _>(0)? {
                    return Ok(Queue::Busy);
                }
            }
            Patience::Long => {
                self.execute(sqlx::query(LOBBY_LOCK).bind(game).bind(options))?;
            }
        }
        writes::lobby_queue(self, game, options, pool, limit).map(Queue::Waiting)
    }
}

impl MatchesBackend for PgTx<'_> {
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        let id = writes::insert_match(self, new, now)?;
        let (players, robots): (Vec<Option<i64>>, Vec<Option<i32>>) = new
            .seats
            .iter()
            .map(|seat| match *seat {
                NewSeat::Player(id) => (Some(id), None),
                NewSeat::Robot(level) => (None, Some(i32::from(level))),
            })
            .unzip();
        let q = sqlx::query(
            "INSERT INTO match_seats (match_id, seat, player_id, robot_level)
             SELECT $1, v.ord - 1, v.player_id, v.robot_level
             FROM UNNEST($2::bigint[], $3::int[]) WITH ORDINALITY AS v(player_id, robot_level, ord)",
        )
        .bind(id)
        .bind(players)
        .bind(robots);
        self.execute(q)?;
        Ok(id)
    }

    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        lookups::last_match_for_update(self, player_id)
    }

    fn save(&mut self, m: &MatchRow) -> StoreResult<()> {
        self.pending.put(&SAVED_MATCHES, SavedMatch::new(m));
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>> {
        lookups::seats(self, match_id)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRow) -> StoreResult<()> {
        self.pending.put(
            &SAVED_SEATS,
            SavedSeat {
                match_id,
                seat: seat.clone(),
            },
        );
        Ok(())
    }

    fn record_move(
        &mut self,
        match_id: i64,
        mv: &NewMove<'_>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        self.pending.put(
            &RECORDED_MOVES,
            RecordedMove::new(match_id, mv, millis(now)),
        );
        Ok(())
    }
}
