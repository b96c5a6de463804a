//! The store: one transactional interface ([`Tx`]) over SQLite (embedded default) and, later, PostgreSQL.
//!
//! Everything the platform does to the database happens inside one call of
//! [`Store::run`]: the closure gets a [`Tx`], and either all its writes commit
//! (the inbound id, the new state and every outgoing text) or none do. The
//! closure is synchronous so that the SQLite backend can run it on its single
//! writer thread and commit many of them in one transaction (group commit).

use chrono::{DateTime, TimeZone, Utc};

use crate::inbound::InboundMessage;
use crate::lang::Lang;

mod group_commit;
mod postgres;
mod sqlite;

pub use postgres::PgStore;
pub use sqlite::SqliteStore;

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
    #[error("commit failed: {0}")]
    CommitFailed(String),
    #[error("the transaction panicked")]
    Panicked,
    #[error("unsupported database url {0:?} (expected sqlite://FILE or postgres://...)")]
    UnsupportedUrl(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    /// A deadlock, serialization failure, lock wait given up on or unique-key
    /// race with another transaction (PostgreSQL): the same work run again
    /// afterwards may well succeed.
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

/// A phone number we know: registered (with a nick) or not yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: i64,
    pub phone: String,
    pub nick: Option<String>,
    pub lang: Lang,
    /// Sent STOP: receives nothing until START.
    pub opted_out: bool,
    /// Took a timeout (`T`): no invitations and no game texts until the next `P`.
    pub away: bool,
}

/// A text to queue for sending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewText {
    pub from: String,
    pub to: String,
    pub body: String,
    /// `gsm7` or `ucs2`.
    pub encoding: &'static str,
    pub parts: u32,
}

/// Where a queued text is on its way to the phone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TextStatus {
    Queued,
    Sending,
    Sent,
    Delivered,
    Failed,
    Cancelled,
}

impl TextStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TextStatus::Queued => "queued",
            TextStatus::Sending => "sending",
            TextStatus::Sent => "sent",
            TextStatus::Delivered => "delivered",
            TextStatus::Failed => "failed",
            TextStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<TextStatus> {
        Some(match s {
            "queued" => TextStatus::Queued,
            "sending" => TextStatus::Sending,
            "sent" => TextStatus::Sent,
            "delivered" => TextStatus::Delivered,
            "failed" => TextStatus::Failed,
            "cancelled" => TextStatus::Cancelled,
            _ => return None,
        })
    }
}

/// A queued text as the dispatcher sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxText {
    pub id: i64,
    pub from: String,
    pub to: String,
    pub body: String,
    pub encoding: String,
    pub parts: u32,
    pub attempts: u32,
    pub status: TextStatus,
    pub provider_ref: Option<String>,
    pub last_error: Option<String>,
}

/// A text the provider took, as [`Tx::mark_texts_sent`] records it.
#[derive(Clone, Copy, Debug)]
pub struct SentText<'a> {
    pub id: i64,
    /// Attempts made in all, the one that succeeded included.
    pub attempts: u32,
    pub provider_ref: Option<&'a str>,
    pub at: DateTime<Utc>,
}

/// What a committed transaction did to the outbox, as the dispatcher of the
/// same process hears it (see [`Store::take_outbox_feed`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutboxEvent {
    /// A text was queued.
    Queued(OutboxText),
    /// Every text to this phone not yet handed to the provider was cancelled.
    Cancelled(String),
}

/// A match as stored: the game's state string plus what the platform keeps around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRecord {
    pub id: i64,
    pub game: String,
    pub state: String,
    pub seed: u64,
    /// Position of the seeded generator after the last draw.
    pub rng_pos: u128,
    pub finished: bool,
    pub deadline_at: Option<DateTime<Utc>>,
    pub rematch_deadline_at: Option<DateTime<Utc>>,
    pub rematch_of: Option<i64>,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub initial_state: String,
}

/// A new match and its players in seat order.
#[derive(Clone, Debug)]
pub struct NewMatch {
    pub game: String,
    pub state: String,
    pub seed: u64,
    pub rng_pos: u128,
    pub deadline_at: Option<DateTime<Utc>>,
    pub rematch_of: Option<i64>,
    pub players: Vec<i64>,
}

/// One seat of a match, with its player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: usize,
    pub player: Player,
    pub missed: u32,
    pub rematch_at: Option<DateTime<Utc>>,
    pub message_sent: bool,
}

/// One entry of a match's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub ply: u32,
    pub seat: usize,
    pub notation: String,
    pub automatic: bool,
    pub state_after: String,
}

/// An inbound message as [`Tx::accept_inbound`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Its provider id was seen before: not to be applied again.
    Duplicate,
    /// Recorded now; the sender's row, when we know the number, as `player_by_phone` gives it.
    New(Option<Player>),
}

