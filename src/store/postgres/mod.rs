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
//! - matchmaking takes a transaction-scoped advisory lock per queue (key
//!   `lobby:<game>:<options>`), so no two instances form groups from the
//!   same queue at once; the writer's batch only tries it, and a queue held
//!   elsewhere is busy ([`crate::store::Queue::Busy`]), to be matched again
//!   by a solo transaction that waits;
//! - outbox texts and due timers are claimed with `FOR UPDATE SKIP LOCKED`, and
//!   a claimed text carries a lease that another instance may take over once it expires;
//! - a closure that meets a deadlock, a serialization failure, a lock wait
//!   longer than a batch takes (20 ms, `LOCK_TIMEOUT` in `writer.rs`) or a
//!   unique-key race (two instances creating the same phone's row) is undone
//!   and runs again in a transaction of its own on the pool, beside the
//!   writer, where it waits for the lock's holder with no other caller's locks
//!   held and no caller waiting behind it ([`group_commit::Patience`]).
//!
//! The dispatcher's claims and records, the robots' claims and the
//! writer's conflicted callers run beside the writer on a small pool of
//! their own ([`PgStore::run_solo`]): every caller in a batch would wait for
//! them. A claim of texts and a record of sends are one statement each and
//! run with no BEGIN and COMMIT around them ([`PgStore::run_unframed`]).
//! Like the writer's, its sessions plan each statement once
//! ([`planned_once`]). Reads that need no lock (the admin API, the console,
//! tests) have a pool of their own ([`PgStore::read`]), planned per run.
//!
//! Files: `writer.rs` the writer thread, `tx.rs` the transaction (lobby,
//! matches, timers), `players.rs` its players, `outbox.rs` its outbox,
//! `pending.rs` and `parts.rs` the deferred writes, `read.rs` the read side,
//! `exec.rs` the executor of the shared statements table.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::Postgres;
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::postgres::{PgArguments, PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use tokio::runtime::{Handle, Runtime};
use tokio::sync::{Notify, mpsc};

use super::group_commit::{self, BatchTx, Job, Patience};
use super::tx::{Read, Tx};
use super::{StoreError, StoreResult};

mod exec;
mod outbox;
mod parts;
mod pending;
#[cfg(test)]
mod plans;
mod players;
mod read;
mod tx;
mod writer;

use read::PgRead;
use tx::PgTx;

#[derive(Clone)]
pub struct PgStore {
    jobs: mpsc::Sender<Box<dyn Job>>,
    /// For [`PgStore::run_solo`] and the writer's conflicted callers, planned
    /// as the writer is ([`planned_once`]).
    solo: PgPool,
    /// For reads and health checks: any query, planned for each run.
    pool: PgPool,
    texts_queued: Arc<Notify>,
    /// Where the writer reports its work for the metrics, once one listens.
    probe: crate::store::probe::ProbeCell,
}

impl PgStore {
    pub async fn open(
        url: &str,
        pool_size: u32,
        max_batch: usize,
        queue_depth: usize,
    ) -> StoreResult<PgStore> {
        let options = PgConnectOptions::from_str(url)?;
        // Reads are of every kind, the console's reports among them, and
        // are few: each is planned for its parameters.
        let pool_of = || {
            PgPoolOptions::new()
                .max_connections(pool_size.max(1))
                .acquire_timeout(Duration::from_secs(5))
        };
        let pool = pool_of()
            .connect_with(
                options
                    .clone()
                    .options([("plan_cache_mode", "force_custom_plan")]),
            )
            .await?;
        let solo = pool_of().connect_lazy_with(planned_once(options.clone()));
        // Several instances may start at once: the migrator takes an advisory lock.
        migrator()
            .await
            .run(&pool)
            .await
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let texts_queued = Arc::new(Notify::new());
        let (jobs, rx) = mpsc::channel(queue_depth.max(1));
        let probe = crate::store::probe::ProbeCell::default();
        let retries = writer::Retries {
            pool: solo.clone(),
            runtime: Handle::current(),
            probe: probe.clone(),
        };
        writer::Writer::new(
            options,
            max_batch,
            texts_queued.clone(),
            retries,
            probe.clone(),
        )
        .start(rx)?;
        Ok(PgStore {
            jobs,
            solo,
            pool,
            texts_queued,
            probe,
        })
    }

    pub(crate) fn probe(&self) -> &crate::store::probe::ProbeCell {
        &self.probe
    }

    pub fn queue_depth(&self) -> usize {
        self.jobs.max_capacity() - self.jobs.capacity()
    }

    pub async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        group_commit::submit(&self.jobs, f).await
    }

    /// Like `run`, but [`StoreError::Busy`] at once when the writer's queue is full.
    pub async fn try_run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        group_commit::try_submit(&self.jobs, f).await
    }

    /// Runs `f` in a transaction of its own on a pooled connection, beside
    /// the writer's batches, and runs it again after a conflict.
    pub async fn run_solo<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        self.solo(f, Framing::Transaction).await
    }

    /// Like [`PgStore::run_solo`], but each statement commits on its own.
    pub async fn run_unframed<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        self.solo(f, Framing::None).await
    }

    async fn solo<T, F>(&self, f: F, framing: Framing) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        let mut f = f;
        let mut attempt = 1;
        loop {
            // The connection is awaited here, not on the blocking thread: a
            // blocking thread per waiting caller grew to hundreds of threads.
            let mut conn = self.solo.acquire().await?;
            let handle = Handle::current();
            // The closure travels to the blocking thread and back, for a re-run.
            let (work, conn, outcome) = tokio::task::spawn_blocking(move || {
                let outcome = solo_once(Driver::Handle(&handle), &mut conn, &f, framing);
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

    /// Runs `f` on a pooled connection in a read-only transaction: one
    /// snapshot, no row locks, nothing through the writer.
    pub async fn read<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn Read) -> StoreResult<T> + Send + 'static,
    {
        let mut conn = self.pool.acquire().await?;
        let handle = Handle::current();
        tokio::task::spawn_blocking(move || {
            let driver = Driver::Handle(&handle);
            driver.block_on(
                sqlx::raw_sql("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    .execute(&mut *conn),
            )?;
            let result = catch_unwind(AssertUnwindSafe(|| {
                f(&mut PgRead {
                    driver,
                    conn: &mut conn,
                })
            }))
            .unwrap_or(Err(StoreError::Panicked));
            if driver
                .block_on(sqlx::raw_sql("COMMIT").execute(&mut *conn))
                .is_err()
            {
                drop(conn.detach());
            }
            result
        })
        .await
        .map_err(|_| StoreError::Panicked)?
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

/// The embedded migrations (`store::migrations`) as sqlx's migrator reads them.
#[derive(Debug)]
struct EmbeddedMigrations;

impl<'s> MigrationSource<'s> for EmbeddedMigrations {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>> {
        let migrations = super::migrations::postgres()
            .into_iter()
            .map(|m| {
                let no_tx = m.sql.starts_with("-- no-transaction");
                Migration::new(
                    m.version,
                    m.description.into(),
                    MigrationType::Simple,
                    m.sql.into(),
                    no_tx,
                )
            })
            .collect();
        Box::pin(std::future::ready(Ok(migrations)))
    }
}

/// The migrator, which takes an advisory lock so that instances starting
/// together migrate once.
async fn migrator() -> Migrator {
    Migrator::new(EmbeddedMigrations)
        .await
        .expect("the embedded migrations resolve without I/O")
}

/// Sessions whose statements all find their rows by key (the writer's, and
/// the claims and records beside it): each statement is planned once per
/// connection. Re-planning on every run was two thirds of the writer's
/// statements' cost, and about half of a claim's. A plan made while the
/// tables were small (a fresh database, statistics not yet gathered) would
/// scan them whole ever after: kept plans chosen so took 3.5 ms a claim
/// instead of 0.6, and 7.6 ms a record of sends instead of 0.7. So scans and
/// hash or merge joins are priced out, leaving the index lookups that are
/// right at any size.
fn planned_once(options: PgConnectOptions) -> PgConnectOptions {
    options.options([
        ("plan_cache_mode", "force_generic_plan"),
        ("enable_seqscan", "off"),
        ("enable_hashjoin", "off"),
        ("enable_mergejoin", "off"),
        // A plan priced out of what it had to keep (a scan of a table with
        // no usable index) costs past `jit_above_cost`, and PostgreSQL would
        // compile it on every run: 150 ms for a record of sends.
        ("jit", "off"),
    ])
}

/// Whether a solo caller's statements run in one transaction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// BEGIN, the closure, its pending writes, COMMIT.
    Transaction,
    /// Each statement on its own: for a closure of one statement (a claim, a
    /// look-up), where BEGIN and COMMIT would be two round trips more than
    /// the statement itself. With three instances they were a fifth of
    /// every statement PostgreSQL ran (`BENCHMARKS.md`).
    None,
}

/// One solo run of `f`, framed as `framing` says.
fn solo_once<T, F>(
    driver: Driver<'_>,
    conn: &mut PgConnection,
    f: &F,
    framing: Framing,
) -> StoreResult<T>
where
    F: Fn(&mut dyn Tx) -> StoreResult<T>,
{
    let framed = framing == Framing::Transaction;
    let mut tx = PgTx::new(driver, conn, Patience::Long);
    // A caller on its own holds nothing another waits for: it may wait (a
    // pooled session sets no lock timeout).
    if framed {
        tx.begin()?;
    }
    let result = catch_unwind(AssertUnwindSafe(|| f(&mut tx)))
        .unwrap_or(Err(StoreError::Panicked))
        .and_then(|value| {
            tx.flush()?;
            if framed {
                tx.commit()?;
            }
            Ok(value)
        });
    if result.is_err() && framed {
        tx.rollback();
    }
    result
}

/// Whether a connection whose transaction failed is fit to reuse: only when
/// the database itself refused a statement (the rollback then went through).
fn conn_is_clean<T>(outcome: &StoreResult<T>) -> bool {
    matches!(outcome, Err(StoreError::Postgres(sqlx::Error::Database(_))))
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
