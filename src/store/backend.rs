//! What each backend does its own way, concern by concern, and everything
//! else a concern does written once over [`Sql`] for both.
//!
//! A concern's trait (`Players`, `Lobby`, `Matches`, `Outbox`, `Hall`, and
//! `Tx` which hands them out) is implemented here, once, for every writer
//! that implements the concern's backend trait below. A backend writes only
//! the methods of those: where SQLite's one writer keeps copies or holds its
//! texts for the next statement, where PostgreSQL defers writes to ride
//! with the next statement or writes a batch in one round trip. Each
//! differing method says why in its backend.

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::console::ConsoleWrite;
use super::model::{
    Arrival, MatchRow, MoveRow, NewMatch, NewMove, NewText, OutboxText, Player, SeatRow, SentText,
    TextStatus,
};
use super::rows::millis;
use super::sql::Writer;
use super::standings::Standings;
use super::statements::{HALL_OPEN_PHONE, Value};
use super::tx::{
    Fragments, Hall, Inbound, Lobby, Matches, Outbox, Players, Pool, Queue, Robots, Timers, Tx,
};
use super::{lookups, outbox, writes};
use crate::inbound::InboundMessage;

/// Players, where the backends differ: taking a text in (PostgreSQL: one
/// statement with the writes pending), reading a player (SQLite: its copy;
/// PostgreSQL: locked), writing one back (PostgreSQL: deferred).
pub(crate) trait PlayersBackend: Writer {
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival>;
    fn by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>>;
    fn save(&mut self, player: &Player, now: DateTime<Utc>) -> StoreResult<()>;
}

/// The lobby, where the backends differ: leaving (PostgreSQL: deferred) and
/// reading a queue (PostgreSQL: one matchmaker per queue across instances).
pub(crate) trait LobbyBackend: Writer {
    fn leave(&mut self, player_id: i64) -> StoreResult<()>;
    fn queue(&mut self, game: &str, options: &str, pool: Pool, limit: usize) -> StoreResult<Queue>;
}

/// Matches, where the backends differ: SQLite's copies of seats and newest
/// matches, PostgreSQL's deferred writes and its seats in one statement.
pub(crate) trait MatchesBackend: Writer {
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64>;
    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>>;
    fn active_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        Ok(self.last_of(player_id)?.filter(|m| !m.finished))
    }
    fn save(&mut self, m: &MatchRow) -> StoreResult<()>;
    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>>;
    fn save_seat(&mut self, match_id: i64, seat: &SeatRow) -> StoreResult<()>;
    fn record_move(
        &mut self,
        match_id: i64,
        mv: &NewMove<'_>,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
}

/// The outbox, where the backends differ: queuing a text (SQLite: held for
/// the writer's next statement and told to its dispatcher; PostgreSQL:
/// deferred), recording sends (PostgreSQL: a batch, with the early reports
/// in the same round trip) and a report that may come before its send.
pub(crate) trait OutboxBackend: Writer {
    fn enqueue(&mut self, text: NewText, now: DateTime<Utc>) -> StoreResult<()>;
    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()>;
    fn report_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>>;
}

impl<W: PlayersBackend> Players for W {
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival> {
        PlayersBackend::accept_inbound(self, msg)
    }

    fn by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        PlayersBackend::by_phone(self, phone)
    }

    fn by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>> {
        writes::player_by_nick(self, nick)
    }

    fn create(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player> {
        writes::create_player(self, phone, now)
    }

    fn save(&mut self, player: &Player, now: DateTime<Utc>) -> StoreResult<()> {
        PlayersBackend::save(self, player, now)
    }
}

impl<W: LobbyBackend> Lobby for W {
    fn join(
        &mut self,
        player_id: i64,
        game: &str,
        options: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<bool> {
        writes::join_lobby(self, player_id, game, options, queued_at)
    }

    fn leave(&mut self, player_id: i64) -> StoreResult<()> {
        LobbyBackend::leave(self, player_id)
    }

    fn queue_of(&mut self, player_id: i64) -> StoreResult<Option<(String, String)>> {
        writes::queue_of(self, player_id)
    }

    fn queue(&mut self, game: &str, options: &str, pool: Pool, limit: usize) -> StoreResult<Queue> {
        LobbyBackend::queue(self, game, options, pool, limit)
    }
}

impl<W: MatchesBackend> Matches for W {
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64> {
        MatchesBackend::insert(self, new, now)
    }

    fn by_id(&mut self, id: i64) -> StoreResult<Option<MatchRow>> {
        lookups::match_for_update(self, id)
    }

    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        MatchesBackend::last_of(self, player_id)
    }

    fn active_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        MatchesBackend::active_of(self, player_id)
    }

    fn save(&mut self, m: &MatchRow) -> StoreResult<()> {
        MatchesBackend::save(self, m)
    }

    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>> {
        MatchesBackend::seats(self, match_id)
    }

    fn save_seat(&mut self, match_id: i64, seat: &SeatRow) -> StoreResult<()> {
        MatchesBackend::save_seat(self, match_id, seat)
    }

    fn record_move(
        &mut self,
        match_id: i64,
        mv: &NewMove<'_>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        MatchesBackend::record_move(self, match_id, mv, now)
    }

    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRow>> {
        lookups::moves(self, match_id)
    }
}

impl<W: OutboxBackend> Outbox for W {
    fn enqueue(&mut self, text: NewText, now: DateTime<Utc>) -> StoreResult<()> {
        OutboxBackend::enqueue(self, text, now)
    }

    fn answer(&mut self, text: &NewText, reference: &str, now: DateTime<Utc>) -> StoreResult<bool> {
        outbox::answer(self, text, reference, now)
    }

    fn answered(&mut self, reference: &str) -> StoreResult<Option<OutboxText>> {
        outbox::answered(self, reference)
    }

    fn cancel_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64> {
        outbox::cancel_to(self, phone, now)
    }

    fn claim(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<OutboxText>> {
        outbox::claim(self, now, lease_until, limit)
    }

    fn next_due_after(&mut self, now: DateTime<Utc>) -> StoreResult<Option<DateTime<Utc>>> {
        outbox::next_due_after(self, now)
    }

    fn pending(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        outbox::pending(self)
    }

    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        OutboxBackend::mark_sent(self, sent)
    }

    fn mark_retry(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        next_attempt: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        outbox::retry(self, id, attempts, error, next_attempt, now)
    }

    fn mark_failed(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        writes::park_text(self, id, attempts, error, now)
    }

    fn report_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>> {
        OutboxBackend::report_status(self, provider_ref, status, error, now)
    }
}

impl<W: Writer> Hall for W {
    fn open_phone(
        &mut self,
        number: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let added = self.execute(
            &HALL_OPEN_PHONE,
            &[
                (":number", Value::Text(number)),
                (":token_hash", Value::Text(token_hash)),
                (":now", Value::Int(millis(now))),
            ],
        )?;
        Ok(added == 1)
    }
}

/// A writer's transaction hands itself out as each concern.
impl<W> Tx for W
where
    W: PlayersBackend + LobbyBackend + MatchesBackend + OutboxBackend,
{
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
    fn fragments(&mut self) -> &mut dyn Fragments {
        self
    }
    fn inbound(&mut self) -> &mut dyn Inbound {
        self
    }
    fn hall(&mut self) -> &mut dyn Hall {
        self
    }
    fn console(&mut self) -> &mut dyn ConsoleWrite {
        self
    }
    fn standings(&mut self) -> &mut dyn Standings {
        self
    }
}
