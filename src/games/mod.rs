//! Pure game rules: every game is a function of (state, seat, move, rng) to a new state.
//!
//! Invariant: nothing under `games/` does I/O, reads a clock, touches a database or
//! imports tokio/sqlx/axum. Randomness comes only from the match's seeded
//! [`MatchRng`], which the platform stores with the match so that a match
//! replays exactly from its seed and its moves.

use std::fmt;
use std::str::FromStr;

pub use crate::lang::Lang;

pub mod any;
pub mod football;

/// The match's random generator: portable and seedable, so a replay on any
/// machine draws the same numbers.
pub type MatchRng = rand_chacha::ChaCha8Rng;

/// A seat at the table, `0..seat_count`. The platform maps seats to players.
pub type Seat = usize;

/// A side of the match (a team in SMS football, a colour in Intelball).
pub type Side = usize;

/// How a finished match ended for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatResult {
    Won,
    Lost,
    Draw,
}

/// Whose move the game waits for, or how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// These seats still owe a move this turn (several at once for
    /// simultaneous team moves; seats whose move is already in are not listed).
    Awaiting(Vec<Seat>),
    /// The match is over; one result per seat, indexed by seat.
    Finished(Vec<SeatResult>),
}

/// What an accepted move did, so the platform knows whom to tell what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The move is recorded but the turn waits for more (a teammate's move,
    /// or the rest of a multi-text turn). Tell the mover only.
    Pending,
    /// The turn resolved: every seat gets its new view.
    Resolved,
}

/// An accepted move: the state after it and what it did.
#[derive(Clone, Debug, PartialEq)]
pub struct Played<S> {
    pub state: S,
    pub effect: Effect,
}

/// A refused move: the state, unchanged, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused<S, R> {
    pub state: S,
    pub reason: R,
}

/// A notation string (state or move) that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NotationError(pub String);

impl NotationError {
    pub fn new(msg: impl Into<String>) -> Self {
        NotationError(msg.into())
    }
}

/// What [`Game::play`] returns: the new state, or the unchanged one and the reason.
pub type PlayResult<G> =
    Result<Played<<G as Game>::State>, Refused<<G as Game>::State, <G as Game>::Refusal>>;

/// Why a move was refused, in words a player reads.
pub trait Reason: fmt::Debug {
    fn text(&self, lang: Lang) -> String;
}

/// The rules of one game. Implementations are pure: no I/O, no clock.
pub trait Game: Send + Sync + 'static {
    /// The state; its `Display` is the state string and round-trips through `FromStr`.
    type State: Clone + fmt::Debug + PartialEq + fmt::Display + FromStr<Err = NotationError>;
    /// One move as a player texts it; `Display` round-trips through `FromStr`.
    type Move: Clone + fmt::Debug + PartialEq + fmt::Display + FromStr<Err = NotationError>;
    /// Why a move is refused.
    type Refusal: Reason;

    /// The code players use in `P <code>` (`FB`, `IB`, ...).
    const CODE: &'static str;

    /// How many seats a match of this game may have.
    fn seat_range(&self) -> std::ops::RangeInclusive<usize>;

    /// Sets up a new match for `seats` players; seat order is the lobby's
    /// order (longest-waiting first) and the game draws sides itself.
    fn start(&self, seats: usize, rng: &mut MatchRng) -> Self::State;

    /// A rematch of a finished match: same players, the game decides how sides change.
    fn rematch(&self, finished: &Self::State, rng: &mut MatchRng) -> Self::State;

    /// Who must move now, or the result.
    fn status(&self, state: &Self::State) -> Status;

    /// The side a seat plays for.
    fn side_of(&self, state: &Self::State, seat: Seat) -> Side;

    /// Applies one seat's move. An illegal move returns the state unchanged inside the error.
    fn play(
        &self,
        state: Self::State,
        seat: Seat,
        mv: &Self::Move,
        rng: &mut MatchRng,
    ) -> PlayResult<Self>;

    /// The move played for a seat that missed its deadline (or is away).
    fn null_move(&self, state: &Self::State, seat: Seat) -> Self::Move;

    /// Ends the match with `seat`'s side losing (resignation, or a side with nobody left).
    fn resign(&self, state: Self::State, seat: Seat) -> Self::State;

    /// The text a seat receives: its view of the board and the status line.
    fn render(&self, state: &Self::State, seat: Seat, lang: Lang) -> String;

    /// Short help on this game's move syntax.
    fn move_help(&self, lang: Lang) -> String;
}
