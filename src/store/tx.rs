//! What a transaction can do, cut by concern: players and inbound texts, the
//! lobby, matches and their moves, timers, the outbox; and the read side.
//!
//! [`Tx`] is one transaction on the writer; its concerns are typed
//! sub-handles (`tx.players().save(..)`), so that each concern's methods are
//! found together and a backend implements them one trait at a time.
//! [`Read`] is what the admin API, operators and tests read beside the writer,
//! without its locks.

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::model::{
    Arrival, Fragment, MatchRow, MoveRow, NewMatch, NewMove, NewText, OutboxText, PartArrival,
    Player, RobotTurn, SeatRow, SentText, TextStatus,
};
use crate::inbound::InboundMessage;

/// One transaction on the writer. Everything the platform does to the
/// database for one inbound text (or one batch of timers) goes through one.
pub trait Tx {
    fn players(&mut self) -> &mut dyn Players;
    fn lobby(&mut self) -> &mut dyn Lobby;
    fn matches(&mut self) -> &mut dyn Matches;
    fn timers(&mut self) -> &mut dyn Timers;
    fn robots(&mut self) -> &mut dyn Robots;
    fn outbox(&mut self) -> &mut dyn Outbox;
    fn fragments(&mut self) -> &mut dyn Fragments;
    fn inbound(&mut self) -> &mut dyn Inbound;
    fn hall(&mut self) -> &mut dyn Hall;
    fn console(&mut self) -> &mut dyn super::console::ConsoleWrite;
    fn standings(&mut self) -> &mut dyn super::standings::Standings;
}

/// The training hall's virtual phones, each with the hash of its token.
pub trait Hall {
    /// Opens `number` with its token's hash; `false` when the number is
    /// already someone's (the hall then draws another).
    fn open_phone(
        &mut self,
        number: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<bool>;
}

/// The inbound texts, kept for ever by their provider ids (a provider may
/// retry a text long after: it must be acknowledged, not applied), and
/// their bodies and numbers only as long as the operator keeps them.
pub trait Inbound {
    /// Trims the texts after `after_id` received before `before` to their
    /// provider and id (body and numbers emptied), walking ids in order and
    /// stopping at the first younger text, at most `limit` of them. Gives
    /// the last id trimmed, where the next call starts, or `None` when no
    /// text there was old enough.
    fn trim(
        &mut self,
        before: DateTime<Utc>,
        after_id: i64,
        limit: usize,
    ) -> StoreResult<Option<i64>>;
}

/// Parts of long inbound texts (Vonage's concatenated SMS), kept durably
/// until the last arrives, whichever instance each part reached.
pub trait Fragments {
    /// Takes one part by its own id (a part seen before, even of a text
    /// long joined, is a [`PartArrival::Repeat`]) and keeps it with the
    /// parts of its text: its provider, sender, reference and declared
    /// total. When every part is in, deletes them and gives the whole text.
    fn add(&mut self, fragment: &Fragment) -> StoreResult<PartArrival>;
    /// Deletes the parts of texts that were still incomplete at `before`
    /// (their first part is older); how many parts went.
    fn drop_stale(&mut self, before: DateTime<Utc>) -> StoreResult<u64>;
}

/// Phone numbers we know, and the inbound texts they sent.
pub trait Players {
    /// Records an inbound message (once per provider id) and, if it is new,
    /// loads and locks its sender: what every inbound text starts with.
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival>;
    /// The player of a phone, locked for the rest of the transaction.
    fn by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>>;
    /// Looks a nick up case-insensitively.
    fn by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>>;
    /// Creates the row for a phone we have not seen, with defaults.
    fn create(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<Player>;
    /// Writes every field of the player back.
    fn save(&mut self, player: &Player, now: DateTime<Utc>) -> StoreResult<()>;
}

/// The queues of players waiting for a match, one per game and option set
/// (`P WB 6` waits only for another `P WB 6`).
pub trait Lobby {
    /// Puts a player in a queue (or moves him there), with `queued_at` as his
    /// place. False when he already waits in it: he keeps his earlier place,
    /// so asking twice does not push him back.
    fn join(
        &mut self,
        player_id: i64,
        game: &str,
        options: &str,
        queued_at: DateTime<Utc>,
    ) -> StoreResult<bool>;
    fn leave(&mut self, player_id: i64) -> StoreResult<()>;
    /// The game and options of the queue the player is in.
    fn queue_of(&mut self, player_id: i64) -> StoreResult<Option<(String, String)>>;
    /// The longest-waiting players of a queue, oldest first. Only one
    /// transaction at a time reads a queue this way (matchmaking), until it
    /// ends; a batch of new callers does not wait for another's turn
    /// ([`Queue::Busy`]).
    fn queue(&mut self, game: &str, options: &str, pool: Pool, limit: usize) -> StoreResult<Queue>;
}

/// Whose turn in a queue a matchmaker reads: the training hall's virtual
/// phones ([`crate::phone::is_virtual`]) and real phones wait in the same
/// queues but are seated apart, unless the operator lets them meet
/// (`hall.meet_real_players`): a real phone seated with a web visitor
/// would get, and cost, an SMS for every move the visitor makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pool {
    /// Everyone in the queue: the hall meets real players.
    Everyone,
    /// The hall's virtual phones only.
    Hall,
    /// Real phones only.
    Phones,
}

impl Pool {
    /// How the pool is bound in the queue's statement
    /// ([`super::statements::writes::in_pool`]).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Pool::Everyone => "everyone",
            Pool::Hall => "hall",
            Pool::Phones => "phones",
        }
    }
}

