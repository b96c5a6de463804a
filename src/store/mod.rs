//! The store: one transactional interface ([`Tx`]) over SQLite (the embedded
//! default) and PostgreSQL (several instances on one database).
//!
//! Everything the platform does to the database happens inside one call of
//! [`Store::run`]: the closure gets a [`Tx`], and either all its writes commit
//! (the inbound id, the new state and every outgoing text) or none do. The
//! closure is synchronous so that each backend can run it on its single
//! writer thread and commit many of them in one transaction (group commit).
//! Reads that need no lock go beside the writer ([`Store::read`]).
//!
//! Files: `records.rs` the records, `tx.rs` the transaction's concerns and
//! the read side, `rows.rs` the row codec both backends share,
//! `statements.rs` the statements written once for both backends,
//! `group_commit.rs` the batch runner both writers share, `sqlite/` and
//! `postgres/` the backends.

mod backend;
pub mod console;
mod delivery;
mod group_commit;
mod inbound;
mod lookups;
mod migrations;
mod model;
mod outbox;
mod postgres;
pub mod probe;
pub(crate) mod reference;
mod rows;
mod sql;
mod sqlite;
mod standings;
mod statements;
mod tx;
mod writes;

pub use console::{
    AuditEntry, ConsoleCounts, ConsoleRead, ConsoleWrite, InboundText, NewAudit, NewSession,
};
pub use model::{
    Arrival, Fragment, Holder, MatchRow, MoveKind, MoveRow, NewMatch, NewMove, NewSeat, NewText,
    OutboxEvent, OutboxText, PartArrival, Player, RobotTurn, SeatRow, SentText, TextStatus,
};
pub use postgres::PgStore;
pub use sqlite::SqliteStore;
pub use standings::{Leader, Places, RatingChange, StandingRow, Standings, StandingsRead};
pub use tx::{
    Fragments, Hall, Inbound, Lobby, Matches, Outbox, Players, Pool, Queue, Read, Robots, Timers,
    Tx,
};

/// Why the store could not do what was asked. Internals are logged, never shown to callers.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("postgres: {0}")]
    Postgres(#[from] sqlx::Error),
    #[error("migration: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("the database writer has stopped")]
    WriterGone,
    /// The writer's queue is full: try again shortly.
    #[error("the database writer is busy")]
    Busy,
    #[error("commit failed: {0}")]
    CommitFailed(String),
    #[error("the transaction panicked")]
    Panicked,
    /// The URL as [`shown_database_url`](crate::config::shown_database_url) shows it: its credentials masked.
    #[error("unsupported database url {0} (expected sqlite://FILE or postgres://...)")]
    UnsupportedUrl(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// Another writer (another gateway) has the SQLite file.
    #[error(
        "the database file {file} is in use by {holder}: one gateway at a time may use a SQLite file"
    )]
    InUse { file: String, holder: String },
}

pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    /// A deadlock, serialization failure, lock wait given up on (the
    /// writer's `lock_timeout`), or unique-key race with another transaction
    /// (PostgreSQL): the same work run again afterwards may well succeed.
    pub fn is_conflict(&self) -> bool {
        match self {
            StoreError::Postgres(sqlx::Error::Database(db)) => {
                matches!(
                    db.code().as_deref(),
                    Some("40001" | "40P01" | "23505" | "55P03")
                )
            }
            _ => false,
        }
    }
}

/// The configured database.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

impl Store {
    /// Opens (creating and migrating) the database a URL names.
    pub async fn open(url: &str, max_batch: usize) -> StoreResult<Store> {
        Store::open_with_queue(url, max_batch, crate::config::DEFAULT_QUEUE_DEPTH).await
    }

