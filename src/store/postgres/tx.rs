//! A PostgreSQL transaction on one connection (the writer's, or a pooled one
//! for a solo caller): statements that first send the deferred writes, the
//! batch runner's controls, and lobby, matches and timers (players are in
//! `players.rs`, the outbox in `outbox.rs`).

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use sqlx::Row;
use sqlx::postgres::{PgConnection, PgRow};

use super::parts::{
    LEFT_LOBBY, RECORDED_MOVES, RecordedMove, SAVED_MATCHES, SAVED_SEATS, SavedMatch, SavedSeat,
};
use super::pending::{self, Pending};
use super::{Driver, PgQuery};
use crate::store::group_commit::{BatchTx, Patience};
use crate::store::records::{
    MatchRecord, MoveRecord, NewMatch, NewMove, NewSeat, Player, SeatRecord,
};
use crate::store::rows::{Record, column_list, decode, millis, rng_pos_text};
use crate::store::tx::{Lobby, Matches, Outbox, Players, Pool, Queue, Robots, Timers, Tx};
use crate::store::{StoreResult, writes};

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

    pub(super) fn fetch_optional(&mut self, q: PgQuery<'_>) -> StoreResult<Option<PgRow>> {
        self.before_statement()?;
        Ok(self.driver.block_on(q.fetch_optional(&mut *self.conn))?)
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

    /// The row `q` gives, if any, decoded as `R`.
    pub(super) fn first<R: Record>(&mut self, q: PgQuery<'_>) -> StoreResult<Option<R>> {
        self.fetch_optional(q)?.map(|r| decode(&r)).transpose()
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

impl Tx for PgTx<'_> {
    fn players(&mut self) -> &mut dyn Players {
        self
    }
    fn lobby(&mut self) -> &mut dyn Lobby {
        self
    }
    fn matches(&mut self) -> &mut dyn Matches {
        self
    }
    fn timers(&mut self) -> &mut dyn Timers {
        self
    }
    fn robots(&mut self) -> &mut dyn Robots {
        self
    }
    fn outbox(&mut self) -> &mut dyn Outbox {
        self
    }
    fn fragments(&mut self) -> &mut dyn crate::store::tx::Fragments {
        self
    }
    fn inbound(&mut self) -> &mut dyn crate::store::tx::Inbound {
        self
    }
    fn hall(&mut self) -> &mut dyn crate::store::tx::Hall {
        self
    }

    fn console(&mut self) -> &mut dyn crate::store::console::ConsoleWrite {
        self
    }
    fn standings(&mut self) -> &mut dyn crate::store::Standings {
        self
    }
}

/// The matchmaker's lock on one queue, across every instance, until the
/// transaction ends, waited for as long as the session allows.
const LOBBY_LOCK: &str = "SELECT pg_advisory_xact_lock(hashtext('lobby:' || $1 || ':' || $2))";

/// The same lock, taken only if free: whether it was.
const LOBBY_TRY_LOCK: &str =
    "SELECT pg_try_advisory_xact_lock(hashtext('lobby:' || $1 || ':' || $2))";

static LOBBY_QUEUE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM lobby l JOIN players p ON p.id = l.player_id
         WHERE l.game = $1 AND l.options = $2 AND {}
         ORDER BY l.queued_at, l.player_id LIMIT $3 FOR UPDATE OF l",
        column_list::<Player>("p"),
        crate::store::statements::writes::in_pool("p.phone", "$4")
    )
});

impl Lobby for PgTx<'_> {
    fn join(
        &mut self,
        player_id: i64,
        game: &str,
        options: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<bool> {
        writes::join_lobby(self, player_id, game, options, queued_at)
    }

    fn leave(&mut self, player_id: i64) -> StoreResult<()> {
        self.pending.put(&LEFT_LOBBY, player_id);
        Ok(())
    }

    fn queue_of(&mut self, player_id: i64) -> StoreResult<Option<(String, String)>> {
        writes::queue_of(self, player_id)
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
        self.all(
            sqlx::query(&LOBBY_QUEUE)
                .bind(game)
                .bind(options)
                .bind(limit as i64)
                .bind(pool.as_str()),
        )
        .map(Queue::Waiting)
    }
}

static MATCH_BY_ID: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM matches m WHERE m.id = $1 FOR UPDATE",
        column_list::<MatchRecord>("m")
    )
});

static LAST_MATCH_OF: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {} FROM match_seats s JOIN matches m ON m.id = s.match_id
         WHERE s.player_id = $1 ORDER BY s.match_id DESC LIMIT 1 FOR UPDATE OF m",
        column_list::<MatchRecord>("m")
    )
});

impl Matches for PgTx<'_> {
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        let q = sqlx::query(
            "INSERT INTO matches (game, state, seed, rng_pos, deadline_at, rematch_of, started_at, initial_state, options)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $2, $8) RETURNING id",
        )
        .bind(&new.game)
        .bind(&new.state)
        .bind(new.seed as i64)
        .bind(rng_pos_text(new.rng_pos))
        .bind(new.deadline_at.map(millis))
        .bind(new.rematch_of)
        .bind(millis(now))
        .bind(&new.options);
        let id: i64 = self.fetch_one(q)?.try_get(0)?;
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

    fn by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        self.first(sqlx::query(&MATCH_BY_ID).bind(id))
    }

    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        self.first(sqlx::query(&LAST_MATCH_OF).bind(player_id))
    }

    fn save(&mut self, m: &MatchRecord) -> StoreResult<()> {
        self.pending.put(&SAVED_MATCHES, SavedMatch::new(m));
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        crate::store::lookups::seats(self, match_id)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRecord) -> StoreResult<()> {
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

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        crate::store::lookups::moves(self, match_id)
    }
}