/// One transaction's worth of operations. Implemented once per backend.
pub trait Tx {
    /// Records an inbound message; `false` when its provider id was seen before.
    fn record_inbound(&mut self, msg: &InboundMessage) -> StoreResult<bool>;
    /// Records an inbound message and, if it is new, loads its sender: what
    /// every inbound text starts with (PostgreSQL does both in one round trip).
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival> {
        if !self.record_inbound(msg)? {
            return Ok(Arrival::Duplicate);
        }
        Ok(Arrival::New(self.player_by_phone(&msg.from)?))
    }

    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>>;
    /// Looks a nick up case-insensitively.
    fn player_by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>>;
    /// Creates the row for a phone we have not seen, with defaults.
    fn create_player(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player>;
    /// Writes every field of the player back.
    fn save_player(&mut self, player: &Player, now: DateTime<Utc>) -> StoreResult<()>;

    /// Queues a text; it is sent only once this transaction commits.
    fn enqueue_text(&mut self, text: &NewText, now: DateTime<Utc>) -> StoreResult<()>;
    /// Cancels every text to `phone` not yet handed to the provider (the phone opted out).
    fn cancel_texts_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64>;

    /// Claims texts due for sending: at most one per recipient (the oldest
    /// unsent), so texts to one phone go out in order. Claimed rows are leased
    /// until `lease_until`; an expired lease makes them claimable again.
    fn claim_texts(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<OutboxText>>;
    /// When the next queued text falls due, if any is waiting.
    fn next_text_due(&mut self) -> StoreResult<Option<DateTime<Utc>>>;
    /// Every text not yet handed to the provider (queued, or claimed by a
    /// dispatcher that died), oldest first, with when it falls due: what a
    /// dispatcher fed by [`Store::take_outbox_feed`] picks up when it starts.
    fn pending_texts(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>>;
    /// The provider took the text after `attempts` attempts in all.
    fn mark_text_sent(
        &mut self,
        id: i64,
        attempts: u32,
        provider_ref: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    /// Records many sends at once; PostgreSQL does it in one statement, where a
    /// round trip per text was a fifth of the statements per move.
    fn mark_texts_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        for text in sent {
            self.mark_text_sent(text.id, text.attempts, text.provider_ref, text.at)?;
        }
        Ok(())
    }
    /// Attempt number `attempts` failed in a way worth retrying at `next_attempt`.
    fn mark_text_retry(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        next_attempt: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    /// Parked for good after `attempts` attempts.
    fn mark_text_failed(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    /// Applies a delivery report to the text the provider knows as `provider_ref`;
    /// a status never moves backwards. Returns the text's status afterwards.
    fn report_text_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>>;
    fn text_by_id(&mut self, id: i64) -> StoreResult<Option<OutboxText>>;
    /// Puts a player in a game's queue (or moves him there), keeping `queued_at` as his place.
    fn lobby_join(
        &mut self,
        player_id: i64,
        game: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<()>;
    fn lobby_leave(&mut self, player_id: i64) -> StoreResult<()>;
    /// The game whose queue the player is in.
    fn lobby_game_of(&mut self, player_id: i64) -> StoreResult<Option<String>>;
    /// The longest-waiting players of a game's queue, oldest first.
    fn lobby_queue(&mut self, game: &str, limit: usize) -> StoreResult<Vec<Player>>;

    /// Creates a match with its seats; returns its id.
    fn insert_match(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64>;
    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>>;
    /// The unfinished match a player sits in. A player sits in one unfinished
    /// match at most and joins a new one only when his last is over, so it is
    /// his newest match, if that is not over: one index step, where looking
    /// for an unfinished match among all he ever played walked his history
    /// (a tenth of the writer's time in a profile).
    fn active_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        Ok(self.last_match_of(player_id)?.filter(|m| !m.finished))
    }
    /// The most recent match a player sat in, finished or not.
    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>>;
    /// Writes back the match's mutable fields (state, generator, deadlines, end).
    fn save_match(&mut self, m: &MatchRecord) -> StoreResult<()>;
    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>>;
    fn save_seat(&mut self, match_id: i64, seat: &SeatRecord) -> StoreResult<()>;
    /// Appends a move to the match's record.
    fn record_move(
        &mut self,
        match_id: i64,
        seat: usize,
        notation: &str,
        automatic: bool,
        state_after: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>>;
    /// Unfinished matches whose turn deadline has passed.
    fn due_turns(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>>;
    /// Finished matches whose rematch window has closed.
    fn due_rematches(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>>;
    /// The earliest turn deadline or rematch window end still pending.
    fn next_timer(&mut self) -> StoreResult<Option<DateTime<Utc>>>;

    /// Rows in one of the store's tables (tests, admin, metrics).
    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64>;
    /// Every text ever queued to a phone, oldest first (tests, admin).
    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>>;
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
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Store::Postgres(
                PgStore::open(url, PG_POOL_SIZE, max_batch).await?,
            ));
        }
        if let Some(path) = url.strip_prefix("sqlite://") {
            let path = path.to_string();
            let store = tokio::task::spawn_blocking(move || SqliteStore::open(&path, max_batch))
                .await
                .map_err(|_| StoreError::WriterGone)??;
            Ok(Store::Sqlite(store))
        } else {
            Err(StoreError::UnsupportedUrl(url.to_string()))
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

/// Pooled connections each instance keeps to PostgreSQL beside its writer's
/// one: for the dispatcher's claims ([`Store::run_solo`]) and health checks.
const PG_POOL_SIZE: u32 = 4;

/// Tables `count_rows` may name (the name is spliced into SQL, so it is checked).
pub(crate) const KNOWN_TABLES: &[&str] = &[
    "players",
    "inbound",
    "outbox",
    "lobby",
    "matches",
    "match_seats",
    "match_moves",
];

/// Unix milliseconds, the stored form of every time.
pub(crate) fn millis(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

pub(crate) fn from_millis(ms: i64) -> DateTime<Utc> {
    Utc.timestamp_millis_opt(ms).single().unwrap_or_default()
}

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