    /// Like [`Store::open`], with at most `queue_depth` callers waiting for
    /// the writer before [`Store::try_run`] answers [`StoreError::Busy`].
    pub async fn open_with_queue(
        url: &str,
        max_batch: usize,
        queue_depth: usize,
    ) -> StoreResult<Store> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Store::Postgres(
                PgStore::open(url, PG_POOL_SIZE, max_batch, queue_depth).await?,
            ));
        }
        if let Some(path) = url.strip_prefix("sqlite://") {
            let path = path.to_string();
            let store = tokio::task::spawn_blocking(move || {
                SqliteStore::open(&path, max_batch, queue_depth)
            })
            .await
            .map_err(|_| StoreError::WriterGone)??;
            Ok(Store::Sqlite(store))
        } else {
            Err(StoreError::UnsupportedUrl(
                crate::config::shown_database_url(url),
            ))
        }
    }

    /// Runs `f` in one transaction and returns its result once the transaction committed.
    /// An `Err` from `f` rolls back everything `f` wrote. `f` may run more than once
    /// (a batch is re-run when one of its callers failed; PostgreSQL re-runs a
    /// caller that lost a deadlock), so it must not have effects outside the transaction.
    pub async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        match self {
            Store::Sqlite(s) => s.run(f).await,
            Store::Postgres(s) => s.run(f).await,
        }
    }

    /// Like [`Store::run`], but a writer whose queue is full answers
    /// [`StoreError::Busy`] at once instead of making the caller wait: for
    /// webhooks, whose provider retries a 503 later.
    pub async fn try_run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        match self {
            Store::Sqlite(s) => s.try_run(f).await,
            Store::Postgres(s) => s.try_run(f).await,
        }
    }

    /// Like [`Store::run`], but outside the batches of callers that
    /// [`Store::run`] commits together, where there are such (PostgreSQL): for
    /// the dispatcher's claims, which scan the outbox and would hold up every
    /// caller of a batch. On SQLite, with its one writer, the same as `run`.
    pub async fn run_solo<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        match self {
            Store::Sqlite(s) => s.run(f).await,
            Store::Postgres(s) => s.run_solo(f).await,
        }
    }

    /// Like [`Store::run_solo`], but with no transaction around `f` where
    /// that saves round trips (PostgreSQL): each of its statements commits
    /// on its own. For a closure of one statement, such as a claim; on
    /// SQLite, the same as `run`.
    pub async fn run_unframed<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        match self {
            Store::Sqlite(s) => s.run(f).await,
            Store::Postgres(s) => s.run_unframed(f).await,
        }
    }

    /// Runs `f` beside the writer, on a connection of its own, in one
    /// read-only snapshot and without locks: for the admin API, operators and
    /// tests. What it reads is what the last commit left.
    pub async fn read<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut dyn Read) -> StoreResult<T> + Send + 'static,
    {
        match self {
            Store::Sqlite(s) => s.read(f).await,
            Store::Postgres(s) => s.read(f).await,
        }
    }

    /// Reports the writer's work to `probe` from now on (once; later calls
    /// change nothing).
    pub fn observe(&self, probe: probe::Probe) {
        let cell = match self {
            Store::Sqlite(s) => s.probe(),
            Store::Postgres(s) => s.probe(),
        };
        let _ = cell.set(probe);
    }

    /// Callers waiting for the writer.
    pub fn queue_depth(&self) -> usize {
        match self {
            Store::Sqlite(s) => s.queue_depth(),
            Store::Postgres(s) => s.queue_depth(),
        }
    }

    /// Answers whether the database is reachable.
    pub async fn ping(&self) -> StoreResult<()> {
        match self {
            Store::Sqlite(s) => s.ping().await,
            Store::Postgres(s) => s.ping().await,
        }
    }

    /// The outbox as a stream of committed changes, for the one dispatcher of a
    /// store whose every write goes through this process (SQLite: one writer
    /// thread). That dispatcher needs no claim queries: it keeps each phone's
    /// texts in order in memory and reads the table only when it starts.
    /// `None` for a store shared by several instances (PostgreSQL), where the
    /// order of a phone's texts is only known to the database, and for a
    /// second caller.
    pub fn take_outbox_feed(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<OutboxEvent>> {
        match self {
            Store::Sqlite(s) => s.take_outbox_feed(),
            Store::Postgres(_) => None,
        }
    }

    /// For a store whose dispatcher claims texts (PostgreSQL): signalled when a
    /// transaction of this instance that queued texts has committed, so the
    /// claiming loop waits on it instead of polling. `None` for SQLite, whose
    /// dispatcher hears of every text through [`Store::take_outbox_feed`].
    pub fn texts_queued(&self) -> Option<&tokio::sync::Notify> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(s) => Some(s.texts_queued()),
        }
    }
}

/// Pooled connections each instance may keep to PostgreSQL beside its
/// writer's one, in each of two pools: the claims and records
/// ([`Store::run_solo`]), and reads and health checks.
const PG_POOL_SIZE: u32 = 4;

/// The store's tables, which [`Read::count_rows`] may name (the name is
/// spliced into SQL, so it is checked against this list).
pub const TABLES: &[&str] = &[
    "players",
    "inbound",
    "outbox",
    "lobby",
    "matches",
    "match_seats",
    "match_moves",
    "robot_turns",
    "inbound_fragments",
    "inbound_parts",
    "hall_phones",
    "audit",
    "early_reports",
    "ratings",
    "rating_changes",
];

/// How long a delivery report that arrived before its text was recorded as
/// sent waits for it: a send is recorded within seconds, so a day is only a
/// bound on references that are not ours.
pub(crate) const EARLY_REPORT_KEPT: chrono::TimeDelta = chrono::TimeDelta::days(1);

/// The status a text moves to when a delivery report says `reported`: reports
/// arrive out of order, so a status only ever moves forward
/// (queued < sending < sent < delivered | failed), and final states stay final.
pub(crate) fn advance_status(current: TextStatus, reported: TextStatus) -> TextStatus {
    use TextStatus::*;
    match (current, reported) {
        (Delivered | Failed | Cancelled, _) => current,
        (_, Delivered | Failed) => reported,
        (Queued | Sending, Sent) => Sent,
        _ => current,
    }
}

#[cfg(test)]
mod tests {
    use super::TextStatus::*;
    use super::advance_status;

    #[test]
    fn delivery_reports_never_move_a_status_backwards() {
        assert_eq!(advance_status(Sending, Sent), Sent);
        assert_eq!(advance_status(Sent, Delivered), Delivered);
        assert_eq!(advance_status(Delivered, Sent), Delivered);
        assert_eq!(advance_status(Delivered, Failed), Delivered);
        assert_eq!(advance_status(Failed, Delivered), Failed);
        assert_eq!(advance_status(Sent, Queued), Sent);
        assert_eq!(advance_status(Sending, Delivered), Delivered);
    }
}
