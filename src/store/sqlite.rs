//! SQLite backend: one dedicated writer thread, cached statements, group commit.
//!
//! Why not sqlx here: its SQLite driver hands every statement to a worker
//! thread and back (~430 µs per move measured); one rusqlite connection owned
//! by one thread, committing many callers' work per transaction, is ten times
//! faster and gives SQLite the single writer it wants. Batches run through
//! [`group_commit`]: one caller's error rolls back only its writes, and every
//! caller hears back only after the shared COMMIT.

use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, params};
use rusqlite_migration::{M, Migrations};
use tokio::sync::mpsc;

use super::group_commit::{self, BatchTx, Job};
use super::{
    MatchRecord, MoveRecord, NewMatch, NewText, OutboxEvent, OutboxText, Player, SeatRecord,
    StoreError, StoreResult, TextStatus, Tx, from_millis, millis,
};
use crate::inbound::InboundMessage;
use crate::lang::Lang;

/// Jobs waiting for the writer; callers wait (backpressure) when it is full.
const QUEUE_DEPTH: usize = 8192;

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/sqlite/0001_init.sql")),
        M::up(include_str!("../../migrations/sqlite/0002_matches.sql")),
        M::up(include_str!(
            "../../migrations/sqlite/0003_drop_outbox_by_phone.sql"
        )),
    ])
}

/// Handle to the SQLite database; cheap to clone.
#[derive(Clone)]
pub struct SqliteStore {
    jobs: mpsc::Sender<Box<dyn Job>>,
    reader: Arc<Mutex<Connection>>,
    /// Where the writer tells the dispatcher what each commit did to the outbox, once one listens.
    feed: Feed,
}

type Feed = Arc<OnceLock<mpsc::UnboundedSender<OutboxEvent>>>;

impl SqliteStore {
    /// Opens the file (creating it and its folder), migrates it and starts the writer thread.
    pub fn open(path: &str, max_batch: usize) -> StoreResult<SqliteStore> {
        if let Some(dir) = Path::new(path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
        {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Corrupt(format!("{dir:?}: {e}")))?;
        }
        let mut writer = Connection::open(path)?;
        // WAL lets readers run beside the writer; FULL makes every
        // acknowledged message survive a power cut, not just a crash.
        writer.pragma_update(None, "journal_mode", "WAL")?;
        writer.pragma_update(None, "synchronous", "FULL")?;
        writer.pragma_update(None, "busy_timeout", 5000)?;
        writer.pragma_update(None, "foreign_keys", "ON")?;
        // Statement journals (a batch re-run with savepoints) stay in memory.
        writer.pragma_update(None, "temp_store", "MEMORY")?;
        migrations().to_latest(&mut writer)?;
        writer.set_prepared_statement_cache_capacity(128);

        let reader = Connection::open(path)?;
        reader.pragma_update(None, "busy_timeout", 5000)?;

        let (jobs, rx) = mpsc::channel(QUEUE_DEPTH);
        let feed = Feed::default();
        let writer_side = feed.clone();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || writer_loop(writer, rx, max_batch.max(1), &writer_side))
            .map_err(|e| StoreError::Corrupt(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore {
            jobs,
            reader: Arc::new(Mutex::new(reader)),
            feed,
        })
    }

