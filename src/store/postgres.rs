//! PostgreSQL backend, for several gateway instances on one database.
//!
//! The platform's work is synchronous (see `store/mod.rs`), so a transaction
//! runs on a blocking thread and each statement is driven to completion there
//! with the runtime's handle. Concurrency is the database's job:
//! - a player's row is locked (`FOR UPDATE`) when his text is handled, so one
//!   phone's texts apply one at a time, whichever instance gets them;
//! - a match row is locked when it is loaded, so moves arriving at different
//!   instances apply one after the other, each against the state the other left;
//! - matchmaking takes a transaction-scoped advisory lock per game, so no two
//!   instances form groups from the same queue at once;
//! - outbox texts and due timers are claimed with `FOR UPDATE SKIP LOCKED`, and
//!   a claimed text carries a lease that another instance may take over once it expires;
//! - a deadlock or serialization failure (or a unique-key race, such as two
//!   instances creating the same phone's row) re-runs the whole transaction.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, Row, Transaction};
use tokio::runtime::Handle;
use tokio::sync::Notify;

use super::{
    MatchRecord, MoveRecord, NewMatch, NewText, OutboxText, Player, SeatRecord, SentText,
    StoreError, StoreResult, TextStatus, Tx, from_millis, millis,
};
use crate::inbound::InboundMessage;
use crate::lang::Lang;

/// Times a transaction is re-run after a deadlock, serialization failure or key race.
const MAX_ATTEMPTS: u32 = 5;

#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
    texts_queued: Arc<Notify>,
}

impl PgStore {
    pub async fn open(url: &str, max_connections: u32) -> StoreResult<PgStore> {
        let pool = PgPoolOptions::new()
            .max_connections(max_connections.max(1))
            .acquire_timeout(Duration::from_secs(5))
            .connect(url)
            .await?;
        // Several instances may start at once: the migrator takes an advisory lock.
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        Ok(PgStore {
            pool,
            texts_queued: Arc::new(Notify::new()),
        })
    }