/// A lobby queue as the matchmaker found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Queue {
    /// Its longest-waiting players, oldest first, up to the limit asked for.
    Waiting(Vec<Player>),
    /// Another transaction matches this queue now (PostgreSQL: another
    /// instance's batch). A batch of new callers does not wait for it: it
    /// would hold up every caller behind it, and the two batches' other locks
    /// close cycles that only a lock timeout breaks. Neither sees the other's
    /// newcomers, so the caller matches the queue again once committed, in a
    /// transaction of its own that waits its turn. SQLite's one writer never
    /// finds a queue busy.
    Busy,
}

impl Queue {
    /// The waiting players; none when busy.
    pub fn into_players(self) -> Vec<Player> {
        match self {
            Queue::Waiting(players) => players,
            Queue::Busy => Vec::new(),
        }
    }
}

/// Matches, their seats and their moves. A match read here is locked until
/// the transaction ends, so moves arriving at once apply one after the other.
pub trait Matches {
    /// Creates a match with its seats; returns its id.
    fn insert(&mut self, new: &NewMatch, now: DateTime<Utc>) -> StoreResult<i64>;
    fn by_id(&mut self, id: i64) -> StoreResult<Option<MatchRow>>;
    /// The most recent match a player sat in, finished or not.
    fn last_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>>;
    /// The unfinished match a player sits in. A player sits in one unfinished
    /// match at most and joins a new one only when his last is over, so it is
    /// his newest match, if that is not over: one index step, where looking
    /// for an unfinished match among all he ever played walked his history
    /// (a tenth of the writer's time in a profile).
    fn active_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        Ok(self.last_of(player_id)?.filter(|m| !m.finished))
    }
    /// Writes back the match's mutable fields (state, generator, deadlines, end).
    fn save(&mut self, m: &MatchRow) -> StoreResult<()>;
    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>>;
    fn save_seat(&mut self, match_id: i64, seat: &SeatRow) -> StoreResult<()>;
    /// Appends a move to the match's record.
    fn record_move(
        &mut self,
        match_id: i64,
        mv: &NewMove<'_>,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    /// The match's record, in order.
    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRow>>;
}

