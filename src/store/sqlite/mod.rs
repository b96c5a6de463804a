//! SQLite backend: one dedicated writer thread, cached statements, group commit.
//!
//! Why not sqlx here: its SQLite driver hands every statement to a worker
//! thread and back (~430 µs per move measured); one rusqlite connection owned
//! by one thread, committing many callers' work per transaction, is ten times
//! faster and gives SQLite the single writer it wants. Batches run through
//! [`group_commit`]: one caller's error rolls back only its writes, and every
//! caller hears back only after the shared COMMIT. Reads that need no lock
//! (the admin API, tests) go to a second connection ([`SqliteStore::read`]),
//! which WAL lets run beside the writer.
//!
//! Files: `tx.rs` the writer's transaction (players, lobby, matches,
//! timers), `outbox.rs` its outbox, `queries.rs` the statements the writer
//! and the reader share, `read.rs` the read side, `exec.rs` the executor of
//! the shared statements table.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use rusqlite::Connection;
use rusqlite_migration::{M, Migrations};
use tokio::sync::mpsc;

use super::group_commit::{self, Job};
use super::model::OutboxEvent;
use super::probe::ProbeCell;
use super::tx::{Read, Tx};
use super::{StoreError, StoreResult};

mod copies;
mod exec;
mod held;
mod lock;
mod outbox;
mod read;
mod tx;

use lock::{LOCK_WAIT, WriterLock};
use read::SqliteRead;
pub(super) use tx::SqliteTx;

/// The schema's migrations in rusqlite_migration's terms.
pub(super) fn migrations() -> Migrations<'static> {
    Migrations::new(
        super::migrations::sqlite()
            .into_iter()
            .map(|m| M::up(m.sql))
            .collect(),
    )
}

/// Creates the database file readable and writable by its owner only
/// (`0600`): it holds every player's number and texts. SQLite gives its WAL
/// and shared-memory files the database file's permissions. A file that is
/// already there keeps its mode, with a warning if others may read it.
fn owner_only(path: &Path) -> StoreResult<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let created = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path);
        match created {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let mode = std::fs::metadata(path)
                    .map_err(|e| StoreError::Corrupt(format!("{path:?}: {e}")))?
                    .permissions()
                    .mode();
                if mode & 0o077 != 0 {
                    tracing::warn!(
                        file = %path.display(),
                        mode = format!("{:o}", mode & 0o777),
                        "the database file may be read by other users of this host; chmod 600 it"
                    );
                }
            }
            Err(e) => return Err(StoreError::Corrupt(format!("{path:?}: {e}"))),
        }
    }
    Ok(())
}

/// The page size of a database file this process creates.
const PAGE_SIZE: i64 = 2048;

/// Handle to the SQLite database; cheap to clone.
#[derive(Clone)]
pub struct SqliteStore {
    jobs: mpsc::Sender<Box<dyn Job>>,
    reader: Arc<Mutex<Connection>>,
    /// Where the writer tells the dispatcher what each commit did to the outbox, once one listens.
    feed: Feed,
    /// Where the writer reports its work for the metrics, once one listens.
    probe: ProbeCell,
}

type Feed = Arc<OnceLock<mpsc::UnboundedSender<OutboxEvent>>>;