    pub async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
    {
        let mut f = f;
        let mut attempt = 1;
        loop {
            // The connection is awaited here, not on the blocking thread: a
            // blocking thread per waiting caller grew to hundreds of threads
            // (287 MB resident in one bench run) while only the pool's few can work.
            let tx = self.pool.begin().await?;
            let handle = Handle::current();
            // The closure travels to the blocking thread and back, for a re-run.
            let (work, outcome) = tokio::task::spawn_blocking(move || {
                let outcome = run_once(&handle, tx, &f);
                (f, outcome)
            })
            .await
            .map_err(|_| StoreError::Panicked)?;
            f = work;
            match outcome {
                Ok((value, queued)) => {
                    if queued {
                        self.texts_queued.notify_one();
                    }
                    return Ok(value);
                }
                Err(e) if attempt < MAX_ATTEMPTS && retryable(&e) => {
                    tracing::debug!(error = %e, attempt, "transaction conflict; running it again");
                    attempt += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }

    pub async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    pub fn texts_queued(&self) -> &Notify {
        &self.texts_queued
    }
}

fn run_once<T, F>(
    handle: &Handle,
    tx: Transaction<'static, Postgres>,
    f: &F,
) -> StoreResult<(T, bool)>
where
    F: Fn(&mut dyn Tx) -> StoreResult<T>,
{
    let mut pg = PgTx {
        handle: handle.clone(),
        tx,
        queued_texts: false,
    };
    let result = catch_unwind(AssertUnwindSafe(|| f(&mut pg))).unwrap_or(Err(StoreError::Panicked));
    match result {
        Ok(value) => {
            let queued = pg.queued_texts;
            handle.block_on(pg.tx.commit())?;
            Ok((value, queued))
        }
        Err(e) => {
            let _ = handle.block_on(pg.tx.rollback());
            Err(e)
        }
    }
}

/// Deadlock, serialization failure, or a unique-key race that a fresh run resolves.
fn retryable(e: &StoreError) -> bool {
    match e {
        StoreError::Postgres(sqlx::Error::Database(db)) => {
            matches!(db.code().as_deref(), Some("40001" | "40P01" | "23505"))
        }
        _ => false,
    }
}

pub(super) struct PgTx {
    handle: Handle,
    tx: Transaction<'static, Postgres>,
    queued_texts: bool,
}

const PLAYER_COLUMNS: &str = "p.id, p.phone, p.nick, p.lang, p.opted_out, p.away";

fn player_from(row: &PgRow) -> Result<Player, sqlx::Error> {
    let lang: String = row.try_get(3)?;
    Ok(Player {
        id: row.try_get(0)?,
        phone: row.try_get(1)?,
        nick: row.try_get(2)?,
        lang: lang.parse().unwrap_or(Lang::Ru),
        opted_out: row.try_get(4)?,
        away: row.try_get(5)?,
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

fn match_from(row: &PgRow) -> Result<MatchRecord, sqlx::Error> {
    let seed: i64 = row.try_get(3)?;
    let rng_pos: String = row.try_get(4)?;
    let time = |i: usize| -> Result<Option<DateTime<Utc>>, sqlx::Error> {
        Ok(row.try_get::<Option<i64>, _>(i)?.map(from_millis))
    };
    Ok(MatchRecord {
        id: row.try_get(0)?,
        game: row.try_get(1)?,
        state: row.try_get(2)?,
        // stored as i64 bits: PostgreSQL has no unsigned 64-bit integer
        seed: seed as u64,
        rng_pos: rng_pos.parse().unwrap_or(0),
        finished: row.try_get(5)?,
        deadline_at: time(6)?,
        rematch_deadline_at: time(7)?,
        rematch_of: row.try_get(8)?,
        started_at: from_millis(row.try_get(9)?),
        finished_at: time(10)?,
        initial_state: row.try_get(11)?,
    })
}

fn ids(rows: Vec<PgRow>) -> StoreResult<Vec<i64>> {
    Ok(rows
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<Vec<i64>, _>>()?)
}

impl Tx for PgTx {
    fn record_inbound(&mut self, msg: &InboundMessage) -> StoreResult<bool> {
        let q = sqlx::query(
            "INSERT INTO inbound (provider, provider_id, from_phone, to_number, body, received_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (provider, provider_id) DO NOTHING",
        )
        .bind(msg.provider)
        .bind(&msg.provider_id)
        .bind(&msg.from)
        .bind(&msg.to)
        .bind(&msg.text)
        .bind(millis(msg.received_at));
        let done = self.handle.block_on(q.execute(&mut *self.tx))?;
        Ok(done.rows_affected() == 1)
    }

    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.phone = $1 FOR UPDATE");
        let q = sqlx::query(&sql).bind(phone);
        let row = self.handle.block_on(q.fetch_optional(&mut *self.tx))?;
        Ok(row.map(|r| player_from(&r)).transpose()?)
    }

    fn player_by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.nick_key = $1");
        let q = sqlx::query(&sql).bind(nick.to_lowercase());
        let row = self.handle.block_on(q.fetch_optional(&mut *self.tx))?;
        Ok(row.map(|r| player_from(&r)).transpose()?)
    }

    fn create_player(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player> {
        let q = sqlx::query(
            "INSERT INTO players (phone, created_at, updated_at) VALUES ($1, $2, $2) RETURNING id",
        )
        .bind(phone)
        .bind(millis(now));
        let row = self.handle.block_on(q.fetch_one(&mut *self.tx))?;
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
        let q = sqlx::query(
            "UPDATE players SET nick = $2, nick_key = $3, lang = $4, opted_out = $5, away = $6, updated_at = $7
             WHERE id = $1",
        )
        .bind(p.id)
        .bind(&p.nick)
        .bind(p.nick.as_ref().map(|n| n.to_lowercase()))
        .bind(p.lang.to_string())
        .bind(p.opted_out)
        .bind(p.away)
        .bind(millis(now));
        self.handle.block_on(q.execute(&mut *self.tx))?;
        Ok(())
    }

    fn enqueue_text(&mut self, t: &NewText, now: DateTime<Utc>) -> StoreResult<i64> {
        let q = sqlx::query(
            "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, next_attempt_at, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $6, $6) RETURNING id",
        )
        .bind(&t.from)
        .bind(&t.to)
        .bind(&t.body)
        .bind(t.encoding)
        .bind(t.parts as i32)
        .bind(millis(now));
        let row = self.handle.block_on(q.fetch_one(&mut *self.tx))?;
        self.queued_texts = true;
        Ok(row.try_get(0)?)
    }

    fn cancel_texts_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64> {
        let q = sqlx::query(
            "UPDATE outbox SET status = 'cancelled', lease_until = NULL, updated_at = $2
             WHERE to_phone = $1 AND status = 'queued'",
        )
        .bind(phone)
        .bind(millis(now));
        Ok(self
            .handle
            .block_on(q.execute(&mut *self.tx))?
            .rows_affected())
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
        let rows = self.handle.block_on(q.fetch_all(&mut *self.tx))?;
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
        let row = self.handle.block_on(q.fetch_one(&mut *self.tx))?;
        Ok(row.try_get::<Option<i64>, _>(0)?.map(from_millis))
    }

    fn pending_texts(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        let sql = format!(
            "SELECT {TEXT_COLUMNS}, next_attempt_at FROM outbox
             WHERE status IN ('queued', 'sending') ORDER BY id"
        );
        let rows = self
            .handle
            .block_on(sqlx::query(&sql).fetch_all(&mut *self.tx))?;
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
        self.handle.block_on(q.execute(&mut *self.tx))?;
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
        self.handle.block_on(q.execute(&mut *self.tx))?;
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
        self.handle.block_on(q.execute(&mut *self.tx))?;
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
        self.handle.block_on(q.execute(&mut *self.tx))?;
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
        let Some(row) = self.handle.block_on(q.fetch_optional(&mut *self.tx))? else {
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
            self.handle.block_on(q.execute(&mut *self.tx))?;
        }
        Ok(Some(next))
    }

    fn text_by_id(&mut self, id: i64) -> StoreResult<Option<OutboxText>> {
        let sql = format!("SELECT {TEXT_COLUMNS} FROM outbox WHERE id = $1");
        let q = sqlx::query(&sql).bind(id);
        let row = self.handle.block_on(q.fetch_optional(&mut *self.tx))?;
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
        self.handle.block_on(q.execute(&mut *self.tx))?;
        Ok(())
    }

    fn lobby_leave(&mut self, player_id: i64) -> StoreResult<()> {
        let q = sqlx::query("DELETE FROM lobby WHERE player_id = $1").bind(player_id);
        self.handle.block_on(q.execute(&mut *self.tx))?;
        Ok(())
    }

    fn lobby_game_of(&mut self, player_id: i64) -> StoreResult<Option<String>> {
        let q = sqlx::query("SELECT game FROM lobby WHERE player_id = $1").bind(player_id);
        let row = self.handle.block_on(q.fetch_optional(&mut *self.tx))?;
        Ok(row.map(|r| r.try_get(0)).transpose()?)
    }

    fn lobby_queue(&mut self, game: &str, limit: usize) -> StoreResult<Vec<Player>> {
        // One matchmaker per game at a time, across every instance, until this transaction ends.
        let lock = sqlx::query("SELECT pg_advisory_xact_lock(hashtext('lobby:' || $1))").bind(game);
        self.handle.block_on(lock.execute(&mut *self.tx))?;
        let sql = format!(
            "SELECT {PLAYER_COLUMNS} FROM lobby l JOIN players p ON p.id = l.player_id
             WHERE l.game = $1 ORDER BY l.queued_at, l.player_id LIMIT $2 FOR UPDATE OF l"
        );
        let q = sqlx::query(&sql).bind(game).bind(limit as i64);
        let rows = self.handle.block_on(q.fetch_all(&mut *self.tx))?;
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
        let id: i64 = self
            .handle
            .block_on(q.fetch_one(&mut *self.tx))?
            .try_get(0)?;
        for (seat, player) in new.players.iter().enumerate() {
            let q = sqlx::query(
                "INSERT INTO match_seats (match_id, seat, player_id) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(seat as i32)
            .bind(player);
            self.handle.block_on(q.execute(&mut *self.tx))?;
        }
        Ok(id)
    }

    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        let sql = format!("SELECT {MATCH_COLUMNS} FROM matches m WHERE m.id = $1 FOR UPDATE");
        let q = sqlx::query(&sql).bind(id);
        let row = self.handle.block_on(q.fetch_optional(&mut *self.tx))?;
        Ok(row.map(|r| match_from(&r)).transpose()?)
    }

    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        let sql = format!(
            "SELECT {MATCH_COLUMNS} FROM match_seats s JOIN matches m ON m.id = s.match_id
             WHERE s.player_id = $1 ORDER BY s.match_id DESC LIMIT 1 FOR UPDATE OF m"
        );
        let q = sqlx::query(&sql).bind(player_id);
        let row = self.handle.block_on(q.fetch_optional(&mut *self.tx))?;
        Ok(row.map(|r| match_from(&r)).transpose()?)
    }

    fn save_match(&mut self, m: &MatchRecord) -> StoreResult<()> {
        let q = sqlx::query(
            "UPDATE matches SET state = $2, rng_pos = $3, finished = $4, deadline_at = $5,
             rematch_deadline_at = $6, finished_at = $7 WHERE id = $1",
        )
        .bind(m.id)
        .bind(&m.state)
        .bind(m.rng_pos.to_string())
        .bind(m.finished)
        .bind(m.deadline_at.map(millis))
        .bind(m.rematch_deadline_at.map(millis))
        .bind(m.finished_at.map(millis));
        self.handle.block_on(q.execute(&mut *self.tx))?;
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        let sql = format!(
            "SELECT {PLAYER_COLUMNS}, s.seat, s.missed, s.rematch_at, s.message_sent
             FROM match_seats s JOIN players p ON p.id = s.player_id WHERE s.match_id = $1 ORDER BY s.seat"
        );
        let q = sqlx::query(&sql).bind(match_id);
        let rows = self.handle.block_on(q.fetch_all(&mut *self.tx))?;
        let seats = rows
            .iter()
            .map(|row| {
                Ok(SeatRecord {
                    player: player_from(row)?,
                    seat: row.try_get::<i32, _>(6)? as usize,
                    missed: row.try_get::<i32, _>(7)? as u32,
                    rematch_at: row.try_get::<Option<i64>, _>(8)?.map(from_millis),
                    message_sent: row.try_get(9)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(seats)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRecord) -> StoreResult<()> {
        let q = sqlx::query(
            "UPDATE match_seats SET missed = $3, rematch_at = $4, message_sent = $5 WHERE match_id = $1 AND seat = $2",
        )
        .bind(match_id)
        .bind(seat.seat as i32)
        .bind(seat.missed as i32)
        .bind(seat.rematch_at.map(millis))
        .bind(seat.message_sent);
        self.handle.block_on(q.execute(&mut *self.tx))?;
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
        // The match row is locked by whoever plays, so MAX + 1 cannot race.
        let q = sqlx::query(
            "INSERT INTO match_moves (match_id, ply, seat, move, automatic, at, state_after)
             VALUES ($1, (SELECT COALESCE(MAX(ply), 0) + 1 FROM match_moves WHERE match_id = $1), $2, $3, $4, $5, $6)",
        )
        .bind(match_id)
        .bind(seat as i32)
        .bind(notation)
        .bind(automatic)
        .bind(millis(now))
        .bind(state_after);
        self.handle.block_on(q.execute(&mut *self.tx))?;
        Ok(())
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        let q = sqlx::query(
            "SELECT ply, seat, move, automatic, state_after FROM match_moves WHERE match_id = $1 ORDER BY ply",
        )
        .bind(match_id);
        let rows = self.handle.block_on(q.fetch_all(&mut *self.tx))?;
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
        ids(self.handle.block_on(q.fetch_all(&mut *self.tx))?)
    }

    fn due_rematches(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>> {
        let q = sqlx::query(
            "SELECT id FROM matches WHERE rematch_deadline_at <= $1
             ORDER BY rematch_deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED",
        )
        .bind(millis(now))
        .bind(limit as i64);
        ids(self.handle.block_on(q.fetch_all(&mut *self.tx))?)
    }

    fn next_timer(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        let q = sqlx::query(
            "SELECT LEAST(
                (SELECT MIN(deadline_at) FROM matches WHERE NOT finished),
                (SELECT MIN(rematch_deadline_at) FROM matches WHERE rematch_deadline_at IS NOT NULL))",
        );
        let row = self.handle.block_on(q.fetch_one(&mut *self.tx))?;
        Ok(row.try_get::<Option<i64>, _>(0)?.map(from_millis))
    }

    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64> {
        if !super::KNOWN_TABLES.contains(&table) {
            return Err(StoreError::Corrupt(format!("no table {table}")));
        }
        let sql = format!("SELECT COUNT(*) FROM {table}");
        let q = sqlx::query(&sql);
        Ok(self
            .handle
            .block_on(q.fetch_one(&mut *self.tx))?
            .try_get(0)?)
    }

    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>> {
        let sql = format!("SELECT {TEXT_COLUMNS} FROM outbox WHERE to_phone = $1 ORDER BY id");
        let q = sqlx::query(&sql).bind(phone);
        let rows = self.handle.block_on(q.fetch_all(&mut *self.tx))?;
        Ok(rows.iter().map(text_from).collect::<Result<Vec<_>, _>>()?)
    }
}
