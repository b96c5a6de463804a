//! The records the store reads and writes: players, texts, matches, seats, moves.

use chrono::{DateTime, Utc};

use crate::lang::Lang;

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
    /// A parked text was put back in the queue by an operator.
    Requeued(OutboxText),
}

/// A match as stored: the game's state string plus what the platform keeps around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRow {
    pub id: i64,
    pub game: String,
    /// The options it was asked for with, in the game's canonical form.
    pub options: String,
    pub state: String,
    pub seed: u64,
    /// Position of the seeded generator after the last draw.
    pub rng_pos: u128,
    /// Turns that moved on so far: a robot's move computed for an earlier
    /// turn is dropped.
    pub turn: u32,
    pub finished: bool,
    pub deadline_at: Option<DateTime<Utc>>,
    pub rematch_deadline_at: Option<DateTime<Utc>>,
    pub rematch_of: Option<i64>,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    pub initial_state: String,
    /// Why the match was ended as void (its stored state would not load).
    pub void_reason: Option<String>,
}

/// Who sits on a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    Player(Player),
    /// A robot of this level; the server plays the seat and texts it nothing.
    Robot(u8),
}

/// Who a new match's seat is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewSeat {
    Player(i64),
    Robot(u8),
}

/// A new match and its seats in order.
#[derive(Clone, Debug)]
pub struct NewMatch {
    pub game: String,
    pub options: String,
    pub state: String,
    pub seed: u64,
    pub rng_pos: u128,
    pub deadline_at: Option<DateTime<Utc>>,
    pub rematch_of: Option<i64>,
    pub seats: Vec<NewSeat>,
}

/// One seat of a match, with its player or robot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    pub seat: usize,
    pub holder: Holder,
    pub missed: u32,
    pub rematch_at: Option<DateTime<Utc>>,
    pub message_sent: bool,
    /// The seat's standing once the match is over: place 1 is best.
    pub place: Option<u8>,
    pub score: Option<i64>,
}

impl SeatRow {
    /// The seat's player, unless a robot sits there.
    pub fn player(&self) -> Option<&Player> {
        match &self.holder {
            Holder::Player(p) => Some(p),
            Holder::Robot(_) => None,
        }
    }

    pub fn player_mut(&mut self) -> Option<&mut Player> {
        match &mut self.holder {
            Holder::Player(p) => Some(p),
            Holder::Robot(_) => None,
        }
    }

    /// Whether the seat's player is `player_id`.
    pub fn is(&self, player_id: i64) -> bool {
        self.player().is_some_and(|p| p.id == player_id)
    }
}

/// How a move entered a match's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Texted by a player or chosen by a robot.
    Move,
    /// The game's null move, played by the platform (a deadline, a player away).
    Null,
    /// The seat withdrew; the record's notation says how.
    Withdrawal,
}

impl MoveKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MoveKind::Move => "move",
            MoveKind::Null => "null",
            MoveKind::Withdrawal => "withdrawal",
        }
    }
}

impl std::str::FromStr for MoveKind {
    type Err = ();

    fn from_str(s: &str) -> Result<MoveKind, ()> {
        Ok(match s {
            "move" => MoveKind::Move,
            "null" => MoveKind::Null,
            "withdrawal" => MoveKind::Withdrawal,
            _ => return Err(()),
        })
    }
}

/// One entry of a match's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub ply: u32,
    pub seat: usize,
    pub kind: MoveKind,
    pub notation: String,
    /// Played by the platform (a deadline, a player away), not texted.
    pub automatic: bool,
    pub state_after: String,
    /// The generator's position after the move; unknown for moves recorded
    /// before it was kept.
    pub rng_pos: Option<u128>,
}

/// A move to append to a match's record.
#[derive(Clone, Copy, Debug)]
pub struct NewMove<'a> {
    pub seat: usize,
    pub kind: MoveKind,
    pub notation: &'a str,
    pub automatic: bool,
    pub state_after: &'a str,
    pub rng_pos: u128,
}

/// A robot seat's turn, due to be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RobotTurn {
    pub match_id: i64,
    pub seat: usize,
    /// The match's turn counter when it fell due ([`MatchRow::turn`]).
    pub turn: u32,
    pub due_at: DateTime<Utc>,
    /// How many times it has been claimed, this claim included (0 as
    /// queued): a turn claimed again is one whose search failed or whose
    /// instance died before it was played.
    pub attempts: u32,
}

/// One part of a long inbound text, as the provider numbered it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    pub provider: String,
    /// The part's own provider id: each part is taken once by it.
    pub provider_id: String,
    pub from: String,
    /// The provider's reference shared by every part of one text.
    pub reference: String,
    /// `1..=total`.
    pub part: u32,
    pub total: u32,
    pub text: String,
    pub received_at: DateTime<Utc>,
}

/// What became of one part of a long inbound text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartArrival {
    /// The part's own id was taken before: nothing was done.
    Repeat,
    /// Kept; its text waits for more parts. `opened`: it is the first part
    /// of its text to arrive.
    Waiting { opened: bool },
    /// It was the last: the whole text, parts in order, and the id of its
    /// first part, from which the whole text's id is made (the same
    /// whichever part came last).
    Whole { text: String, first_id: String },
}

/// The whole text of parts read in their order, as (part id, body).
pub(crate) fn whole(parts: Vec<(String, String)>) -> PartArrival {
    let first_id = parts.first().map(|(id, _)| id.clone()).unwrap_or_default();
    let text = parts.into_iter().map(|(_, body)| body).collect();
    PartArrival::Whole { text, first_id }
}

/// The last id of the leading run of `(id, received_at)` received before
/// `before` (milliseconds): texts are trimmed in id order, and a text that
/// is not old enough yet stops the walk, so none is ever passed over.
pub(crate) fn oldest_prefix(texts: &[(i64, i64)], before: i64) -> Option<i64> {
    texts
        .iter()
        .take_while(|&&(_, received_at)| received_at < before)
        .last()
        .map(|&(id, _)| id)
}

/// An inbound message as [`Tx::accept_inbound`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// Its provider id was seen before: not to be applied again.
    Duplicate,
    /// Recorded now; the sender's row, when we know the number, as `player_by_phone` gives it.
    New(Option<Player>),
}