impl SqliteStore {
    /// Opens the file (creating it and its folder), migrates it and starts the
    /// writer thread, the file's one writer for as long as it runs ([`lock`]).
    pub fn open(path: &str, max_batch: usize, queue_depth: usize) -> StoreResult<SqliteStore> {
        if let Some(dir) = Path::new(path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
        {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Corrupt(format!("{dir:?}: {e}")))?;
        }
        owner_only(Path::new(path))?;
        let lock = WriterLock::take(Path::new(path), LOCK_WAIT)?;
        let mut writer = Connection::open(path)?;
        // A new file's pages are 2 KiB, not SQLite's 4: a commit writes
        // every page it changed to the WAL whole, checksummed, and a batch of
        // moves changes a row or two in each of a dozen pages, so half the
        // page is half those bytes (BENCHMARKS.md, issue 30). It must come
        // before WAL is set; a file that has tables keeps its own.
        writer.pragma_update(None, "page_size", PAGE_SIZE)?;
        // WAL lets readers run beside the writer; FULL makes every
        // acknowledged message survive a power cut, not just a crash.
        writer.pragma_update(None, "journal_mode", "WAL")?;
        writer.pragma_update(None, "synchronous", "FULL")?;
        writer.pragma_update(None, "busy_timeout", 5000)?;
        writer.pragma_update(None, "foreign_keys", "ON")?;
        // Statement journals (a batch re-run with savepoints) stay in memory.
        writer.pragma_update(None, "temp_store", "MEMORY")?;
        migrations().to_latest(&mut writer)?;

        let reader = Connection::open(path)?;
        reader.pragma_update(None, "busy_timeout", 5000)?;
        reader.pragma_update(None, "query_only", true)?;

        let (jobs, rx) = mpsc::channel(queue_depth.max(1));
        let feed = Feed::default();
        let probe = ProbeCell::default();
        let (writer_feed, writer_probe) = (feed.clone(), probe.clone());
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || {
                let _lock = lock;
                writer_loop(writer, rx, max_batch.max(1), &writer_feed, &writer_probe);
            })
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore {
            jobs,
            reader: Arc::new(Mutex::new(reader)),
            feed,
            probe,
        })
    }

    pub(crate) fn probe(&self) -> &ProbeCell {
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

    /// Runs `f` on the read connection, in a read transaction of its own, so
    /// that everything it reads is of one commit.
    pub async fn read<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn Read) -> StoreResult<T> + Send + 'static,
    {
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            // A panic in `f` is caught inside the lock: it neither poisons the
            // reader (every later read, `/healthz` among them, would fail
            // until a restart) nor leaves its transaction open.
            let conn = reader
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            conn.execute_batch("BEGIN")?;
            let result = catch_unwind(AssertUnwindSafe(|| f(&mut SqliteRead { conn: &conn })))
                .unwrap_or(Err(StoreError::Panicked));
            let _ = conn.execute_batch("COMMIT");
            result
        })
        .await
        .map_err(|_| StoreError::Panicked)?
    }

    pub async fn ping(&self) -> StoreResult<()> {
        if self.jobs.is_closed() {
            return Err(StoreError::WriterGone);
        }
        self.read(|_| Ok(())).await
    }

    /// Subscribes the (one) dispatcher to what each commit does to the outbox.
    pub fn take_outbox_feed(&self) -> Option<mpsc::UnboundedReceiver<OutboxEvent>> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.feed.set(tx).ok().map(|()| rx)
    }
}

fn writer_loop(
    conn: Connection,
    mut rx: mpsc::Receiver<Box<dyn Job>>,
    max_batch: usize,
    feed: &Feed,
    probe: &ProbeCell,
) {
    let mut batch: Vec<Box<dyn Job>> = Vec::with_capacity(max_batch);
    // Stays empty: conflicts with other transactions need another writer.
    let mut again: Vec<Box<dyn Job>> = Vec::new();
    let mut tx = SqliteTx::new(&conn);
    while let Some(patience) = group_commit::next_batch(&mut rx, &mut batch, &mut again, max_batch)
    {
        let started = std::time::Instant::now();
        let outcome = group_commit::run_batch(&mut tx, &mut batch, patience);
        if let Err(e) = &outcome {
            tracing::error!(error = %e, jobs = batch.len(), "sqlite batch failed");
        }
        // Counted before the callers hear of their commit, so that what
        // they do next (a scrape) sees it.
        crate::store::probe::batch(
            probe,
            started.elapsed(),
            outcome.is_ok(),
            tx.db.events.iter().filter_map(|e| match e {
                OutboxEvent::Queued(t) => Some(t.to.as_str()),
                _ => None,
            }),
        );
        group_commit::finish_batch(&mut batch, &outcome, &mut again);
        let events = std::mem::take(&mut tx.db.events);
        if let (Ok(()), Some(feed)) = (&outcome, feed.get()) {
            for event in events {
                // A dispatcher that has stopped reads the table when it starts again.
                let _ = feed.send(event);
            }
        }
    }
}

#[cfg(test)]
mod tests;