    pub async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        group_commit::submit(&self.jobs, f).await
    }

    pub async fn ping(&self) -> StoreResult<()> {
        if self.jobs.is_closed() {
            return Err(StoreError::WriterGone);
        }
        let reader = self.reader.clone();
        tokio::task::spawn_blocking(move || {
            let conn = reader.lock().map_err(|_| StoreError::WriterGone)?;
            conn.query_row("SELECT 1", [], |_| Ok(()))?;
            Ok(())
        })
        .await
        .map_err(|_| StoreError::WriterGone)?
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
) {
    let mut batch: Vec<Box<dyn Job>> = Vec::with_capacity(max_batch);
    // Stays empty: conflicts with other transactions need another writer.
    let mut again: Vec<Box<dyn Job>> = Vec::new();
    let mut tx = SqliteTx::new(&conn);
    while group_commit::next_batch(&mut rx, &mut batch, &mut again, max_batch) {
        let outcome = group_commit::run_batch(&mut tx, &mut batch);
        if let Err(e) = &outcome {
            tracing::error!(error = %e, jobs = batch.len(), "sqlite batch failed");
        }
        group_commit::finish_batch(&mut batch, &outcome, &mut again);
        let events = std::mem::take(&mut tx.events);
        if let (Ok(()), Some(feed)) = (&outcome, feed.get()) {
            for event in events {
                // A dispatcher that has stopped reads the table when it starts again.
                let _ = feed.send(event);
            }
        }
    }
}

/// The writer's connection inside an open transaction.
pub(super) struct SqliteTx<'c> {
    conn: &'c Connection,
    /// What this transaction did to the outbox, told to the dispatcher after COMMIT.
    events: Vec<OutboxEvent>,
    /// How many of `events` came before the current job's savepoint.
    events_at_savepoint: usize,
}

impl<'c> SqliteTx<'c> {
    fn new(conn: &'c Connection) -> SqliteTx<'c> {
        SqliteTx {
            conn,
            events: Vec::new(),
            events_at_savepoint: 0,
        }
    }

    fn execute(&self, sql: &str) -> StoreResult<()> {
        self.conn.prepare_cached(sql)?.execute([])?;
        Ok(())
    }
}

impl BatchTx for SqliteTx<'_> {
    fn tx(&mut self) -> &mut dyn Tx {
        self
    }

    fn begin(&mut self) -> StoreResult<()> {
        self.events.clear();
        self.execute("BEGIN IMMEDIATE")
    }

    fn savepoint(&mut self) -> StoreResult<()> {
        self.events_at_savepoint = self.events.len();
        self.execute("SAVEPOINT job")
    }

    fn rollback_to_savepoint(&mut self) -> StoreResult<()> {
        self.events.truncate(self.events_at_savepoint);
        self.execute("ROLLBACK TO job")
    }

    fn release_savepoint(&mut self) -> StoreResult<()> {
        self.execute("RELEASE job")
    }

    fn commit(&mut self) -> StoreResult<()> {
        self.execute("COMMIT")
    }

    fn rollback(&mut self) {
        self.events.clear();
        let _ = self.conn.execute_batch("ROLLBACK");
    }
}

const PLAYER_COLUMNS: &str = "id, phone, nick, lang, opted_out, away";
/// The same columns, qualified for joins (players aliased `p`).
const PLAYER_COLUMNS_P: &str = "p.id, p.phone, p.nick, p.lang, p.opted_out, p.away";

fn player_from_row(row: &Row<'_>) -> rusqlite::Result<Player> {
    let lang: String = row.get(3)?;
    Ok(Player {
        id: row.get(0)?,
        phone: row.get(1)?,
        nick: row.get(2)?,
        lang: lang.parse().unwrap_or(Lang::Ru),
        opted_out: row.get(4)?,
        away: row.get(5)?,
    })
}

const MATCH_COLUMNS: &str = "m.id, m.game, m.state, m.seed, m.rng_pos, m.finished, m.deadline_at, \
     m.rematch_deadline_at, m.rematch_of, m.started_at, m.finished_at, m.initial_state";

fn match_from_row(row: &Row<'_>) -> rusqlite::Result<MatchRecord> {
    let seed: i64 = row.get(3)?;
    let rng_pos: String = row.get(4)?;
    let time = |i: usize| -> rusqlite::Result<Option<DateTime<Utc>>> {
        Ok(row.get::<_, Option<i64>>(i)?.map(from_millis))
    };
    Ok(MatchRecord {
        id: row.get(0)?,
        game: row.get(1)?,
        state: row.get(2)?,
        // stored as i64 bits: SQLite has no unsigned 64-bit integer
        seed: seed as u64,
        rng_pos: rng_pos.parse().unwrap_or(0),
        finished: row.get(5)?,
        deadline_at: time(6)?,
        rematch_deadline_at: time(7)?,
        rematch_of: row.get(8)?,
        started_at: from_millis(row.get(9)?),
        finished_at: time(10)?,
        initial_state: row.get(11)?,
    })
}

