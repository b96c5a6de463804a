//! Pure game rules: every game is a function of (state, seat, move, rng) to a new state.
//!
//! Invariant: nothing in this crate does I/O, reads a clock, touches a database or
//! knows the platform. Its dependencies (`Cargo.toml`, held to a short list by the
//! service's `tests/service/tidy.rs`) have none of those to offer, so the compiler keeps it so.
//! Randomness comes only from the match's
//! seeded [`MatchRng`], which the platform stores with the match so that a match
//! replays exactly from its seed and its moves. A robot's time budget reaches
//! it through [`Budget`], whose clock the caller supplies.
//!
//! The service re-exports this crate as `smsarena::games`. Adding a game is a
//! folder here (and its `pub mod` below) and a line in the service's catalog.

// `play` gives the unchanged state back inside its error, by design (an
// illegal move changes nothing and loses nothing), so errors are as large as states.
#![allow(clippy::result_large_err)]

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

pub use smsarena_text::lang::Lang;
pub use smsarena_text::locales::Said;
pub use smsarena_text::{said, tr};

pub mod any;
pub mod auto_race;
pub mod football;
pub mod intelball;
pub mod paper_soccer;
pub mod picture;
pub mod settings;
#[cfg(any(test, feature = "trial"))]
pub mod trial;
pub mod word_battle;

/// The match's random generator: portable and seedable, so a replay on any
/// machine draws the same numbers.
pub type MatchRng = rand_chacha::ChaCha8Rng;

/// A seat at the table, `0..seat_count`. The platform maps seats to phones or robots.
pub type Seat = usize;

/// A side of the match (a team in SMS football, a colour in Intelball).
pub type Side = usize;

/// A robot's strength, `1..=3` in every game so far.
pub type Level = u8;

/// How a finished match ended for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SeatResult {
    Won,
    Lost,
    Draw,
}

/// One seat's standing at the end: its place (1 is best; seats that tie share
/// a place) and, in games that count, its score (letters, points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Standing {
    pub place: u8,
    pub score: Option<i64>,
}

impl Standing {
    /// A place without a score.
    pub fn place(place: u8) -> Standing {
        Standing { place, score: None }
    }

    /// Won, lost or drawn, read off every seat's place: a seat won if it is
    /// first and someone is not; all first is a draw.
    pub fn result(standings: &[Standing], seat: Seat) -> SeatResult {
        let all_first = standings.iter().all(|s| s.place == 1);
        match standings[seat].place {
            _ if all_first => SeatResult::Draw,
            1 => SeatResult::Won,
            _ => SeatResult::Lost,
        }
    }
}

/// Whose move the game waits for, or how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// These seats still owe a move this turn: one seat (alternating games, a
    /// race's next car in race order), or several at once (SMS football's
    /// teammates; seats whose move is already in are not listed).
    Awaiting(Vec<Seat>),
    /// The match is over; one standing per seat, indexed by seat.
    Finished(Vec<Standing>),
}

/// What an accepted move did, so the platform knows whom to tell what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The move is in, and the turn waits for other seats (a teammate's move).
    /// Tell the mover only.
    Pending,
    /// The same seat is still to move: a turn that spans several texts (a
    /// paper-soccer bounce chain, an Intelball combination sent code by code).
    /// The mover gets his board again and his deadline starts again.
    Continues,
    /// The turn moved on: every seat gets its new view.
    Resolved,
}

/// Why a seat leaves the play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Withdrawal {
    /// `Q`: the player resigned.
    Resigned,
    /// The player is away: `T`, `STOP`, or too many missed turns. He may come
    /// back (by `P`); a game whose seats can play on by null moves may keep
    /// his seat (SMS football), others end it or drop the seat.
    Absent,
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

/// A notation string (state or move) that does not parse: why, in
/// English for logs and operators, and, where a player may read it, as a
/// catalog message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{en}")]
pub struct NotationError {
    en: String,
    said: Option<Said>,
}

