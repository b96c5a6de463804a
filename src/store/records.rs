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
