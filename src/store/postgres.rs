//! PostgreSQL backend, for several gateway instances on one database.
//!
//! Each instance has one writer: a thread with its own connection that runs
//! callers' closures in batches, one transaction per batch ([`group_commit`]),
//! as SQLite's writer does. A profile of the earlier design (a pooled
//! transaction per closure, a round trip per statement) showed PostgreSQL
//! busy with commits and round trips and a quarter of the connections waiting
//! on each other's row locks; the writer commits once per batch, never waits
//! on itself, and saves round trips two ways:
//! - writes are deferred and go out together in one statement just before the
//!   next read, or before COMMIT ([`PendingWrites`]), so reads still see them;
//! - a text's first statement records it, locks its sender and carries the
//!   previous caller's writes. The sender's match and its seats are read by
//!   statements of their own, each begun once the lock before it is held: a
//!   statement sees the database as of its start, even after waiting for a
//!   lock, and must not miss what the lock's last holder wrote.
//!
//! Concurrency between instances is still the database's job:
//! - a player's row is locked (`FOR UPDATE`) when his text is handled, so one
//!   phone's texts apply one at a time, whichever instance gets them;
//! - a match row is locked when it is loaded, so moves arriving at different
//!   instances apply one after the other, each against the state the other left;
//! - matchmaking takes a transaction-scoped advisory lock per game, so no two
//!   instances form groups from the same queue at once;
//! - outbox texts and due timers are claimed with `FOR UPDATE SKIP LOCKED`, and
//!   a claimed text carries a lease that another instance may take over once it expires;
//! - a closure that meets a deadlock, a serialization failure, a lock wait
//!   longer than [`LOCK_TIMEOUT`] or a unique-key race (two instances creating
//!   the same phone's row) runs again in a later batch.
//!
//! The dispatcher's claims run beside the writer on a small pool
//! ([`PgStore::run_solo`]): they scan the outbox, and every caller in a batch
//! would wait for them.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use sqlx::postgres::{PgArguments, PgConnectOptions, PgConnection, PgPool, PgPoolOptions, PgRow};
use sqlx::{Connection, Postgres, Row};
use tokio::runtime::{Handle, Runtime};
use tokio::sync::{Notify, mpsc};

use super::group_commit::{self, BatchTx, Job};
use super::{
    Arrival, MatchRecord, MoveRecord, NewMatch, NewText, OutboxText, Player, SeatRecord, SentText,
    StoreError, StoreResult, TextStatus, Tx, from_millis, millis,
};
use crate::inbound::InboundMessage;
use crate::lang::Lang;

mod pending;

use pending::{NewMove, PendingWrites, Rider, put};

/// Jobs waiting for the writer; callers wait (backpressure) when it is full.
const QUEUE_DEPTH: usize = 8192;
/// Pause before the writer tries to reconnect after failing to.
const RECONNECT_PAUSE: Duration = Duration::from_millis(200);
/// Longest the writer waits for a row another instance's batch holds.
const LOCK_TIMEOUT: &str = "100ms";
/// Idle time after which the writer checks its connection before using it.
const IDLE_CHECK: Duration = Duration::from_secs(2);

#[derive(Clone)]
pub struct PgStore {
    jobs: mpsc::Sender<Box<dyn Job>>,
    /// For [`PgStore::run_solo`] and health checks.
    pool: PgPool,
    texts_queued: Arc<Notify>,
}

impl PgStore {
    pub async fn open(url: &str, pool_size: u32, max_batch: usize) -> StoreResult<PgStore> {
        let options = PgConnectOptions::from_str(url)?;
        // The claims' best plan depends on how many texts wait and when they
        // fall due, which changes by the second: planned for each run. A
        // generic plan took 50 ms a claim under load, against 0.3 ms.
        let pool = PgPoolOptions::new()
            .max_connections(pool_size.max(1))
            .acquire_timeout(Duration::from_secs(5))
            .connect_with(
                options
                    .clone()
                    .options([("plan_cache_mode", "force_custom_plan")]),
            )
            .await?;
        // Several instances may start at once: the migrator takes an advisory lock.
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let texts_queued = Arc::new(Notify::new());
        let (jobs, rx) = mpsc::channel(QUEUE_DEPTH);
        let writer = Writer {
            options: writer_options(options),
            max_batch: max_batch.max(1),
            texts_queued: texts_queued.clone(),
        };
        std::thread::Builder::new()
            .name("pg-writer".into())
            .spawn(move || writer.run(rx))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer thread: {e}")))?;
        Ok(PgStore {
            jobs,
            pool,
            texts_queued,
        })
    }