impl NotationError {
    /// A reason for logs and operators; a player reads the game's general
    /// refusal instead.
    pub fn new(msg: impl Into<String>) -> Self {
        NotationError {
            en: msg.into(),
            said: None,
        }
    }

    /// A reason a player reads, from the catalogs.
    pub fn told(said: Said) -> Self {
        NotationError {
            en: said.text(Lang::En),
            said: Some(said),
        }
    }

    /// The reason in a player's language, where the reader gave one for
    /// players (a move reader always does; a state string's reader speaks
    /// to operators only).
    pub fn for_player(&self, lang: Lang) -> Option<String> {
        self.said.as_ref().map(|said| said.text(lang))
    }
}

/// What [`Game::play`] returns: the new state, or the unchanged one and the reason.
pub type PlayResult<G> =
    Result<Played<<G as Game>::State>, Refused<<G as Game>::State, <G as Game>::Refusal>>;

/// Why a move (or an option) was refused, in words a player reads.
pub trait Reason: fmt::Debug {
    fn text(&self, lang: Lang) -> String;
}

impl Reason for Said {
    fn text(&self, lang: Lang) -> String {
        Said::text(self, lang)
    }
}

/// Options after `P <code>` that the game does not accept; the platform
/// answers with this reason and the game's [`Game::options_help`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.english())]
pub struct OptionsError(pub Said);

impl OptionsError {
    /// A reason from the catalogs.
    pub fn told(said: Said) -> OptionsError {
        OptionsError(said)
    }

    /// The reason in English (logs, tests).
    pub fn english(&self) -> String {
        self.0.text(Lang::En)
    }

    /// An option said twice (`BOT 2 BOT 3`).
    pub fn given_twice(word: &str) -> OptionsError {
        OptionsError::told(said!("option-given-twice", word = word))
    }

    /// A word the game does not understand among its options.
    pub fn unknown_word(word: &str) -> OptionsError {
        OptionsError::told(said!("option-unknown", word = word))
    }
}

/// Who takes a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    /// The `n`-th phone of the lobby (0: the one who asked first). Several
    /// seats may name the same phone: one phone plays them all (`P IB HOT`).
    Phone(usize),
    /// A robot of this level, played by the server.
    Robot(Level),
}

/// The seats of a match, as the options set them. The game draws sides
/// itself in [`Game::start`] (knowing which seats are robots from the options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lineup(pub Vec<Occupant>);

impl Lineup {
    /// `n` seats, one phone each.
    pub fn phones(n: usize) -> Lineup {
        Lineup((0..n).map(Occupant::Phone).collect())
    }

    /// A two-seat game: two phones, or the phone on seat 0 against a robot on seat 1.
    pub fn phone_or_robot(robot: Option<Level>) -> Lineup {
        match robot {
            None => Lineup::phones(2),
            Some(level) => Lineup(vec![Occupant::Phone(0), Occupant::Robot(level)]),
        }
    }

    pub fn seats(&self) -> usize {
        self.0.len()
    }

    /// How many phones must be gathered from the lobby before the match starts
    /// (1: it starts at once).
    pub fn phones_needed(&self) -> usize {
        self.0
            .iter()
            .filter_map(|o| match o {
                Occupant::Phone(n) => Some(n + 1),
                Occupant::Robot(_) => None,
            })
            .max()
            .unwrap_or(0)
    }
}

/// A game's options, as a player texts them after `P <code>` (`BOT 2`, `6`,
/// `4 BOT`, `HOT`, a state string). Parsing is case-insensitive and ignores
/// extra spaces; `Display` writes the one canonical form, which parses back
/// and is the lobby's key: `P WB 6` waits for another `P WB 6`. The empty
/// text is the default options.
pub trait GameOptions:
    Clone + fmt::Debug + PartialEq + fmt::Display + FromStr<Err = OptionsError> + Send + Sync
{
    /// Who sits where.
    fn lineup(&self) -> Lineup;
}