const TEXT_COLUMNS: &str =
    "id, from_number, to_phone, body, encoding, parts, attempts, status, provider_ref, last_error";

fn text_from_row(row: &Row<'_>) -> rusqlite::Result<OutboxText> {
    let status: String = row.get(7)?;
    Ok(OutboxText {
        id: row.get(0)?,
        from: row.get(1)?,
        to: row.get(2)?,
        body: row.get(3)?,
        encoding: row.get(4)?,
        parts: row.get(5)?,
        attempts: row.get(6)?,
        status: TextStatus::parse(&status).unwrap_or(TextStatus::Failed),
        provider_ref: row.get(8)?,
        last_error: row.get(9)?,
    })
}

impl Tx for SqliteTx<'_> {
    fn record_inbound(&mut self, msg: &InboundMessage) -> StoreResult<bool> {
        let inserted = self
            .conn
            .prepare_cached(
                "INSERT INTO inbound (provider, provider_id, from_phone, to_number, body, received_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (provider, provider_id) DO NOTHING",
            )?
            .execute(params![
                msg.provider,
                msg.provider_id,
                msg.from,
                msg.to,
                msg.text,
                millis(msg.received_at)
            ])?;
        Ok(inserted == 1)
    }

    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PLAYER_COLUMNS} FROM players WHERE phone = ?1"
            ))?
            .query_row([phone], player_from_row)
            .optional()?)
    }

    fn player_by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {PLAYER_COLUMNS} FROM players WHERE nick_key = ?1"
            ))?
            .query_row([nick.to_lowercase()], player_from_row)
            .optional()?)
    }

    fn create_player(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player> {
        let id = self
            .conn
            .prepare_cached(
                "INSERT INTO players (phone, created_at, updated_at) VALUES (?1, ?2, ?2)",
            )?
            .insert(params![phone, millis(now)])?;
        Ok(Player {
            id,
            phone: phone.to_string(),
            nick: None,
            lang: Lang::default(),
            opted_out: false,
            away: false,
        })
    }

    fn save_player(&mut self, p: &Player, now: DateTime<Utc>) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE players SET nick = ?2, nick_key = ?3, lang = ?4, opted_out = ?5, away = ?6,
                 updated_at = ?7 WHERE id = ?1",
            )?
            .execute(params![
                p.id,
                p.nick,
                p.nick.as_ref().map(|n| n.to_lowercase()),
                p.lang.to_string(),
                p.opted_out,
                p.away,
                millis(now)
            ])?;
        Ok(())
    }

    fn enqueue_text(&mut self, t: &NewText, now: DateTime<Utc>) -> StoreResult<()> {
        let id = self
            .conn
            .prepare_cached(
                "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, next_attempt_at,
                 created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6)",
            )?
            .insert(params![
                t.from,
                t.to,
                t.body,
                t.encoding,
                t.parts,
                millis(now)
            ])?;
        self.events.push(OutboxEvent::Queued(OutboxText {
            id,
            from: t.from.clone(),
            to: t.to.clone(),
            body: t.body.clone(),
            encoding: t.encoding.to_string(),
            parts: t.parts,
            attempts: 0,
            status: TextStatus::Queued,
            provider_ref: None,
            last_error: None,
        }));
        Ok(())
    }

    fn cancel_texts_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64> {
        let n = self
            .conn
            .prepare_cached(
                "UPDATE outbox SET status = 'cancelled', lease_until = NULL, updated_at = ?2
                 WHERE to_phone = ?1 AND status = 'queued'",
            )?
            .execute(params![phone, millis(now)])?;
        self.events.push(OutboxEvent::Cancelled(phone.to_string()));
        Ok(n as u64)
    }

    fn claim_texts(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<OutboxText>> {
        let sql = format!(
            "UPDATE outbox SET status = 'sending', lease_until = ?2, attempts = attempts + 1, updated_at = ?1
             WHERE id IN (
                SELECT o.id FROM outbox o
                WHERE o.status IN ('queued', 'sending')
                  AND ((o.status = 'queued' AND o.next_attempt_at <= ?1)
                       OR (o.status = 'sending' AND o.lease_until < ?1))
                  AND NOT EXISTS (
                    SELECT 1 FROM outbox e
                    WHERE e.to_phone = o.to_phone AND e.id < o.id AND e.status IN ('queued', 'sending'))
                ORDER BY o.id LIMIT ?3)
             RETURNING {TEXT_COLUMNS}"
        );
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut texts = stmt
            .query_map(
                params![millis(now), millis(lease_until), limit as i64],
                text_from_row,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        texts.sort_by_key(|t| t.id);
        Ok(texts)
    }

    fn next_text_due(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        let due: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT MIN(CASE status WHEN 'queued' THEN next_attempt_at ELSE lease_until END)
                 FROM outbox WHERE status IN ('queued', 'sending')",
            )?
            .query_row([], |r| r.get(0))?;
        Ok(due.map(from_millis))
    }

    fn pending_texts(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        let sql = format!(
            "SELECT {TEXT_COLUMNS}, next_attempt_at FROM outbox
             WHERE status IN ('queued', 'sending') ORDER BY id"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let texts = stmt
            .query_map([], |row| {
                Ok((text_from_row(row)?, from_millis(row.get(10)?)))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(texts)
    }

    fn mark_text_sent(
        &mut self,
        id: i64,
        attempts: u32,
        provider_ref: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        // A delivery report may have overtaken us (it stays); a text a STOP
        // cancelled while it was on its way did leave, so it is 'sent'.
        self.conn
            .prepare_cached(
                "UPDATE outbox SET status = CASE WHEN status IN ('delivered', 'failed') THEN status ELSE 'sent' END,
                 attempts = ?2, provider_ref = COALESCE(?3, provider_ref), lease_until = NULL,
                 last_error = NULL, updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![id, attempts, provider_ref, millis(now)])?;
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
        self.conn
            .prepare_cached(
                "UPDATE outbox SET status = 'queued', attempts = ?2, lease_until = NULL, last_error = ?3,
                 next_attempt_at = ?4, updated_at = ?5
                 WHERE id = ?1 AND status IN ('queued', 'sending')",
            )?
            .execute(params![id, attempts, error, millis(next_attempt), millis(now)])?;
        Ok(())
    }

    fn mark_text_failed(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE outbox SET status = 'failed', attempts = ?2, lease_until = NULL, last_error = ?3,
                 updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![id, attempts, error, millis(now)])?;
        Ok(())
    }

    fn report_text_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>> {
        let current: Option<(i64, String)> = self
            .conn
            .prepare_cached(
                "SELECT id, status FROM outbox WHERE provider_ref = ?1 ORDER BY id LIMIT 1",
            )?
            .query_row([provider_ref], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let Some((id, current)) = current else {
            return Ok(None);
        };
        let current = TextStatus::parse(&current).unwrap_or(TextStatus::Queued);
        let next = super::advance_status(current, status);
        if next != current {
            self.conn
                .prepare_cached(
                    "UPDATE outbox SET status = ?2, last_error = COALESCE(?3, last_error), updated_at = ?4
                     WHERE id = ?1",
                )?
                .execute(params![id, next.as_str(), error, millis(now)])?;
        }
        Ok(Some(next))
    }

    fn text_by_id(&mut self, id: i64) -> StoreResult<Option<OutboxText>> {
        Ok(self
            .conn
            .prepare_cached(&format!("SELECT {TEXT_COLUMNS} FROM outbox WHERE id = ?1"))?
            .query_row([id], text_from_row)
            .optional()?)
    }

    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {TEXT_COLUMNS} FROM outbox WHERE to_phone = ?1 ORDER BY id"
        ))?;
        let texts = stmt
            .query_map([phone], text_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(texts)
    }

    fn lobby_join(
        &mut self,
        player_id: i64,
        game: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO lobby (player_id, game, queued_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (player_id) DO UPDATE SET game = excluded.game, queued_at = excluded.queued_at",
            )?
            .execute(params![player_id, game, millis(queued_at)])?;
        Ok(())
    }

    fn lobby_leave(&mut self, player_id: i64) -> StoreResult<()> {
        self.conn
            .prepare_cached("DELETE FROM lobby WHERE player_id = ?1")?
            .execute([player_id])?;
        Ok(())
    }

    fn lobby_game_of(&mut self, player_id: i64) -> StoreResult<Option<String>> {
        Ok(self
            .conn
            .prepare_cached("SELECT game FROM lobby WHERE player_id = ?1")?
            .query_row([player_id], |r| r.get(0))
            .optional()?)
    }

    fn lobby_queue(&mut self, game: &str, limit: usize) -> StoreResult<Vec<Player>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {PLAYER_COLUMNS_P} FROM lobby l JOIN players p ON p.id = l.player_id
             WHERE l.game = ?1 ORDER BY l.queued_at, l.player_id LIMIT ?2"
        ))?;
        let players = stmt
            .query_map(params![game, limit as i64], player_from_row)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(players)
    }

    fn insert_match(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        let id: i64 = self
            .conn
            .prepare_cached(
                "INSERT INTO matches (game, state, seed, rng_pos, deadline_at, rematch_of, started_at, initial_state)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?2)",
            )?
            .insert(params![
                    new.game,
                    new.state,
                    new.seed as i64,
                    new.rng_pos.to_string(),
                    new.deadline_at.map(millis),
                    new.rematch_of,
                millis(now)
            ])?;
        let mut seat_stmt = self.conn.prepare_cached(
            "INSERT INTO match_seats (match_id, seat, player_id) VALUES (?1, ?2, ?3)",
        )?;
        for (seat, player) in new.players.iter().enumerate() {
            seat_stmt.execute(params![id, seat as i64, player])?;
        }
        Ok(id)
    }

    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {MATCH_COLUMNS} FROM matches m WHERE m.id = ?1"
            ))?
            .query_row([id], match_from_row)
            .optional()?)
    }

    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        Ok(self
            .conn
            .prepare_cached(&format!(
                "SELECT {MATCH_COLUMNS} FROM match_seats s JOIN matches m ON m.id = s.match_id
                 WHERE s.player_id = ?1 ORDER BY s.match_id DESC LIMIT 1"
            ))?
            .query_row([player_id], match_from_row)
            .optional()?)
    }

    fn save_match(&mut self, m: &MatchRecord) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE matches SET state = ?2, rng_pos = ?3, finished = ?4, deadline_at = ?5,
                 rematch_deadline_at = ?6, finished_at = ?7 WHERE id = ?1",
            )?
            .execute(params![
                m.id,
                m.state,
                m.rng_pos.to_string(),
                m.finished,
                m.deadline_at.map(millis),
                m.rematch_deadline_at.map(millis),
                m.finished_at.map(millis)
            ])?;
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {PLAYER_COLUMNS_P}, s.seat, s.missed, s.rematch_at, s.message_sent
             FROM match_seats s JOIN players p ON p.id = s.player_id WHERE s.match_id = ?1 ORDER BY s.seat"
        ))?;
        let seats = stmt
            .query_map([match_id], |row| {
                Ok(SeatRecord {
                    player: player_from_row(row)?,
                    seat: row.get::<_, i64>(6)? as usize,
                    missed: row.get(7)?,
                    rematch_at: row.get::<_, Option<i64>>(8)?.map(from_millis),
                    message_sent: row.get(9)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(seats)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRecord) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE match_seats SET missed = ?3, rematch_at = ?4, message_sent = ?5
                 WHERE match_id = ?1 AND seat = ?2",
            )?
            .execute(params![
                match_id,
                seat.seat as i64,
                seat.missed,
                seat.rematch_at.map(millis),
                seat.message_sent
            ])?;
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
        self.conn
            .prepare_cached(
                "INSERT INTO match_moves (match_id, ply, seat, move, automatic, at, state_after)
                 VALUES (?1, (SELECT COALESCE(MAX(ply), 0) + 1 FROM match_moves WHERE match_id = ?1),
                         ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![match_id, seat as i64, notation, automatic, millis(now), state_after])?;
        Ok(())
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT ply, seat, move, automatic, state_after FROM match_moves WHERE match_id = ?1 ORDER BY ply",
        )?;
        let moves = stmt
            .query_map([match_id], |r| {
                Ok(MoveRecord {
                    ply: r.get(0)?,
                    seat: r.get::<_, i64>(1)? as usize,
                    notation: r.get(2)?,
                    automatic: r.get(3)?,
                    state_after: r.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(moves)
    }

    fn due_turns(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id FROM matches WHERE finished = 0 AND deadline_at <= ?1 ORDER BY deadline_at LIMIT ?2",
        )?;
        let ids = stmt
            .query_map(params![millis(now), limit as i64], |r| r.get(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }

    fn due_rematches(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id FROM matches WHERE rematch_deadline_at <= ?1 ORDER BY rematch_deadline_at LIMIT ?2",
        )?;
        let ids = stmt
            .query_map(params![millis(now), limit as i64], |r| r.get(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ids)
    }

    fn next_timer(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        let next: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT MIN(t) FROM (
                    SELECT MIN(deadline_at) AS t FROM matches WHERE finished = 0
                    UNION ALL
                    SELECT MIN(rematch_deadline_at) FROM matches WHERE rematch_deadline_at IS NOT NULL)",
            )?
            .query_row([], |r| r.get(0))?;
        Ok(next.map(from_millis))
    }

    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64> {
        if !super::KNOWN_TABLES.contains(&table) {
            return Err(StoreError::Corrupt(format!("no table {table}")));
        }
        Ok(self
            .conn
            .prepare_cached(&format!("SELECT COUNT(*) FROM {table}"))?
            .query_row([], |r| r.get(0))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(to: &str) -> NewText {
        NewText {
            from: "1".into(),
            to: to.into(),
            body: "hi".into(),
            encoding: "gsm7",
            parts: 1,
        }
    }

    /// A migrated database in `dir`, for a writer's transaction to run on.
    fn migrated(dir: &tempfile::TempDir) -> Connection {
        let mut conn = Connection::open(dir.path().join("t.db")).unwrap();
        migrations().to_latest(&mut conn).unwrap();
        conn
    }

    /// Whom the texts in the outbox are to, oldest first.
    fn queued_to(tx: &mut SqliteTx<'_>) -> Vec<String> {
        let texts = tx.pending_texts().unwrap();
        texts.into_iter().map(|(t, _)| t.to).collect()
    }

    /// A job that queues a text to `to`, then ends as `outcome` says.
    fn queuing_job(to: &'static str, outcome: &'static str) -> Box<dyn Job> {
        let (job, _answer) = group_commit::job(move |tx| {
            tx.enqueue_text(&text(to), Utc::now())?;
            match outcome {
                "fail" => Err(StoreError::Corrupt("refused".into())),
                "panic" => panic!("a bug in one job"),
                _ => Ok(()),
            }
        });
        job
    }

    /// The dispatcher hears only of what committed: a failed or panicking
    /// job's texts leave the batch's events with its writes. (That the
    /// writes themselves are undone, on either database: tests/store.rs.)
    #[test]
    fn a_batch_reports_only_the_texts_of_jobs_that_committed() {
        let dir = tempfile::tempdir().unwrap();
        let conn = migrated(&dir);
        let mut tx = SqliteTx::new(&conn);
        let mut batch = vec![
            queuing_job("+1", "ok"),
            queuing_job("+2", "fail"),
            queuing_job("+3", "ok"),
            queuing_job("+4", "panic"),
            queuing_job("+5", "ok"),
        ];
        group_commit::run_batch(&mut tx, &mut batch).unwrap();
        let heard: Vec<String> = tx
            .events
            .iter()
            .map(|e| match e {
                OutboxEvent::Queued(t) => t.to.clone(),
                OutboxEvent::Cancelled(phone) => format!("cancelled {phone}"),
            })
            .collect();
        assert_eq!(heard, ["+1", "+3", "+5"]);
        assert_eq!(queued_to(&mut tx), heard);
    }

    /// What PostgreSQL says when it chose this transaction to end a deadlock.
    #[derive(Debug)]
    struct Deadlock;

    impl std::fmt::Display for Deadlock {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("deadlock detected")
        }
    }

    impl std::error::Error for Deadlock {}

    impl sqlx::error::DatabaseError for Deadlock {
        fn message(&self) -> &str {
            "deadlock detected"
        }
        fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
            Some("40P01".into())
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    /// A caller that lost a deadlock is run again in the next batch (its
    /// writes in the first undone), and one that keeps losing gets the error
    /// after `MAX_RUNS` batches. The runner is the same for both databases; SQLite's
    /// connection stands in for PostgreSQL's here.
    #[test]
    fn a_caller_that_lost_a_deadlock_runs_again_in_the_next_batch() {
        use std::sync::atomic::{AtomicU32, Ordering};
        let dir = tempfile::tempdir().unwrap();
        let conn = migrated(&dir);
        let mut tx = SqliteTx::new(&conn);
        let deadlock = || StoreError::Postgres(sqlx::Error::Database(Box::new(Deadlock)));
        let unlucky_runs = Arc::new(AtomicU32::new(0));
        let runs = unlucky_runs.clone();
        let (unlucky, mut unlucky_answer) = group_commit::job(move |tx| {
            tx.enqueue_text(&text("+1"), Utc::now())?;
            // Lost in its batch's first run and in the re-run with savepoints.
            match runs.fetch_add(1, Ordering::SeqCst) {
                0 | 1 => Err(deadlock()),
                n => Ok(n),
            }
        });
        let (doomed, mut doomed_answer) = group_commit::job(move |tx| {
            tx.enqueue_text(&text("+2"), Utc::now())?;
            Err::<(), _>(deadlock())
        });
        let (lucky, mut lucky_answer) =
            group_commit::job(|tx| tx.enqueue_text(&text("+3"), Utc::now()));

        let mut batch = vec![unlucky, doomed, lucky];
        let mut again = Vec::new();
        let outcome = group_commit::run_batch(&mut tx, &mut batch);
        group_commit::finish_batch(&mut batch, &outcome, &mut again);
        assert!(matches!(lucky_answer.try_recv(), Ok(Ok(()))));
        assert!(
            unlucky_answer.try_recv().is_err(),
            "no answer yet: it runs again"
        );
        assert_eq!(again.len(), 2);

        let mut batches = 1;
        while !again.is_empty() {
            batch.append(&mut again);
            let outcome = group_commit::run_batch(&mut tx, &mut batch);
            group_commit::finish_batch(&mut batch, &outcome, &mut again);
            batches += 1;
        }
        assert_eq!(
            batches,
            group_commit::MAX_RUNS,
            "the doomed one ran in MAX_RUNS batches"
        );
        // The unlucky caller's first batch was undone, its second committed.
        assert!(matches!(unlucky_answer.try_recv(), Ok(Ok(n)) if n >= 2));
        assert!(matches!(doomed_answer.try_recv(), Ok(Err(e)) if e.is_conflict()));
        assert_eq!(queued_to(&mut tx), ["+3", "+1"]);
    }
}