    pub async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        group_commit::submit(&self.jobs, f).await
    }

    /// Runs `f` in a transaction of its own on a pooled connection, beside
    /// the writer's batches, and runs it again after a conflict.
    pub async fn run_solo<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        let mut f = f;
        let mut attempt = 1;
        loop {
            // The connection is awaited here, not on the blocking thread: a
            // blocking thread per waiting caller grew to hundreds of threads.
            let mut conn = self.pool.acquire().await?;
            let handle = Handle::current();
            // The closure travels to the blocking thread and back, for a re-run.
            let (work, conn, outcome) = tokio::task::spawn_blocking(move || {
                let outcome = solo_once(Driver::Handle(&handle), &mut conn, &f);
                (f, conn, outcome)
            })
            .await
            .map_err(|_| StoreError::Panicked)?;
            f = work;
            if outcome.is_err() && !conn_is_clean(&outcome) {
                // Whatever state the connection is in, it does not go back to the pool.
                drop(conn.detach());
            }
            match outcome {
                Err(e) if attempt < group_commit::MAX_RUNS && e.is_conflict() => {
                    tracing::debug!(error = %e, attempt, "transaction conflict; running it again");
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    pub async fn ping(&self) -> StoreResult<()> {
        if self.jobs.is_closed() {
            return Err(StoreError::WriterGone);
        }
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub fn texts_queued(&self) -> &Notify {
        &self.texts_queued
    }
}

/// The writer's statements all find their rows by key, and each is planned
/// once per connection: re-planning on every run (what PostgreSQL chose for
/// the batch's writes) was two thirds of their cost. A plan made while the
/// tables were small (a fresh database, statistics not yet gathered) would
/// scan them whole ever after, so scans and hash or merge joins are priced
/// out, leaving the index lookups that are right at any size.
///
/// A batch holds every lock its callers took until its COMMIT, so two
/// instances' batches can wait for each other; PostgreSQL would notice only
/// after `deadlock_timeout` (1 s by default). A batch takes milliseconds, so a
/// wait of [`LOCK_TIMEOUT`] is taken for such a cycle: the waiting caller fails
/// and runs again in the next batch, once its own batch's locks are gone.
fn writer_options(options: PgConnectOptions) -> PgConnectOptions {
    options.options([
        ("lock_timeout", LOCK_TIMEOUT),
        ("plan_cache_mode", "force_generic_plan"),
        ("enable_seqscan", "off"),
        ("enable_hashjoin", "off"),
        ("enable_mergejoin", "off"),
    ])
}

/// One solo transaction: BEGIN, the closure, its pending writes, COMMIT.
fn solo_once<T, F>(driver: Driver<'_>, conn: &mut PgConnection, f: &F) -> StoreResult<T>
where
    F: Fn(&mut dyn Tx) -> StoreResult<T>,
{
    let mut tx = PgTx::new(driver, conn);
    tx.begin()?;
    let result = catch_unwind(AssertUnwindSafe(|| f(&mut tx)))
        .unwrap_or(Err(StoreError::Panicked))
        .and_then(|value| {
            tx.flush()?;
            tx.commit()?;
            Ok(value)
        });
    if result.is_err() {
        tx.rollback();
    }
    result
}

/// Whether a connection whose transaction failed is fit to reuse: only when
/// the database itself refused a statement (the rollback then went through).
fn conn_is_clean<T>(outcome: &StoreResult<T>) -> bool {
    matches!(outcome, Err(StoreError::Postgres(sqlx::Error::Database(_))))
}

/// The writer thread: its own single-threaded runtime and connection, so a
/// statement's round trip involves no other thread.
struct Writer {
    options: PgConnectOptions,
    max_batch: usize,
    texts_queued: Arc<Notify>,
}

impl Writer {
    fn run(self, mut rx: mpsc::Receiver<Box<dyn Job>>) {
        let rt = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                tracing::error!(error = %e, "the postgres writer cannot start its runtime");
                return;
            }
        };
        let mut conn: Option<PgConnection> = None;
        let mut last_used = Instant::now();
        let mut batch: Vec<Box<dyn Job>> = Vec::with_capacity(self.max_batch);
        let mut again: Vec<Box<dyn Job>> = Vec::new();
        while group_commit::next_batch(&mut rx, &mut batch, &mut again, self.max_batch) {
            // After a quiet spell the server may have restarted or dropped us:
            // better to find out now than to fail the batch.
            if last_used.elapsed() > IDLE_CHECK
                && let Some(c) = conn.as_mut()
                && rt.block_on(c.ping()).is_err()
            {
                conn = None;
            }
            let c = match conn.as_mut() {
                Some(c) => c,
                None => match rt.block_on(PgConnection::connect_with(&self.options)) {
                    Ok(c) => conn.insert(c),
                    Err(e) => {
                        tracing::error!(error = %e, "the postgres writer cannot connect");
                        group_commit::finish_batch(&mut batch, &Err(e.into()), &mut again);
                        std::thread::sleep(RECONNECT_PAUSE);
                        continue;
                    }
                },
            };
            let mut tx = PgTx::new(Driver::Runtime(&rt), c);
            let outcome = group_commit::run_batch(&mut tx, &mut batch);
            let queued_texts = tx.queued_texts;
            if let Err(e) = &outcome {
                tracing::error!(error = %e, jobs = batch.len(), "postgres batch failed");
                // A lost connection is replaced before the next batch.
                if rt.block_on(c.ping()).is_err() {
                    conn = None;
                }
            }
            last_used = Instant::now();
            group_commit::finish_batch(&mut batch, &outcome, &mut again);
            if outcome.is_ok() && queued_texts {
                self.texts_queued.notify_one();
            }
        }
    }
}

/// What drives a statement's future to completion on the current thread.
#[derive(Clone, Copy)]
enum Driver<'a> {
    /// The writer's own runtime.
    Runtime(&'a Runtime),
    /// The shared runtime, from one of its blocking threads.
    Handle(&'a Handle),
}

impl Driver<'_> {
    fn block_on<F: Future>(self, future: F) -> F::Output {
        match self {
            Driver::Runtime(rt) => rt.block_on(future),
            Driver::Handle(handle) => handle.block_on(future),
        }
    }
}

type PgQuery<'q> = sqlx::query::Query<'q, Postgres, PgArguments>;

pub(super) struct PgTx<'a> {
    driver: Driver<'a>,
    conn: &'a mut PgConnection,
    pending: PendingWrites,
    /// Whether this transaction queued a text (the claiming loop is woken after COMMIT).
    queued_texts: bool,
}

impl<'a> PgTx<'a> {
    fn new(driver: Driver<'a>, conn: &'a mut PgConnection) -> PgTx<'a> {
        PgTx {
            driver,
            conn,
            pending: PendingWrites::default(),
            queued_texts: false,
        }
    }

    /// A transaction-control statement, sent as a simple query.
    fn control(&mut self, sql: &'static str) -> StoreResult<()> {
        self.driver
            .block_on(sqlx::raw_sql(sql).execute(&mut *self.conn))?;
        Ok(())
    }

    /// Readies the connection for a statement that must see every write made so far.
    fn before_statement(&mut self) -> StoreResult<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let q = pending.into_statement();
        self.driver.block_on(q.execute(&mut *self.conn))?;
        Ok(())
    }

    fn execute(&mut self, q: PgQuery<'_>) -> StoreResult<u64> {
        self.before_statement()?;
        let done = self.driver.block_on(q.execute(&mut *self.conn))?;
        Ok(done.rows_affected())
    }

    fn fetch_optional(&mut self, q: PgQuery<'_>) -> StoreResult<Option<PgRow>> {
        self.before_statement()?;
        Ok(self.driver.block_on(q.fetch_optional(&mut *self.conn))?)
    }

    fn fetch_one(&mut self, q: PgQuery<'_>) -> StoreResult<PgRow> {
        self.before_statement()?;
        Ok(self.driver.block_on(q.fetch_one(&mut *self.conn))?)
    }

    fn fetch_all(&mut self, q: PgQuery<'_>) -> StoreResult<Vec<PgRow>> {
        self.before_statement()?;
        Ok(self.driver.block_on(q.fetch_all(&mut *self.conn))?)
    }

    /// Forgets what this connection keeps beside the database, after a rollback.
    fn forget(&mut self) {
        self.pending = PendingWrites::default();
    }
}