/// Reads how long a robot has been thinking. The platform hands in a real
/// clock; tests and replays a frozen one with a node limit.
pub trait Stopwatch {
    fn elapsed_ms(&self) -> u64;
}

/// A stopwatch that never moves: with [`Budget::max_nodes`] the search is deterministic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frozen;

impl Stopwatch for Frozen {
    fn elapsed_ms(&self) -> u64 {
        0
    }
}

/// What a robot may spend on one move.
#[derive(Clone, Copy)]
pub struct Budget<'a> {
    /// Wall-clock allowance; the search must return within it (plus a few ms).
    pub millis: u64,
    pub clock: &'a dyn Stopwatch,
    /// A cap on search nodes (positions visited), whatever the clock says: a
    /// fixed count makes a search deterministic given its seed.
    pub max_nodes: Option<u64>,
}

impl Budget<'_> {
    /// A deterministic budget of `nodes` positions.
    pub fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            millis: u64::MAX,
            clock: &Frozen,
            max_nodes: Some(nodes),
        }
    }

    /// Whether a search that has visited `nodes` positions must stop now.
    pub fn exhausted(&self, nodes: u64) -> bool {
        self.max_nodes.is_some_and(|max| nodes >= max) || self.clock.elapsed_ms() >= self.millis
    }
}

/// How a move entered the match's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded<M> {
    /// A move a player texted or a robot chose.
    Move(M),
    /// The null move the platform played for a seat (a missed deadline, a player away).
    Null(M),
    /// The seat withdrew.
    Withdrawal(Withdrawal),
}

