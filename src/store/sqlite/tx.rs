//! The SQLite writer's transaction: the batch runner's controls, and players,
//! lobby, matches and timers (the outbox is in `outbox.rs`).

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use rusqlite::{Connection, params};

use super::queries;
use crate::inbound::InboundMessage;
use crate::store::group_commit::{BatchTx, Patience};
use crate::store::records::{
    Arrival, MatchRecord, MoveRecord, NewMatch, NewMove, NewSeat, OutboxEvent, Player, SeatRecord,
};
use crate::store::rows::{column_list, millis, rng_pos_text};
use crate::store::tx::{Lobby, Matches, Outbox, Players, Robots, Timers, Tx};
use crate::store::{StoreResult, lookups, writes};

/// The writer's connection inside an open transaction.
pub(in crate::store) struct SqliteTx<'c> {
    pub(super) conn: &'c Connection,
    /// What this transaction did to the outbox, told to the dispatcher after COMMIT.
    pub(super) events: Vec<OutboxEvent>,
    /// How many of `events` came before the current job's savepoint.
    events_at_savepoint: usize,
}

impl<'c> SqliteTx<'c> {
    pub(super) fn new(conn: &'c Connection) -> SqliteTx<'c> {
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

    fn begin(&mut self, _: Patience) -> StoreResult<()> {
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

impl Tx for SqliteTx<'_> {
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
}

impl Players for SqliteTx<'_> {
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival> {
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
        if inserted == 0 {
            return Ok(Arrival::Duplicate);
        }
        // One writer: the sender's row needs no lock.
        Ok(Arrival::New(lookups::player_by_phone(self, &msg.from)?))
    }

    fn by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        lookups::player_by_phone(self, phone)
    }

    fn by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>> {
        writes::player_by_nick(self, nick)
    }

    fn create(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player> {
        writes::create_player(self, phone, now)
    }

    fn save(&mut self, p: &Player, now: DateTime<Utc>) -> StoreResult<()> {
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
}

impl Lobby for SqliteTx<'_> {
    fn join(
        &mut self,
        player_id: i64,
        game: &str,
        options: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<()> {
        writes::join_lobby(self, player_id, game, options, queued_at)
    }

    fn leave(&mut self, player_id: i64) -> StoreResult<()> {
        self.conn
            .prepare_cached("DELETE FROM lobby WHERE player_id = ?1")?
            .execute([player_id])?;
        Ok(())
    }

    fn queue_of(&mut self, player_id: i64) -> StoreResult<Option<(String, String)>> {
        writes::queue_of(self, player_id)
    }

    fn queue(&mut self, game: &str, options: &str, limit: usize) -> StoreResult<Vec<Player>> {
        static SQL: LazyLock<String> = LazyLock::new(|| {
            format!(
                "SELECT {} FROM lobby l JOIN players p ON p.id = l.player_id
                 WHERE l.game = ?1 AND l.options = ?2 ORDER BY l.queued_at, l.player_id LIMIT ?3",
                column_list::<Player>("p")
            )
        });
        queries::all(self.conn, &SQL, params![game, options, limit as i64])
    }
}

impl Matches for SqliteTx<'_> {
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        let id: i64 = self
            .conn
            .prepare_cached(
                "INSERT INTO matches (game, state, seed, rng_pos, deadline_at, rematch_of, started_at, initial_state, options)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?2, ?8)",
            )?
            .insert(params![
                new.game,
                new.state,
                new.seed as i64,
                rng_pos_text(new.rng_pos),
                new.deadline_at.map(millis),
                new.rematch_of,
                millis(now),
                new.options
            ])?;
        let mut seat_stmt = self.conn.prepare_cached(
            "INSERT INTO match_seats (match_id, seat, player_id, robot_level) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (seat, holder) in new.seats.iter().enumerate() {
            let (player, robot) = match *holder {
                NewSeat::Player(id) => (Some(id), None),
                NewSeat::Robot(level) => (None, Some(level)),
            };
            seat_stmt.execute(params![id, seat as i64, player, robot])?;
        }
        Ok(id)
    }

    fn by_id(&mut self, id: i64) -> StoreResult<Option<MatchRecord>> {
        lookups::match_by_id(self, id)
    }

    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRecord>> {
        lookups::last_match_of(self, player_id)
    }

    fn save(&mut self, m: &MatchRecord) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE matches SET state = ?2, rng_pos = ?3, finished = ?4, deadline_at = ?5,
                 rematch_deadline_at = ?6, finished_at = ?7, turn = ?8, void_reason = ?9 WHERE id = ?1",
            )?
            .execute(params![
                m.id,
                m.state,
                rng_pos_text(m.rng_pos),
                m.finished,
                m.deadline_at.map(millis),
                m.rematch_deadline_at.map(millis),
                m.finished_at.map(millis),
                m.turn,
                m.void_reason
            ])?;
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRecord>> {
        lookups::seats(self, match_id)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRecord) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "UPDATE match_seats SET missed = ?3, rematch_at = ?4, message_sent = ?5, place = ?6, score = ?7
                 WHERE match_id = ?1 AND seat = ?2",
            )?
            .execute(params![
                match_id,
                seat.seat as i64,
                seat.missed,
                seat.rematch_at.map(millis),
                seat.message_sent,
                seat.place,
                seat.score
            ])?;
        Ok(())
    }

    fn record_move(
        &mut self,
        match_id: i64,
        mv: &NewMove<'_>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO match_moves (match_id, ply, seat, kind, move, automatic, at, state_after, rng_pos)
                 VALUES (?1, (SELECT COALESCE(MAX(ply), 0) + 1 FROM match_moves WHERE match_id = ?1),
                         ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                match_id,
                mv.seat as i64,
                mv.kind.as_str(),
                mv.notation,
                mv.automatic,
                millis(now),
                mv.state_after,
                rng_pos_text(mv.rng_pos)
            ])?;
        Ok(())
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRecord>> {
        lookups::moves(self, match_id)
    }
}