impl BatchTx for PgTx<'_> {
    fn tx(&mut self) -> &mut dyn Tx {
        self
    }

    fn begin(&mut self) -> StoreResult<()> {
        self.forget();
        self.queued_texts = false;
        self.control("BEGIN")
    }

    fn savepoint(&mut self) -> StoreResult<()> {
        self.control("SAVEPOINT job")
    }

    fn rollback_to_savepoint(&mut self) -> StoreResult<()> {
        self.forget();
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

/// A player's columns (players aliased `p`), as a literal so that the
/// statements built at compile time can splice it in too.
macro_rules! player_columns {
    () => {
        "p.id, p.phone, p.nick, p.lang, p.opted_out, p.away"
    };
}

const PLAYER_COLUMNS: &str = player_columns!();

/// Records an inbound message and locks its sender's row: the sender's
/// player columns (null for a stranger), then 0 for a duplicate or 1.
static ACCEPT_INBOUND: Rider = Rider {
    slot: 1,
    ctes: concat!(
        "arrived AS (
            INSERT INTO inbound (provider, provider_id, from_phone, to_number, body, received_at)
            VALUES (${0}, ${1}, ${2}, ${3}, ${4}, ${5}) ON CONFLICT (provider, provider_id) DO NOTHING
            RETURNING 1),
        sender AS (
            SELECT ",
        player_columns!(),
        " FROM players p WHERE p.phone = ${2} FOR UPDATE)"
    ),
    select: "SELECT sender.*, (SELECT COUNT(*) FROM arrived) FROM (SELECT 1) AS one LEFT JOIN sender ON true",
    params: 6,
};

/// The players of a match's seats, beside the seat columns.
const SEAT_PLAYER_COLUMNS: &str = "sp.id, sp.phone, sp.nick, sp.lang, sp.opted_out, sp.away";

fn player_from(row: &PgRow) -> Result<Player, sqlx::Error> {
    player_from_at(row, 0)
}

/// A player from the columns starting at `at`.
fn player_from_at(row: &PgRow, at: usize) -> Result<Player, sqlx::Error> {
    let lang: String = row.try_get(at + 3)?;
    Ok(Player {
        id: row.try_get(at)?,
        phone: row.try_get(at + 1)?,
        nick: row.try_get(at + 2)?,
        lang: lang.parse().unwrap_or(Lang::Ru),
        opted_out: row.try_get(at + 4)?,
        away: row.try_get(at + 5)?,
    })
}

/// A seat from `s.seat, s.missed, s.rematch_at, s.message_sent` and its player, starting at `at`.
fn seat_from_at(row: &PgRow, at: usize) -> Result<SeatRecord, sqlx::Error> {
    Ok(SeatRecord {
        seat: row.try_get::<i32, _>(at)? as usize,
        missed: row.try_get::<i32, _>(at + 1)? as u32,
        rematch_at: row.try_get::<Option<i64>, _>(at + 2)?.map(from_millis),
        message_sent: row.try_get(at + 3)?,
        player: player_from_at(row, at + 4)?,
    })
}

const TEXT_COLUMNS: &str =
    "id, from_number, to_phone, body, encoding, parts, attempts, status, provider_ref, last_error";

fn text_from(row: &PgRow) -> Result<OutboxText, sqlx::Error> {
    let status: String = row.try_get(7)?;
    Ok(OutboxText {
        id: row.try_get(0)?,
        from: row.try_get(1)?,
        to: row.try_get(2)?,
        body: row.try_get(3)?,
        encoding: row.try_get(4)?,
        parts: row.try_get::<i32, _>(5)? as u32,
        attempts: row.try_get::<i32, _>(6)? as u32,
        status: TextStatus::parse(&status).unwrap_or(TextStatus::Failed),
        provider_ref: row.try_get(8)?,
        last_error: row.try_get(9)?,
    })
}

const MATCH_COLUMNS: &str = "m.id, m.game, m.state, m.seed, m.rng_pos, m.finished, m.deadline_at, \
     m.rematch_deadline_at, m.rematch_of, m.started_at, m.finished_at, m.initial_state";

/// A match from [`MATCH_COLUMNS`] starting at `at`.
fn match_from_at(row: &PgRow, at: usize) -> Result<MatchRecord, sqlx::Error> {
    let seed: i64 = row.try_get(at + 3)?;
    let rng_pos: String = row.try_get(at + 4)?;
    let time = |i: usize| -> Result<Option<DateTime<Utc>>, sqlx::Error> {
        Ok(row.try_get::<Option<i64>, _>(at + i)?.map(from_millis))
    };
    Ok(MatchRecord {
        id: row.try_get(at)?,
        game: row.try_get(at + 1)?,
        state: row.try_get(at + 2)?,
        // stored as i64 bits: PostgreSQL has no unsigned 64-bit integer
        seed: seed as u64,
        rng_pos: rng_pos.parse().unwrap_or(0),
        finished: row.try_get(at + 5)?,
        deadline_at: time(6)?,
        rematch_deadline_at: time(7)?,
        rematch_of: row.try_get(at + 8)?,
        started_at: from_millis(row.try_get(at + 9)?),
        finished_at: time(10)?,
        initial_state: row.try_get(at + 11)?,
    })
}

fn ids(rows: Vec<PgRow>) -> StoreResult<Vec<i64>> {
    Ok(rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<Vec<i64>, _>>()?)
}

/// Binds an inbound message's columns, in `inbound`'s order, as the next six parameters.
fn bind_inbound<'q>(q: PgQuery<'q>, msg: &'q InboundMessage) -> PgQuery<'q> {
    q.bind(msg.provider)
        .bind(&msg.provider_id)
        .bind(&msg.from)
        .bind(&msg.to)
        .bind(&msg.text)
        .bind(millis(msg.received_at))
}

impl Tx for PgTx<'_> {
    fn record_inbound(&mut self, msg: &InboundMessage) -> StoreResult<bool> {
        let q = sqlx::query(
            "INSERT INTO inbound (provider, provider_id, from_phone, to_number, body, received_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider, provider_id) DO NOTHING",
        );
        Ok(self.execute(bind_inbound(q, msg))? == 1)
    }

    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.phone = $1 FOR UPDATE");
        let row = self.fetch_optional(sqlx::query(&sql).bind(phone))?;
        Ok(row.map(|r| player_from(&r)).transpose()?)
    }

    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival> {
        // The writes the last job left pending ride along, unless they touch
        // the players this statement reads (its CTEs cannot see each other's
        // writes). His match is looked up in a statement of its own, which
        // starts after the lock on him is ours and so sees what the last
        // transaction to hold it did: a statement sees the database as of its
        // start, even after waiting for a lock.
        let pending = if self.pending.players.is_empty() {
            std::mem::take(&mut self.pending)
        } else {
            self.before_statement()?;
            PendingWrites::default()
        };
        let sql = pending::statement(pending.mask(), Some(&ACCEPT_INBOUND));
        let q = bind_inbound(pending.bind(sqlx::query(sql)), msg);
        let row = self.driver.block_on(q.fetch_one(&mut *self.conn))?;
        if row.try_get::<i64, _>(6)? == 0 {
            return Ok(Arrival::Duplicate);
        }
        let known = row.try_get::<Option<i64>, _>(0)?.is_some();
        Ok(Arrival::New(if known {
            Some(player_from(&row)?)
        } else {
            None
        }))
    }

    fn player_by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.nick_key = $1");
        let q = sqlx::query(&sql).bind(nick.to_lowercase());
        let row = self.fetch_optional(q)?;
        Ok(row.map(|r| player_from(&r)).transpose()?)
    }

    fn create_player(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player> {
        let q = sqlx::query(
            "INSERT INTO players (phone, created_at, updated_at) VALUES ($1, $2, $2) RETURNING id",
        )
        .bind(phone)
        .bind(millis(now));
        let row = self.fetch_one(q)?;
        Ok(Player {
            id: row.try_get(0)?,
            phone: phone.to_string(),
            nick: None,
            lang: Lang::default(),
            opted_out: false,
            away: false,
        })
    }

    fn save_player(&mut self, p: &Player, now: DateTime<Utc>) -> StoreResult<()> {
        put(
            &mut self.pending.players,
            (p.clone(), millis(now)),
            |(old, _)| old.id == p.id,
        );
        Ok(())
    }

    fn enqueue_text(&mut self, t: &NewText, now: DateTime<Utc>) -> StoreResult<()> {
        self.pending.texts.push((t.clone(), millis(now)));
        self.queued_texts = true;
        Ok(())
    }

    fn cancel_texts_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64> {
        let q = sqlx::query(
            "UPDATE outbox SET status = 'cancelled', lease_until = NULL, updated_at = $2
             WHERE to_phone = $1 AND status = 'queued'",
        )
        .bind(phone)
        .bind(millis(now));
        self.execute(q)
    }

    fn claim_texts(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<OutboxText>> {
        // Two walks, each stopping at `limit`: texts whose lease ran out (the
        // oldest unsent of their phone, since the ones after them waited), and
        // queued texts in id order that no older unsent text to the same phone
        // holds back. Locked rows are another instance's claim in the making.
        let sql = format!(
            "WITH expired AS (
                SELECT o.id FROM outbox o
                WHERE o.status = 'sending' AND o.lease_until < $1
                ORDER BY o.lease_until LIMIT $3
                FOR UPDATE SKIP LOCKED),
             due AS (
                SELECT o.id FROM outbox o
                WHERE o.status = 'queued' AND o.next_attempt_at <= $1
                  AND NOT EXISTS (
                    SELECT 1 FROM outbox e
                    WHERE e.to_phone = o.to_phone AND e.id < o.id AND e.status IN ('queued', 'sending'))
                ORDER BY o.id LIMIT $3
                FOR UPDATE SKIP LOCKED)
             UPDATE outbox SET status = 'sending', lease_until = $2, attempts = attempts + 1, updated_at = $1
             WHERE id = ANY(ARRAY(SELECT id FROM expired) || ARRAY(SELECT id FROM due))
             RETURNING {TEXT_COLUMNS}"
        );
        let q = sqlx::query(&sql)
            .bind(millis(now))
            .bind(millis(lease_until))
            .bind(limit as i64);
        let rows = self.fetch_all(q)?;
        let mut texts = rows.iter().map(text_from).collect::<Result<Vec<_>, _>>()?;
        texts.sort_by_key(|t| t.id);
        Ok(texts)
    }

    fn next_text_due(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        // Two index lookups rather than one pass over every pending text.
        let q = sqlx::query(
            "SELECT LEAST(
                (SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'queued'),
                (SELECT MIN(lease_until) FROM outbox WHERE status = 'sending'))",
        );
        let row = self.fetch_one(q)?;
        Ok(row.try_get::<Option<i64>, _>(0)?.map(from_millis))
    }

    fn pending_texts(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        let sql = format!(
            "SELECT {TEXT_COLUMNS}, next_attempt_at FROM outbox
             WHERE status IN ('queued', 'sending') ORDER BY id"
        );
        let rows = self.fetch_all(sqlx::query(&sql))?;
        rows.iter()
            .map(|row| Ok((text_from(row)?, from_millis(row.try_get(10)?))))
            .collect()
    }

    fn mark_text_sent(
        &mut self,
        id: i64,
        attempts: u32,
        provider_ref: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        // Claimed texts only: one whose lease ran out may be another instance's now.
        let q = sqlx::query(
            "UPDATE outbox SET status = CASE WHEN status = 'sending' THEN 'sent' ELSE status END,
             attempts = $2, provider_ref = COALESCE($3, provider_ref), lease_until = NULL,
             last_error = NULL, updated_at = $4 WHERE id = $1",
        )
        .bind(id)
        .bind(attempts as i32)
        .bind(provider_ref)
        .bind(millis(now));
        self.execute(q)?;
        Ok(())
    }

    fn mark_texts_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        if sent.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = sent.iter().map(|t| t.id).collect();
        let attempts: Vec<i32> = sent.iter().map(|t| t.attempts as i32).collect();
        let refs: Vec<Option<String>> = sent
            .iter()
            .map(|t| t.provider_ref.map(str::to_string))
            .collect();
        let at: Vec<i64> = sent.iter().map(|t| millis(t.at)).collect();
        // The same as mark_text_sent, for every text in one statement.
        let q = sqlx::query(
            "UPDATE outbox o SET status = CASE WHEN o.status = 'sending' THEN 'sent' ELSE o.status END,
             attempts = v.attempts, provider_ref = COALESCE(v.provider_ref, o.provider_ref),
             lease_until = NULL, last_error = NULL, updated_at = v.at
             FROM UNNEST($1::bigint[], $2::int[], $3::text[], $4::bigint[]) AS v(id, attempts, provider_ref, at)
             WHERE o.id = v.id",
        )
        .bind(ids)
        .bind(attempts)
        .bind(refs)
        .bind(at);
        self.execute(q)?;
        Ok(())
    }

    fn mark_text_retry(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        next_attempt: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        let q = sqlx::query(
            "UPDATE outbox SET status = 'queued', attempts = $2, lease_until = NULL, last_error = $3,
             next_attempt_at = $4, updated_at = $5 WHERE id = $1 AND status = 'sending'",
        )
        .bind(id)
        .bind(attempts as i32)
        .bind(error)
        .bind(millis(next_attempt))
        .bind(millis(now));
        self.execute(q)?;
        Ok(())
    }

    fn mark_text_failed(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        let q = sqlx::query(
            "UPDATE outbox SET status = 'failed', attempts = $2, lease_until = NULL, last_error = $3,
             updated_at = $4 WHERE id = $1",
        )
        .bind(id)
        .bind(attempts as i32)
        .bind(error)
        .bind(millis(now));
        self.execute(q)?;
        Ok(())
    }

    fn report_text_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>> {
        let q = sqlx::query(
            "SELECT id, status FROM outbox WHERE provider_ref = $1 ORDER BY id LIMIT 1 FOR UPDATE",
        )
        .bind(provider_ref);
        let Some(row) = self.fetch_optional(q)? else {
            return Ok(None);
        };
        let id: i64 = row.try_get(0)?;
        let current: String = row.try_get(1)?;
        let current = TextStatus::parse(&current).unwrap_or(TextStatus::Queued);
        let next = super::advance_status(current, status);
        if next != current {
            let q = sqlx::query(
                "UPDATE outbox SET status = $2, last_error = COALESCE($3, last_error), updated_at = $4 WHERE id = $1",
            )
            .bind(id)
            .bind(next.as_str())
            .bind(error)
            .bind(millis(now));
            self.execute(q)?;
        }
        Ok(Some(next))
    }

    fn text_by_id(&mut self, id: i64) -> StoreResult<Option<OutboxText>> {
        let sql = format!("SELECT {TEXT_COLUMNS} FROM outbox WHERE id = $1");
        let q = sqlx::query(&sql).bind(id);
        let row = self.fetch_optional(q)?;
        Ok(row.map(|r| text_from(&r)).transpose()?)
    }

    fn lobby_join(
        &mut self,
        player_id: i64,
        game: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<()> {
        let q = sqlx::query(
            "INSERT INTO lobby (player_id, game, queued_at) VALUES ($1, $2, $3)
             ON CONFLICT (player_id) DO UPDATE SET game = excluded.game, queued_at = excluded.queued_at",
        )
        .bind(player_id)
        .bind(game)
        .bind(millis(queued_at));
        self.execute(q)?;
        Ok(())
    }

    fn lobby_leave(&mut self, player_id: i64) -> StoreResult<()> {
        self.pending.lobby_leaves.push(player_id);
        Ok(())
    }

    fn lobby_game_of(&mut self, player_id: i64) -> StoreResult<Option<String>> {
        let q = sqlx::query("SELECT game FROM lobby WHERE player_id = $1").bind(player_id);
        let row = self.fetch_optional(q)?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    fn lobby_queue(&mut self, game: &str, limit: usize) -> StoreResult<Vec<Player>> {
        // One matchmaker per game at a time, across every instance, until this transaction ends.
        let lock = sqlx::query("SELECT pg_advisory_xact_lock(hashtext('lobby:' || $1))").bind(game);
        self.execute(lock)?;
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM lobby l JOIN players p ON p.id = l.player_id
             WHERE l.game = $1 ORDER BY l.queued_at, l.player_id LIMIT $2 FOR UPDATE OF l"
        );
        let q = sqlx::query(&sql).bind(game).bind(limit as i64);
        let rows = self.fetch_all(q)?;
        Ok(rows
            .iter()
            .map(player_from)
            .collect::<Result<Vec<_>, _>>()?)
    }

    fn insert_match(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        let q = sqlx::query(
            "INSERT INTO matches (game, state, seed, rng_pos, deadline_at, rematch_of, started_at, initial_state)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $2) RETURNING id",
        )
        .bind(&new.game)
        .bind(&new.state)
        .bind(new.seed as i64)
        .bind(new.rng_pos.to_string())
        .bind(new.deadline_at.map(millis))
        .bind(new.rematch_of)
        .bind(millis(now));
        let id: i64 = self.fetch_one(q)?.try_get(0)?;
        let q = sqlx::query(
            "INSERT INTO match_seats (match_id, seat, player_id)
             SELECT $1, v.ord - 1, v.player_id FROM UNNEST($2::bigint[]) WITH ORDINALITY AS v(player_id, ord)",
        )
        .bind(id)
        .bind(&new.players);
        self.execute(q)?;
        Ok(id)
    }

    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches m WHERE m.id = $1 FOR UPDATE");
        let q = sqlx::query(&sql).bind(id);
        let row = self.fetch_optional(q)?;
        Ok(row.map(|r| match_from_at(&r, 0)).transpose()?)
    }

    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM match_seats s JOIN matches m ON m.id = s.match_id
             WHERE s.player_id = $1 ORDER BY s.match_id DESC LIMIT 1 FOR UPDATE OF m"
        );
        let row = self.fetch_optional(sqlx::query(&sql).bind(player_id))?;
        Ok(row.map(|r| match_from_at(&r, 0)).transpose()?)
    }

    fn save_match(&mut self, m: &MatchRecord) -> StoreResult<()> {
        put(&mut self.pending.matches, m.clone(), |old| old.id == m.id);
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        let sql = format!(
            "SELECT s.seat, s.missed, s.rematch_at, s.message_sent, {SEAT_PLAYER_COLUMNS}
             FROM match_seats s JOIN players sp ON sp.id = s.player_id WHERE s.match_id = $1 ORDER BY s.seat"
        );
        let rows = self.fetch_all(sqlx::query(&sql).bind(match_id))?;
        Ok(rows
            .iter()
            .map(|row| seat_from_at(row, 0))
            .collect::<Result<Vec<_>, _>>()?)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRecord) -> StoreResult<()> {
        put(
            &mut self.pending.seats,
            (match_id, seat.clone()),
            |(id, old)| *id == match_id && old.seat == seat.seat,
        );
        Ok(())
    }

    fn record_move(
        &mut self,
        match_id: i64,
        seat: usize,
        notation: &str,
        automatic: bool,
        state_after: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        self.pending.moves.push(NewMove {
            match_id,
            seat: seat as i32,
            notation: notation.to_string(),
            automatic,
            at: millis(now),
            state_after: state_after.to_string(),
        });
        Ok(())
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        let q = sqlx::query(
            "SELECT ply, seat, move, automatic, state_after FROM match_moves WHERE match_id = $1 ORDER BY ply",
        )
        .bind(match_id);
        let rows = self.fetch_all(q)?;
        let moves = rows
            .iter()
            .map(|r| {
                Ok(MoveRecord {
                    ply: r.try_get::<i32, _>(0)? as u32,
                    seat: r.try_get::<i32, _>(1)? as usize,
                    notation: r.try_get(2)?,
                    automatic: r.try_get(3)?,
                    state_after: r.try_get(4)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(moves)
    }

    fn due_turns(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>> {
        let q = sqlx::query(
            "SELECT id FROM matches WHERE NOT finished AND deadline_at <= $1
             ORDER BY deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED",
        )
        .bind(millis(now))
        .bind(limit as i64);
        ids(self.fetch_all(q)?)
    }

    fn due_rematches(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>> {
        let q = sqlx::query(
            "SELECT id FROM matches WHERE rematch_deadline_at <= $1
             ORDER BY rematch_deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED",
        )
        .bind(millis(now))
        .bind(limit as i64);
        ids(self.fetch_all(q)?)
    }

    fn next_timer(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        let q = sqlx::query(
            "SELECT LEAST(
                (SELECT MIN(deadline_at) FROM matches WHERE NOT finished),
                (SELECT MIN(rematch_deadline_at) FROM matches WHERE rematch_deadline_at IS NOT NULL))",
        );
        let row = self.fetch_one(q)?;
        Ok(row.try_get::<Option<i64>, _>(0)?.map(from_millis))
    }

    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64> {
        if !super::KNOWN_TABLES.contains(&table) {
            return Err(StoreError::Corrupt(format!("no table {table}")));
        }
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let q = sqlx::query(&sql);
        Ok(self.fetch_one(q)?.try_get(0)?)
    }

    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>> {
        let sql = format!("SELECT {TEXT_COLUMNS} FROM outbox WHERE to_phone = $1 ORDER BY id");
        let q = sqlx::query(&sql).bind(phone);
        let rows = self.fetch_all(q)?;
        Ok(rows.iter().map(text_from).collect::<Result<Vec<_>, _>>()?)
    }
}
