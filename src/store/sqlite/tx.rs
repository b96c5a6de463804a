//! The SQLite writer's transaction: the batch runner's controls, and players,
//! lobby, matches and timers (the outbox is in `outbox.rs`).

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::copies::Copies;
use super::exec::{self, Prepared};
use crate::inbound::InboundMessage;
use crate::store::backend::{LobbyBackend, MatchesBackend, PlayersBackend};
use crate::store::group_commit::BatchTx;
use crate::store::model::{Arrival, MatchRow, NewMatch, NewMove, NewSeat, Player, SeatRow};
use crate::store::rows::{from_millis, millis, rng_pos_text};
use crate::store::statements::sqlite::{
    ACCEPT_INBOUND, BEGIN, COMMIT, INSERT_SEAT, LEAVE_LOBBY, RECORD_MOVE, RELEASE_SAVEPOINT,
    ROLLBACK_TO_SAVEPOINT, SAVE_MATCH, SAVE_MATCH_IN_PLAY, SAVE_PLAYER, SAVE_SEAT, SAVEPOINT,
};
use crate::store::statements::{Statement, Value};
use crate::store::tx::{Pool, Queue, Tx};
use crate::store::{StoreResult, lookups, writes};

/// The writer's connection inside an open transaction.
pub(in crate::store) struct SqliteTx<'c> {
    pub(super) conn: &'c Connection,
    /// The statements of the table this connection has run, kept prepared,
    /// the texts queued and not yet inserted, and what the transaction did
    /// to the outbox (`db.events`), told to the dispatcher after COMMIT.
    pub(super) db: Prepared<'c>,
    /// Whether `early_reports` may hold a row: only then does recording a
    /// send look for reports that came before it (a statement per batch of
    /// sends saved; the one writer sees every report kept).
    pub(super) early_reports: bool,
    /// The seats and players this writer read lately (`copies.rs`).
    pub(super) copies: Copies,
}

impl<'c> SqliteTx<'c> {
    pub(super) fn new(conn: &'c Connection) -> SqliteTx<'c> {
        SqliteTx {
            conn,
            db: Prepared::new(conn),
            // Until the first send is recorded, as rows may survive a restart.
            early_reports: true,
            copies: Copies::new(),
        }
    }

    /// A transaction-control statement, prepared once with the writer's
    /// others: found in rusqlite's cache, each cost its text hashed and the
    /// cache's entry taken out and put back, twice a batch.
    fn control(&mut self, statement: &Statement) -> StoreResult<()> {
        self.db
            .run_prepared(statement, |stmt| Ok(stmt.raw_execute()?))?;
        Ok(())
    }
}

impl BatchTx for SqliteTx<'_> {
    fn tx(&mut self) -> &mut dyn Tx {
        self
    }

    fn begin(&mut self) -> StoreResult<()> {
        self.db.forget_outbox_work();
        self.control(&BEGIN)
    }

    fn savepoint(&mut self) -> StoreResult<()> {
        self.db.mark_job();
        self.control(&SAVEPOINT)
    }

    fn rollback_to_savepoint(&mut self) -> StoreResult<()> {
        self.db.undo_job();
        self.copies.forget_all();
        self.control(&ROLLBACK_TO_SAVEPOINT)
    }

    fn release_savepoint(&mut self) -> StoreResult<()> {
        self.control(&RELEASE_SAVEPOINT)
    }

    /// Inserts the texts the last job queued (`held.rs`).
    fn flush(&mut self) -> StoreResult<()> {
        self.db.insert_held()
    }

    fn commit(&mut self) -> StoreResult<()> {
        self.control(&COMMIT)
    }

    fn rollback(&mut self) {
        self.db.forget_outbox_work();
        self.copies.forget_all();
        let _ = self.conn.execute_batch("ROLLBACK");
    }
}

impl PlayersBackend for SqliteTx<'_> {
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival> {
        let inserted = exec::execute(
            &mut self.db,
            &ACCEPT_INBOUND,
            &[
                (":provider", Value::Text(msg.provider)),
                (":provider_id", Value::Text(&msg.provider_id)),
                (":from_phone", Value::Text(&msg.from)),
                (":to_number", Value::Text(&msg.to)),
                (":body", Value::Text(&msg.text)),
                (":received_at", Value::Int(millis(msg.received_at))),
            ],
        )?;
        if inserted == 0 {
            return Ok(Arrival::Duplicate);
        }
        // One writer: the sender's row needs no lock.
        Ok(Arrival::New(self.by_phone(&msg.from)?))
    }

    fn by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        if let Some(player) = self.copies.player(phone) {
            return Ok(Some(player));
        }
        let player = lookups::player_by_phone(self, phone)?;
        if let Some(player) = &player {
            self.copies.keep_player(player);
        }
        Ok(player)
    }

    fn save(&mut self, p: &Player, now: DateTime<Utc>) -> StoreResult<()> {
        self.copies.forget_player(p);
        let nick_key = p.nick.as_ref().map(|n| n.to_lowercase());
        let lang = p.lang.to_string();
        exec::execute(
            &mut self.db,
            &SAVE_PLAYER,
            &[
                (":id", Value::Int(p.id)),
                (":nick", Value::MaybeText(p.nick.as_deref())),
                (":nick_key", Value::MaybeText(nick_key.as_deref())),
                (":lang", Value::Text(&lang)),
                (":opted_out", Value::Flag(p.opted_out)),
                (":away", Value::Flag(p.away)),
                (":now", Value::Int(millis(now))),
            ],
        )?;
        Ok(())
    }
}

