//! The PostgreSQL writer: a thread with its own single-threaded runtime and
//! connection, running callers' closures in batches through [`group_commit`],
//! so that a statement's round trip involves no other thread.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::Connection;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool};
use tokio::runtime::Handle;
use tokio::sync::{Notify, mpsc};

use super::tx::PgTx;
use super::{Driver, conn_is_clean};
use crate::store::group_commit::{self, Job, Patience};
use crate::store::probe::{self, ProbeCell};
use crate::store::{StoreError, StoreResult};

/// Pause before the writer tries to reconnect after failing to.
const RECONNECT_PAUSE: Duration = Duration::from_millis(200);
/// Longest a new caller waits in the writer's batch for a lock another
/// instance's batch holds (a match, a lobby queue, a player's row): about as
/// long as a batch takes to commit, so a wait that runs out is almost surely
/// a cycle between two batches, which it breaks ([`group_commit::Patience`]).
const LOCK_TIMEOUT: &str = "20ms";
/// Idle time after which the writer checks its connection before using it.
const IDLE_CHECK: Duration = Duration::from_secs(2);

pub(super) struct Writer {
    options: PgConnectOptions,
    max_batch: usize,
    texts_queued: Arc<Notify>,
    /// Where callers that met a conflict run again, each on its own.
    retries: Retries,
    probe: ProbeCell,
}

/// The solo sessions' pool and the service's runtime, for retries beside the writer.
#[derive(Clone)]
pub(super) struct Retries {
    pub pool: PgPool,
    pub runtime: Handle,
    pub probe: ProbeCell,
}

impl Writer {
    pub fn new(
        options: PgConnectOptions,
        max_batch: usize,
        texts_queued: Arc<Notify>,
        retries: Retries,
        probe: ProbeCell,
    ) -> Writer {
        Writer {
            options: writer_options(options),
            max_batch: max_batch.max(1),
            texts_queued,
            retries,
            probe,
        }
    }

    pub fn start(self, rx: mpsc::Receiver<Box<dyn Job>>) -> StoreResult<()> {
        std::thread::Builder::new()
            .name("pg-writer".into())
            .spawn(move || self.run(rx))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer thread: {e}")))?;
        Ok(())
    }

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
        while let Some(patience) =
            group_commit::next_batch(&mut rx, &mut batch, &mut again, self.max_batch)
        {
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
            let started = Instant::now();
            let mut tx = PgTx::new(Driver::Runtime(&rt), c, patience);
            let outcome = group_commit::run_batch(&mut tx, &mut batch, patience);
            let queued_texts = tx.queued_texts;
            probe::batch(
                &self.probe,
                started.elapsed(),
                outcome.is_ok(),
                tx.queued_to.iter().map(String::as_str),
            );
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
            if !again.is_empty() {
                tracing::debug!(
                    callers = again.len(),
                    "callers that met a conflict run again on the pool"
                );
            }
            probe::refused(&self.probe, again.len());
            for job in again.drain(..) {
                self.retries.run(job, self.texts_queued.clone());
            }
        }
    }
}

impl Retries {
    /// Runs a caller that met a conflict again, in a transaction of its own on
    /// a pooled connection, where it may wait for the other instance's COMMIT
    /// while the writer goes on with the callers behind it.
    fn run(&self, mut job: Box<dyn Job>, texts_queued: Arc<Notify>) {
        let pool = self.pool.clone();
        let probe = self.probe.clone();
        self.runtime.spawn(async move {
            let mut conn = match pool.acquire().await {
                Ok(conn) => conn,
                Err(e) => {
                    job.fail(e.into());
                    job.finish(Ok(()));
                    return;
                }
            };
            let handle = Handle::current();
            let _ = tokio::task::spawn_blocking(move || {
                let mut tx = PgTx::new(Driver::Handle(&handle), &mut conn, Patience::Long);
                let started = Instant::now();
                let outcome = group_commit::run_alone(&mut tx, job);
                probe::batch(
                    &probe,
                    started.elapsed(),
                    outcome.is_ok(),
                    tx.queued_to.iter().map(String::as_str),
                );
                if outcome.is_ok() && tx.queued_texts {
                    texts_queued.notify_one();
                }
                if outcome.is_err() && !conn_is_clean(&outcome) {
                    drop(conn.detach());
                }
            })
            .await;
        });
    }
}

/// The writer plans as the solo sessions do ([`super::planned_once`]).
///
/// A batch holds every lock its callers took until its COMMIT, so two
/// instances' batches can wait for each other; PostgreSQL would notice only
/// after `deadlock_timeout` (1 s by default). So a new caller waits for a
/// lock at most [`LOCK_TIMEOUT`], time enough for the holder's batch to
/// commit; one that gives up runs again in a transaction of its own on the
/// pool, which waits, with nothing else's locks held, for as long as the
/// holder takes (pooled sessions set no lock timeout; should two retries wait
/// for each other, PostgreSQL's deadlock check ends it after a second).
/// Refusing a held match or queue at once (`NOWAIT`) sent one text in eight
/// with three instances through that second transaction, after undoing its
/// work in the batch; waiting 20 ms cost PostgreSQL 15 % less CPU per text
/// (`BENCHMARKS.md`).
fn writer_options(options: PgConnectOptions) -> PgConnectOptions {
    super::planned_once(options).options([("lock_timeout", LOCK_TIMEOUT)])
}