/// The record as the moves' notation, null moves included, separated by
/// spaces: [`Game::history`]'s default, and football's former notation.
pub fn plain_history<G: Game + ?Sized>(entries: &[HistoryEntry<'_, G>]) -> String {
    entries
        .iter()
        .filter_map(|e| match &e.what {
            Recorded::Move(m) | Recorded::Null(m) => Some(m.to_string()),
            Recorded::Withdrawal(_) => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One entry of a match's record, as [`Game::history`] reads it.
pub struct HistoryEntry<'a, G: Game + ?Sized> {
    pub seat: Seat,
    /// Who holds the seat, as the record names him (a nick, `bot2`); empty
    /// where no one is named.
    pub name: &'a str,
    pub what: Recorded<G::Move>,
    /// The state after it.
    pub after: &'a G::State,
}

/// The rules of one game. Implementations are pure: no I/O, no clock.
pub trait Game: Send + Sync + 'static {
    /// The state; its `Display` is the stored state string and round-trips through `FromStr`.
    type State: Clone + fmt::Debug + PartialEq + fmt::Display + FromStr<Err = NotationError> + Send;
    /// What one text holds (a step, a whole bounce chain, a combination, a
    /// word, a path); `Display` round-trips through `FromStr`, which accepts
    /// what players type (case, spaces) and refuses anything else.
    type Move: Clone + fmt::Debug + PartialEq + fmt::Display + FromStr<Err = NotationError> + Send;
    /// Why a move is refused.
    type Refusal: Reason + Send + 'static;
    /// What `P <code> ...` may say.
    type Options: GameOptions;

    /// The code players use in `P <code>` (`FB`, `IB`, ...).
    const CODE: &'static str;

    /// The player's guide (`docs/games/<game>.md`), compiled in: what the
    /// training hall shows beside its button.
    const GUIDE: &'static str;

    /// The options of a practice match: the asking phone against robots of
    /// `level` (one of [`Game::robot_levels`]), as the training hall's
    /// button starts it and the tests that play every game do.
    fn practice(&self, level: Level) -> Self::Options;

    /// The levels its robots play at.
    fn robot_levels(&self) -> RangeInclusive<Level> {
        LEVELS
    }

    /// How results set players against each other (for ratings).
    const CONTEST: Contest = Contest::OneOnOne;

    /// The robots' levels measured against each other (`BENCHMARKS.md`),
    /// from which each level's fixed rating is drawn.
    const LEVEL_RESULTS: &'static [LevelResult] = &[];

    /// The side a seat plays for (a team); default: each seat its own.
    fn side(&self, state: &Self::State, seat: Seat) -> Side {
        let _ = state;
        seat
    }

    /// The game's name for `P ?`.
    fn name(&self, lang: Lang) -> &'static str;

    /// The options' syntax, for `P ?`-style help and for refusals of bad
    /// options: `P WB [5|6|7] [BOT [1-3]] [EN]`. Within one SMS.
    fn options_help(&self, lang: Lang) -> String;

    /// Sets up a new match. The lineup of `options` says how many seats and
    /// which are robots; the game draws sides and positions from `rng`.
    fn start(&self, options: &Self::Options, rng: &mut MatchRng) -> Self::State;

    /// A rematch of a finished match with the same seats: the game decides how
    /// sides change.
    fn rematch(
        &self,
        finished: &Self::State,
        options: &Self::Options,
        rng: &mut MatchRng,
    ) -> Self::State;

    /// How many seats `state` holds (`0..seats` are its seats): a stored
    /// state is checked against its match's seats before anything indexes them.
    fn seats(&self, state: &Self::State) -> usize;

    /// Who must move now, or the standings.
    fn status(&self, state: &Self::State) -> Status;

    /// Applies one seat's move. An illegal move returns the state unchanged
    /// inside the error, and draws nothing from `rng`.
    fn play(
        &self,
        state: Self::State,
        seat: Seat,
        mv: &Self::Move,
        rng: &mut MatchRng,
    ) -> PlayResult<Self>;

    /// Every move `seat` may send now (one step of a multi-text turn counts
    /// as a move); empty when it is not this seat's turn.
    fn legal_moves(&self, state: &Self::State, seat: Seat) -> Vec<Self::Move>;

    /// What a missed deadline plays for `seat` (stand still, pass, the
    /// shortest forward move), or `None` when a missed deadline only brings a
    /// reminder (paper soccer). Also what the platform plays at once for an
    /// awaited seat whose player is away.
    fn null_move(&self, state: &Self::State, seat: Seat) -> Option<Self::Move>;

    /// `seat` withdraws. The game decides what follows: the match ends (its
    /// side loses), the seat plays on by null moves while its player is away
    /// (SMS football, until his whole side is away), or the seat drops out
    /// and the others play on (a race). `absent[s]` tells which seats' players
    /// are away now, this one's included when `why` is `Absent`.
    fn withdraw(
        &self,
        state: Self::State,
        seat: Seat,
        why: Withdrawal,
        absent: &[bool],
    ) -> Self::State;

    /// The text a seat receives: its view of the board and the status line.
    /// Within the game's part limit (3 SMS parts; 2 for auto race).
    fn render(&self, state: &Self::State, seat: Seat, lang: Lang) -> String;

    /// The board `seat` sees, drawn as SVG (see [`picture`]) with the SMS
    /// board's own symbols and labels, for the training hall to show beside
    /// the text; `None` for a game that draws none.
    fn picture(&self, _state: &Self::State, _seat: Seat) -> Option<String> {
        None
    }

    /// Short help on this game's move syntax: one SMS together with the
    /// platform's list of match commands (about 100 characters).
    fn move_help(&self, lang: Lang) -> String;

    /// A robot's move for `seat`, which the game awaits: legal, and the same
    /// for the same state, seat, level, budget and `rng`. A move is what one
    /// text holds, so a robot's whole turn (a bounce chain, a combination) is
    /// one move.
    fn robot_move(
        &self,
        state: &Self::State,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Self::Move;

    /// Turn deadline in seconds, if this game wants one other than the
    /// platform's default.
    fn turn_deadline_secs(&self) -> Option<u64> {
        None
    }

    /// `H`: the match so far in the game's own notation, oldest first. The
    /// platform keeps the tail that fits one text. Default: the moves'
    /// notation, null moves included, separated by spaces.
    fn history(
        &self,
        opening: &Self::State,
        entries: &[HistoryEntry<'_, Self>],
        lang: Lang,
    ) -> String {
        let _ = (opening, lang);
        plain_history(entries)
    }

    /// The record as [`Game::history`] wrote it before its present form, for
    /// a game whose notation changed: an export made then still replays.
    /// Default: it never changed.
    fn former_history(
        &self,
        opening: &Self::State,
        entries: &[HistoryEntry<'_, Self>],
        lang: Lang,
    ) -> Option<String> {
        let _ = (opening, entries, lang);
        None
    }

    /// `H n`, for games whose rules define a public state string: that string
    /// after every step, index `n` for step `n` (0: the opening). All at once:
    /// the line is rebuilt from the whole record, and an export wants every
    /// step (one step at a time made a long match's export quadratic).
    /// Default: the game has no such notation, and `H n` is refused.
    fn state_steps(
        &self,
        opening: &Self::State,
        entries: &[HistoryEntry<'_, Self>],
    ) -> Vec<String> {
        let _ = (opening, entries);
        Vec::new()
    }

    /// Whether `H n` means anything in this game (see [`Game::state_steps`]).
    fn has_state_steps(&self) -> bool {
        false
    }

    /// Reads what follows `P <code>`, knowing the game's settings (the tracks
    /// a race may name, say). Default: the options' own `FromStr`.
    fn parse_options(&self, text: &str) -> Result<Self::Options, OptionsError> {
        text.parse()
    }

    /// For options that start at once with robots: the options of the same
    /// match without robots, whose lobby's waiting players take robots' seats
    /// first (`P AR 4 BOT` seats whoever waits for `P AR 4`), and the options
    /// for `phones` phones in all. Default: robots take every seat offered.
    fn robots_fill(&self, options: &Self::Options) -> Option<Self::Options> {
        let _ = options;
        None
    }

    /// `options` (robots' options whose [`Game::robots_fill`] lobby had
    /// players waiting) for `phones` phones in all.
    fn with_phones(&self, options: &Self::Options, phones: usize) -> Self::Options {
        let _ = phones;
        options.clone()
    }

    /// Who is shown the board after `mover`'s move moved the turn on: `None`
    /// (the default) for every seat; a race tells only the mover and the seat
    /// now on turn, where every car's move would text every player.
    fn audience(&self, state: &Self::State, mover: Seat) -> Option<Vec<Seat>> {
        let _ = (state, mover);
        None
    }

    /// Whether a text whose first word is `word` (as typed) is one of the
    /// platform's commands (`B`, `Q`, `T`, `H`, `P`, `PA`, `S`, `LANG`) while a
    /// player is in this game's match, or goes to [`Game::play`] instead.
    /// `STOP` and `HELP` always go to the platform. Default: the platform's
    /// words, in Latin letters or their Cyrillic look-alikes.
    fn yields_word(&self, word: &str) -> bool {
        let _ = word;
        true
    }
}

/// How a game's results set its players against each other, which decides
/// how they are rated: two sides of one seat each, or teams and fields
/// (SMS football's 2 v 2, a race of up to eight cars).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contest {
    OneOnOne,
    Field,
}

/// A measured result between two robots of a game: `stronger`'s share of
/// the points over `games` games against `weaker` (a win 1, a draw a half),
/// colour-swapped. `None` is the game's yardstick player (auto race's
/// farthest-forward driver), where levels were measured against it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelResult {
    pub stronger: Option<Level>,
    pub weaker: Option<Level>,
    pub score: f64,
    pub games: u32,
}

/// The range of robot levels every game offers.
pub const LEVELS: RangeInclusive<Level> = 1..=3;