impl LobbyBackend for SqliteTx<'_> {
    fn leave(&mut self, player_id: i64) -> StoreResult<()> {
        exec::execute(
            &mut self.db,
            &LEAVE_LOBBY,
            &[(":player_id", Value::Int(player_id))],
        )?;
        Ok(())
    }

    fn queue(&mut self, game: &str, options: &str, pool: Pool, limit: usize) -> StoreResult<Queue> {
        // The one writer: no other transaction is ever matching a queue.
        writes::lobby_queue(self, game, options, pool, limit).map(Queue::Waiting)
    }
}

impl MatchesBackend for SqliteTx<'_> {
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        let id = writes::insert_match(self, new, now)?;
        for (seat, holder) in new.seats.iter().enumerate() {
            let (player, robot) = match *holder {
                NewSeat::Player(id) => (Some(id), None),
                NewSeat::Robot(level) => (None, Some(i64::from(level))),
            };
            exec::execute(
                &mut self.db,
                &INSERT_SEAT,
                &[
                    (":match_id", Value::Int(id)),
                    (":seat", Value::Int(seat as i64)),
                    (":player_id", Value::MaybeInt(player)),
                    (":robot_level", Value::MaybeInt(robot)),
                ],
            )?;
        }
        let players = new.seats.iter().filter_map(|holder| match *holder {
            NewSeat::Player(id) => Some(id),
            NewSeat::Robot(_) => None,
        });
        // The record as a read gives it: what was written, times to the
        // millisecond, the rest the columns' defaults.
        let stored = |t: DateTime<Utc>| from_millis(millis(t));
        let made = stored(now).map(|started_at| MatchRow {
            id,
            game: new.game.clone(),
            options: new.options.clone(),
            state: new.state.clone(),
            seed: new.seed,
            rng_pos: new.rng_pos,
            turn: 0,
            finished: false,
            deadline_at: new.deadline_at.and_then(stored),
            rematch_deadline_at: None,
            rematch_of: new.rematch_of,
            started_at,
            finished_at: None,
            initial_state: new.state.clone(),
            void_reason: None,
        });
        self.copies.match_made(players, made);
        Ok(id)
    }

    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        if let Some(record) = self.copies.newest_match(player_id) {
            return Ok(Some(record));
        }
        let record = lookups::last_match_of(self, player_id)?;
        if let Some(record) = &record {
            self.copies.keep_newest_match(player_id, record);
        }
        Ok(record)
    }

    /// Known to play none, read nothing: a player's texts between his
    /// matches ask this first.
    fn active_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        if self.copies.plays_none(player_id) {
            return Ok(None);
        }
        Ok(self.last_of(player_id)?.filter(|m| !m.finished))
    }

    fn save(&mut self, m: &MatchRow) -> StoreResult<()> {
        let rng_pos = rng_pos_text(m.rng_pos);
        // Most saves are a move's: the lean statement, else the whole one.
        if !m.finished
            && m.rematch_deadline_at.is_none()
            && m.finished_at.is_none()
            && m.void_reason.is_none()
        {
            let saved = exec::execute(
                &mut self.db,
                &SAVE_MATCH_IN_PLAY,
                &[
                    (":id", Value::Int(m.id)),
                    (":state", Value::Text(&m.state)),
                    (":rng_pos", Value::Text(&rng_pos)),
                    (":deadline_at", Value::MaybeInt(m.deadline_at.map(millis))),
                    (":turn", Value::Int(i64::from(m.turn))),
                ],
            )?;
            if saved == 1 {
                self.copies.match_saved(m);
                return Ok(());
            }
        }
        exec::execute(
            &mut self.db,
            &SAVE_MATCH,
            &[
                (":id", Value::Int(m.id)),
                (":state", Value::Text(&m.state)),
                (":rng_pos", Value::Text(&rng_pos)),
                (":finished", Value::Flag(m.finished)),
                (":deadline_at", Value::MaybeInt(m.deadline_at.map(millis))),
                (
                    ":rematch_deadline_at",
                    Value::MaybeInt(m.rematch_deadline_at.map(millis)),
                ),
                (":finished_at", Value::MaybeInt(m.finished_at.map(millis))),
                (":turn", Value::Int(i64::from(m.turn))),
                (":void_reason", Value::MaybeText(m.void_reason.as_deref())),
            ],
        )?;
        self.copies.match_saved(m);
        Ok(())
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>> {
        if let Some(seats) = self.copies.seats(match_id) {
            return Ok(seats);
        }
        let seats = lookups::seats(self, match_id)?;
        self.copies.keep_seats(match_id, &seats);
        Ok(seats)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRow) -> StoreResult<()> {
        self.copies.seat_saved(match_id);
        exec::execute(
            &mut self.db,
            &SAVE_SEAT,
            &[
                (":match_id", Value::Int(match_id)),
                (":seat", Value::Int(seat.seat as i64)),
                (":missed", Value::Int(i64::from(seat.missed))),
                (":rematch_at", Value::MaybeInt(seat.rematch_at.map(millis))),
                (":message_sent", Value::Flag(seat.message_sent)),
                (":place", Value::MaybeInt(seat.place.map(i64::from))),
                (":score", Value::MaybeInt(seat.score)),
            ],
        )?;
        Ok(())
    }

    fn record_move(
        &mut self,
        match_id: i64,
        mv: &NewMove<'_>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        let rng_pos = rng_pos_text(mv.rng_pos);
        exec::execute(
            &mut self.db,
            &RECORD_MOVE,
            &[
                (":match_id", Value::Int(match_id)),
                (":seat", Value::Int(mv.seat as i64)),
                (":kind", Value::Text(mv.kind.as_str())),
                (":move", Value::Text(mv.notation)),
                (":automatic", Value::Flag(mv.automatic)),
                (":at", Value::Int(millis(now))),
                (":state_after", Value::Text(mv.state_after)),
                (":rng_pos", Value::Text(&rng_pos)),
            ],
        )?;
        Ok(())
    }
}