/// The platform's timers, which are columns of the matches: turn deadlines
/// and rematch windows. Due ones are claimed, so each fires once.
pub trait Timers {
    /// Unfinished matches whose turn deadline has passed.
    fn due_turns(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>>;
    /// Finished matches whose rematch window has closed.
    fn due_rematches(&mut self, now: DateTime<Utc>, limit: usize) -> StoreResult<Vec<i64>>;
    /// The earliest turn deadline or rematch window end still pending.
    fn next(&mut self) -> StoreResult<Option<DateTime<Utc>>>;
}

/// Robot seats' turns as durable jobs: queued in the transaction that made
/// them due, claimed with a lease by whichever instance computes them, and
/// done in the transaction that plays the robot's move.
pub trait Robots {
    /// Makes a robot seat's turn due (replacing an older one of the seat).
    fn queue(&mut self, turn: &RobotTurn) -> StoreResult<()>;
    /// Claims due turns of robots of `levels` whose lease is free or ran
    /// out, oldest first.
    fn claim(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        levels: std::ops::RangeInclusive<u8>,
        limit: usize,
    ) -> StoreResult<Vec<RobotTurn>>;
    /// The turn is played (or dropped); a newer turn of the seat stays due.
    fn done(&mut self, turn: &RobotTurn) -> StoreResult<()>;
    /// Every turn of a match is dropped (it ended).
    fn clear(&mut self, match_id: i64) -> StoreResult<()>;
    /// When the next turn falls due or its lease runs out, if any is waiting.
    fn next_due(&mut self) -> StoreResult<Option<DateTime<Utc>>>;
}

/// Texts on their way to phones.
pub trait Outbox {
    /// Queues a text; it is sent only once this transaction commits. Taken
    /// whole: its strings go on to the dispatcher without a copy.
    fn enqueue(&mut self, text: NewText, now: DateTime<Utc>) -> StoreResult<()>;
    /// Records `text` as handed to the provider in the webhook's answer to
    /// the text it replies to (Kannel), under `reference` for its delivery
    /// reports; `false` when a text to the same phone is still unsent, and
    /// then it is queued as usual instead, so as not to overtake that one.
    fn answer(&mut self, text: &NewText, reference: &str, now: DateTime<Utc>) -> StoreResult<bool>;
    /// The text given in an answer under `reference`: the same answer again,
    /// when the provider repeats a text whose answer it did not get.
    fn answered(&mut self, reference: &str) -> StoreResult<Option<OutboxText>>;
    /// Cancels every text to `phone` not yet handed to the provider (the phone opted out).
    fn cancel_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64>;
    /// Claims texts due for sending: at most one per recipient (the oldest
    /// unsent), so texts to one phone go out in order. Claimed rows are leased
    /// until `lease_until`; an expired lease makes them claimable again.
    fn claim(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<OutboxText>>;
    /// When the next text falls due after `now`, or a lease runs out: what a
    /// claim that took every text due by `now` has left to wait for. A text
    /// due by then that it did not take waits for the record of the text
    /// before it to the same phone, which wakes a claimer.
    fn next_due_after(&mut self, now: DateTime<Utc>) -> StoreResult<Option<DateTime<Utc>>>;
    /// Every text not yet handed to the provider (queued, or claimed by a
    /// dispatcher that died), oldest first, with when it falls due: what a
    /// dispatcher fed by [`super::Store::take_outbox_feed`] picks up when it starts.
    fn pending(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>>;
    /// The provider took these texts. PostgreSQL records them in one
    /// statement, where a round trip per text was a fifth of the statements per move.
    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()>;
    /// Attempt number `attempts` failed in a way worth retrying at `next_attempt`.
    fn mark_retry(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        next_attempt: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    /// Parked for good after `attempts` attempts.
    fn mark_failed(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()>;
    /// Applies a delivery report to the text the provider knows as `provider_ref`;
    /// a status never moves backwards. Returns the text's status afterwards.
    fn report_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>>;
}

/// Reads beside the writer: no locks taken, nothing written, what the last
/// commit left (SQLite: a read connection; PostgreSQL: the pool). For the
/// admin API, operators and tests; never for a decision the writer makes.
pub trait Read {
    fn player_by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>>;
    /// A player by nick, case-insensitively.
    fn player_by_nick(&mut self, nick: &str) -> StoreResult<Option<Player>>;
    fn match_by_id(&mut self, id: i64) -> StoreResult<Option<MatchRow>>;
    /// The newest match a player sat in, if it is not over.
    fn active_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>> {
        Ok(self.last_match_of(player_id)?.filter(|m| !m.finished))
    }
    /// The newest match a player sat in, finished or not.
    fn last_match_of(&mut self, player_id: i64) -> StoreResult<Option<MatchRow>>;
    fn seats(&mut self, match_id: i64) -> StoreResult<Vec<SeatRow>>;
    fn moves(&mut self, match_id: i64) -> StoreResult<Vec<MoveRow>>;
    /// Every text ever queued to a phone, oldest first.
    fn texts_to(&mut self, phone: &str) -> StoreResult<Vec<OutboxText>>;
    /// Rows in one of the store's tables (see [`super::TABLES`]).
    fn count_rows(&mut self, table: &'static str) -> StoreResult<i64>;
    /// Robot turns waiting to be computed.
    fn robot_turns(&mut self) -> StoreResult<Vec<RobotTurn>>;
    /// Matches ended as void because their stored state would not load.
    fn void_matches(&mut self) -> StoreResult<i64>;
    /// The token hash of a training hall phone, if the hall opened it.
    fn hall_phone(&mut self, number: &str) -> StoreResult<Option<String>>;
    /// What the operator's console reads.
    fn console(&mut self) -> &mut dyn super::console::ConsoleRead;
    /// Players' ratings, records and leaderboards.
    fn standings(&mut self) -> &mut dyn super::standings::StandingsRead;
}
