//! The match state and its one-line state string.
//!
//! # State string
//!
//! One line of GSM-safe ASCII: a version tag and eight `key=value` fields,
//! separated by single spaces, always in this order:
//!
//! ```text
//! FB1 sides=AADD board=...23/...../...../..*../.0.1. turn=A moved=0:0 pending=-,-,-,- result=- ricochet=0.25 rounds=10
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `FB1` | format version |
//! | `sides` | one letter per seat 0-3: `A` Attack, `D` Defense (two of each) |
//! | `board` | rows 1 (top) to 5, joined by `/`; `0`-`3` the seat on that cell, `*` the ball, `.` empty |
//! | `turn` | `A` or `D`, the side on turn (must agree with `moved`: Attack when both counts are equal) |
//! | `moved` | resolved turns so far, `attack:defense` |
//! | `pending` | per seat, the move already in for this turn (`3`, `5`, `06`) or `-` |
//! | `result` | `-` still playing, `A` / `D` that side won, `draw` |
//! | `ricochet` | the ricochet probability this match plays with (shortest decimal that round-trips) |
//! | `rounds` | `max_rounds` of this match |
//!
//! Parsing accepts only the canonical text `Display` writes and rejects
//! states the rules cannot reach: a seat or the ball twice or missing (the
//! picture cannot even express two pieces on a cell), sides not two against
//! two, counts out of step or past `rounds`, pending moves of the side not on
//! turn, of both teammates, illegal on the board, or after the end, a goal or
//! an expired clock without a result, a result the board contradicts.

use std::fmt;
use std::str::FromStr;

use super::board::Board;
use super::end::{self, Outcome};
use super::moves::Move;
use super::validate::intent;
use super::{ATTACK, DEFENSE};
use crate::{NotationError, Seat, Side};

/// Version tag that opens every state string.
const TAG: &str = "FB1";

/// Everything about a match: teams, board, turn, pending moves, result, and
/// the settings it was started with (so a replay never reads the config).
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub(super) sides: [Side; 4],
    pub(super) board: Board,
    /// Resolved turns per side, indexed by side.
    pub(super) moved: [u32; 2],
    /// This turn's accepted moves, per seat; only ever for the side on turn.
    pub(super) pending: [Option<Move>; 4],
    pub(super) result: Option<Outcome>,
    pub(super) ricochet: f64,
    pub(super) max_rounds: u32,
}

/// The rules' default ricochet probability (`Football::default`, [`State::from_board`]).
pub const DEFAULT_RICOCHET: f64 = 0.25;
/// The rules' default turns per team before the ten-move rule.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;

impl State {
    /// A fresh match (Attack on turn, nothing moved) on a given position, for
    /// tests and tools. `rows` is the picture of [`Board::from_rows`] (`0`-`3`
    /// seats, `*` ball, `.` empty); `sides` is like the state string's, e.g.
    /// `"AADD"`. Rejects what `FromStr` rejects (e.g. a goal already on the board).
    pub fn from_board(rows: [&str; 5], sides: &str) -> Result<State, NotationError> {
        let state = State {
            sides: parse_sides(sides)?,
            board: Board::from_rows(&rows)?,
            moved: [0, 0],
            pending: [None; 4],
            result: None,
            ricochet: DEFAULT_RICOCHET,
            max_rounds: DEFAULT_MAX_ROUNDS,
        };
        state.check()?;
        Ok(state)
    }

    /// The same state with other settings, checked again.
    pub fn with_settings(mut self, ricochet: f64, max_rounds: u32) -> Result<State, NotationError> {
        self.ricochet = ricochet;
        self.max_rounds = max_rounds;
        self.check()?;
        Ok(self)
    }

    /// The same state after `attack` and `defense` resolved turns, checked again
    /// (the side on turn follows from the counts).
    pub fn with_moved(mut self, attack: u32, defense: u32) -> Result<State, NotationError> {
        self.moved = [attack, defense];
        self.check()?;
        Ok(self)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Side per seat: [`ATTACK`] or [`DEFENSE`].
    pub fn sides(&self) -> [Side; 4] {
        self.sides
    }

    /// The side that moves now: Attack moves first, so it is on turn whenever
    /// both sides have moved equally often.
    pub fn turn(&self) -> Side {
        if self.moved[ATTACK] == self.moved[DEFENSE] {
            ATTACK
        } else {
            DEFENSE
        }
    }

    /// Resolved turns per side.
    pub fn moved(&self) -> [u32; 2] {
        self.moved
    }

    /// The move `seat` has already sent this turn.
    pub fn pending(&self, seat: Seat) -> Option<Move> {
        self.pending.get(seat).copied().flatten()
    }

    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    pub fn ricochet(&self) -> f64 {
        self.ricochet
    }

    pub fn max_rounds(&self) -> u32 {
        self.max_rounds
    }

    /// The two seats of `side`, ascending.
    pub fn seats_of(&self, side: Side) -> [Seat; 2] {
        let mut seats = (0..4).filter(|&s| self.sides[s] == side);
        [seats.next().unwrap_or(0), seats.next().unwrap_or(0)]
    }

    /// Every invariant of a reachable state; `FromStr` and the builders use it.
    pub fn check(&self) -> Result<(), NotationError> {
        self.check_settings()?;
        check_sides(&self.sides)?;
        self.board.check().map_err(NotationError::new)?;
        self.check_counts()?;
        self.check_pending()?;
        self.check_result()
    }

    fn check_settings(&self) -> Result<(), NotationError> {
        if !(0.0..=1.0).contains(&self.ricochet) {
            return Err(NotationError::new(format!(
                "ricochet {} is not a probability",
                self.ricochet
            )));
        }
        if self.max_rounds == 0 {
            return Err(NotationError::new("rounds must be at least 1"));
        }
        Ok(())
    }

    fn check_counts(&self) -> Result<(), NotationError> {
        let [a, d] = self.moved;
        if a != d && a != d + 1 {
            return Err(NotationError::new(format!(
                "moved {a}:{d}: Attack moves first, then the sides alternate"
            )));
        }
        if a > self.max_rounds {
            return Err(NotationError::new(format!(
                "moved {a}:{d} is past rounds={}",
                self.max_rounds
            )));
        }
        Ok(())
    }

    fn check_pending(&self) -> Result<(), NotationError> {
        let mut count = 0;
        for seat in 0..4 {
            let Some(mv) = self.pending[seat] else {
                continue;
            };
            if self.result.is_some() {
                return Err(NotationError::new("a finished match has no pending moves"));
            }
            if self.sides[seat] != self.turn() {
                return Err(NotationError::new(format!(
                    "seat {seat} has a pending move but is not on turn"
                )));
            }
            if intent(&self.board, seat, mv).is_err() {
                return Err(NotationError::new(format!(
                    "seat {seat}'s pending move {mv} is illegal here"
                )));
            }
            count += 1;
        }
        if count == 2 {
            return Err(NotationError::new(
                "both moves are in, so the turn should have been resolved",
            ));
        }
        Ok(())
    }

    fn check_result(&self) -> Result<(), NotationError> {
        let verdict = end::verdict(&self.board, &self.sides, self.moved, self.max_rounds);
        match (self.result, verdict) {
            (None, None) => Ok(()),
            (None, Some(_)) => Err(NotationError::new(
                "the match is decided on the board but has no result",
            )),
            (Some(r), Some(v)) if r != v => {
                Err(NotationError::new("the result contradicts the board"))
            }
            // Without a verdict only a resignation can have ended the match.
            (Some(Outcome::Draw), None) => {
                Err(NotationError::new("a draw needs the ten-move rule"))
            }
            (Some(_), _) => Ok(()),
        }
    }
}

fn side_letter(side: Side) -> char {
    if side == ATTACK { 'A' } else { 'D' }
}

fn parse_side(text: &str) -> Result<Side, NotationError> {
    match text {
        "A" => Ok(ATTACK),
        "D" => Ok(DEFENSE),
        _ => Err(NotationError::new(format!(
            "side {text:?} is neither A nor D"
        ))),
    }
}

fn parse_sides(text: &str) -> Result<[Side; 4], NotationError> {
    let &[a, b, c, d] = text.as_bytes() else {
        return Err(NotationError::new(format!(
            "sides {text:?} must name 4 seats"
        )));
    };
    let side = |letter: u8| match letter {
        b'A' => Ok(ATTACK),
        b'D' => Ok(DEFENSE),
        _ => Err(NotationError::new(format!(
            "side {:?} is neither A nor D",
            char::from(letter).to_string()
        ))),
    };
    let sides = [side(a)?, side(b)?, side(c)?, side(d)?];
    check_sides(&sides)?;
    Ok(sides)
}

fn check_sides(sides: &[Side; 4]) -> Result<(), NotationError> {
    let attackers = sides.iter().filter(|&&s| s == ATTACK).count();
    let all_known = sides.iter().all(|&s| s == ATTACK || s == DEFENSE);
    if attackers != 2 || !all_known {
        return Err(NotationError::new(
            "sides must be two Attack and two Defense",
        ));
    }
    Ok(())
}

fn parse_result(text: &str) -> Result<Option<Outcome>, NotationError> {
    match text {
        "-" => Ok(None),
        "draw" => Ok(Some(Outcome::Draw)),
        _ => parse_side(text).map(|s| Some(Outcome::Won(s))),
    }
}

fn parse_pending(text: &str) -> Result<[Option<Move>; 4], NotationError> {
    let mut entries = split_at(text, b',');
    let mut pending = [None; 4];
    for slot in &mut pending {
        let entry = entries
            .next()
            .ok_or_else(|| NotationError::new(format!("pending {text:?} must list 4 seats")))?;
        if entry != "-" {
            *slot = Some(entry.parse()?);
        }
    }
    if entries.next().is_some() {
        return Err(NotationError::new(format!(
            "pending {text:?} must list 4 seats"
        )));
    }
    Ok(pending)
}

fn parse_moved(text: &str) -> Result<[u32; 2], NotationError> {
    let (a, d) = text
        .split_once(':')
        .ok_or_else(|| NotationError::new(format!("moved {text:?} is not attack:defense")))?;
    Ok([count(a, "moved")?, count(d, "moved")?])
}

/// `text` cut at every `separator`, as `str::split` cuts it. A byte loop:
/// the state's fields are a few bytes each, too short for the searcher's
/// set-up to pay, and the state is read before every move.
fn split_at(text: &str, separator: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.bytes().position(|b| b == separator) {
            Some(at) => {
                rest = Some(&current[at + 1..]);
                Some(&current[..at])
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// A count in the one form `Display` writes it: digits, no leading zero
/// ([`canonical`] without writing the number back out).
fn count(text: &str, what: &str) -> Result<u32, NotationError> {
    let plain = text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    plain
        .then(|| text.parse().ok())
        .flatten()
        .ok_or_else(|| NotationError::new(format!("{what} {text:?} is not a plain number")))
}

/// Parses a number only in the exact form `Display` writes it, so that a
/// state string has a single spelling (no `+1`, `010`, `1e-1`, `inf`).
fn canonical<T: FromStr + fmt::Display>(text: &str, what: &str) -> Result<T, NotationError> {
    text.parse::<T>()
        .ok()
        .filter(|v| v.to_string() == text)
        .ok_or_else(|| NotationError::new(format!("{what} {text:?} is not a plain number")))
}

impl fmt::Display for State {
    // Built in one string and written once, with the formatter's machinery
    // only for the board and the ricochet: a match's state is written out
    // after every move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        let mut text = String::with_capacity(112);
        text.push_str(TAG);
        text.push_str(" sides=");
        text.extend(self.sides.iter().map(|&side| side_letter(side)));
        write!(text, " board={}", self.board)?;
        text.push_str(" turn=");
        text.push(side_letter(self.turn()));
        text.push_str(" moved=");
        text.push_str(itoa::Buffer::new().format(self.moved[ATTACK]));
        text.push(':');
        text.push_str(itoa::Buffer::new().format(self.moved[DEFENSE]));
        text.push_str(" pending=");
        for (i, pending) in self.pending.iter().enumerate() {
            if i > 0 {
                text.push(',');
            }
            match pending {
                Some(m) => write!(text, "{m}")?,
                None => text.push('-'),
            }
        }
        text.push_str(" result=");
        match self.result {
            None => text.push('-'),
            Some(Outcome::Won(side)) => text.push(side_letter(side)),
            Some(Outcome::Draw) => text.push_str("draw"),
        }
        write!(text, " ricochet={}", self.ricochet)?;
        text.push_str(" rounds=");
        text.push_str(itoa::Buffer::new().format(self.max_rounds));
        f.write_str(&text)
    }
}

/// The state string's fields after the tag, in order.
const KEYS: [&str; 8] = [
    "sides", "board", "turn", "moved", "pending", "result", "ricochet", "rounds",
];

impl FromStr for State {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut tokens = split_at(s, b' ');
        if tokens.next() != Some(TAG) {
            return Err(NotationError::new(format!(
                "a football state starts with {TAG}"
            )));
        }
        let mut values = [""; 8];
        for (key, value) in KEYS.iter().zip(values.iter_mut()) {
            let token = tokens
                .next()
                .ok_or_else(|| NotationError::new(format!("the state has no {key}= field")))?;
            *value = token
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
                .ok_or_else(|| {
                    NotationError::new(format!("expected {key}=..., found {token:?}"))
                })?;
        }
        if tokens.next().is_some() {
            return Err(NotationError::new("the state has text after rounds="));
        }
        let [sides, board, turn, moved, pending, result, ricochet, rounds] = values;
        let rows = board.bytes().filter(|&b| b == b'/').count() + 1;
        if rows != 5 {
            return Err(NotationError::new(format!(
                "the board needs 5 rows, got {rows}"
            )));
        }
        let mut cut = split_at(board, b'/');
        let picture: [&str; 5] = std::array::from_fn(|_| cut.next().unwrap_or_default());
        let state = State {
            sides: parse_sides(sides)?,
            board: Board::from_rows(&picture)?,
            moved: parse_moved(moved)?,
            pending: parse_pending(pending)?,
            result: parse_result(result)?,
            ricochet: canonical(ricochet, "ricochet")?,
            max_rounds: count(rounds, "rounds")?,
        };
        if parse_side(turn)? != state.turn() {
            return Err(NotationError::new(format!(
                "turn={turn} disagrees with moved={moved}"
            )));
        }
        state.check()?;
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str = "FB1 sides=AADD board=...23/...../...../..*../.0.1. turn=A moved=0:0 pending=-,-,-,- result=- ricochet=0.25 rounds=10";

    #[test]
    fn the_documented_example_round_trips() {
        let state: State = OPENING.parse().unwrap();
        assert_eq!(
            state,
            State::from_board(["...23", ".....", ".....", "..*..", ".0.1."], "AADD").unwrap()
        );
        assert_eq!(state.to_string(), OPENING);
        assert_eq!(state.turn(), ATTACK);
        assert_eq!(state.seats_of(DEFENSE), [2, 3]);
    }

    #[test]
    fn varied_states_round_trip() {
        for text in [
            "FB1 sides=DADA board=...23/...../...../..*../.0.1. turn=D moved=3:2 pending=06,-,-,- result=- ricochet=1 rounds=10",
            "FB1 sides=ADDA board=...23/...../...../..*../.0.1. turn=A moved=1:1 pending=3,-,-,- result=- ricochet=0 rounds=2",
            "FB1 sides=AADD board=...23/...../...../..*../.0.1. turn=A moved=4:4 pending=-,-,-,- result=D ricochet=0.1 rounds=7",
            "FB1 sides=AADD board=..*.3/...0./...../..2../...1. turn=D moved=5:4 pending=-,-,-,- result=A ricochet=0.25 rounds=10",
            "FB1 sides=AADD board=....3/...0./..*../..2../...1. turn=A moved=10:10 pending=-,-,-,- result=draw ricochet=0.25 rounds=10",
            "FB1 sides=AADD board=....3/...0./...../..2*./...1. turn=A moved=2:2 pending=-,-,-,- result=- ricochet=0.25 rounds=10",
        ] {
            let state: State = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(state.to_string(), text);
        }
    }

    #[test]
    fn malformed_and_impossible_states_are_refused() {
        let cases: [(&str, &str); 27] = [
            ("", "empty"),
            ("FB2 sides=AADD", "wrong tag"),
            (
                "FB1 sides=AADD board=...23/...../...../..*../.0.1.",
                "truncated",
            ),
            (&format!("{OPENING} "), "trailing space"),
            (&OPENING.replace(" sides", "  sides"), "double space"),
            (
                &OPENING.replace("sides=AADD", "sides=AAAD"),
                "three attackers",
            ),
            (&OPENING.replace("sides=AADD", "sides=AAD"), "three seats"),
            (&OPENING.replace("sides=AADD", "sides=AADX"), "unknown side"),
            (&OPENING.replace("sides=", "teams="), "wrong key"),
            (
                &OPENING.replace("...23/", "...22/"),
                "seat 2 twice, seat 3 missing",
            ),
            (&OPENING.replace("..*..", "..**."), "two balls"),
            (&OPENING.replace("..*..", "....."), "no ball"),
            (&OPENING.replace("/.0.1.", "/.0.1"), "short row"),
            (&OPENING.replace("/.0.1.", ""), "four rows"),
            (&OPENING.replace("..*..", "..*x."), "unknown piece"),
            (
                &OPENING.replace("turn=A", "turn=D"),
                "turn disagrees with counts",
            ),
            (&OPENING.replace("moved=0:0", "moved=0:1"), "defense ahead"),
            (
                &OPENING.replace("moved=0:0", "moved=3:1"),
                "attack two ahead",
            ),
            (
                &OPENING.replace("moved=0:0 ", "moved=11:11 "),
                "past rounds",
            ),
            (
                &OPENING.replace("moved=0:0", "moved=00:0"),
                "non-canonical count",
            ),
            (
                &OPENING.replace("pending=-,-,-,-", "pending=-,-,2,-"),
                "defense pending on attack's turn",
            ),
            (
                &OPENING.replace("pending=-,-,-,-", "pending=8,-,-,-"),
                "illegal pending move",
            ),
            (
                &OPENING.replace("pending=-,-,-,-", "pending=2,5,-,-"),
                "both pending",
            ),
            (
                &OPENING.replace("pending=-,-,-,-", "pending=-,-,-"),
                "three pending",
            ),
            (
                &OPENING.replace("result=-", "result=draw"),
                "draw without the clock",
            ),
            (
                &OPENING.replace("ricochet=0.25", "ricochet=1.5"),
                "ricochet above 1",
            ),
            (&OPENING.replace("rounds=10", "rounds=0"), "zero rounds"),
        ];
        for (text, why) in cases {
            assert!(text.parse::<State>().is_err(), "{why}: {text}");
        }
        for bad_number in ["inf", "NaN", "+0.5", "0.250", "1e-1", "-0.5", ".5"] {
            let text = OPENING.replace("ricochet=0.25", &format!("ricochet={bad_number}"));
            assert!(text.parse::<State>().is_err(), "{bad_number}");
        }
    }

    #[test]
    fn results_must_agree_with_the_board() {
        // Attack stands next to a ball on row 1: that is a goal, so it must be recorded.
        let goal = "FB1 sides=AADD board=..*.3/...0./...../..2../...1. turn=D moved=5:4 pending=-,-,-,- result=- ricochet=0.25 rounds=10";
        assert!(goal.parse::<State>().is_err());
        assert!(
            goal.replace("result=-", "result=D")
                .parse::<State>()
                .is_err()
        );
        assert!(
            goal.replace("result=-", "result=A")
                .parse::<State>()
                .is_ok()
        );
        // The clock has run out: the ten-move verdict (ball on row 4: Defense).
        let clock = "FB1 sides=AADD board=....3/...0./...../..2*./...1. turn=A moved=10:10 pending=-,-,-,- result=D ricochet=0.25 rounds=10";
        assert!(clock.parse::<State>().is_ok());
        assert!(
            clock
                .replace("result=D", "result=A")
                .parse::<State>()
                .is_err()
        );
        assert!(
            clock
                .replace("result=D", "result=-")
                .parse::<State>()
                .is_err()
        );
        // A resignation: any win, no pending moves after it.
        let resigned = OPENING.replace("result=-", "result=D");
        assert!(resigned.parse::<State>().is_ok());
        assert!(
            resigned
                .replace("pending=-,-,-,-", "pending=5,-,-,-")
                .parse::<State>()
                .is_err()
        );
    }

    #[test]
    fn builders_check_too() {
        let rows = ["...23", ".....", ".....", "..*..", ".0.1."];
        assert!(State::from_board(rows, "AAD").is_err());
        assert!(
            State::from_board(["..*23", ".0...", ".....", ".....", "...1."], "AADD").is_err(),
            "goal already on board"
        );
        let state = State::from_board(rows, "DDAA").unwrap();
        assert!(state.clone().with_settings(2.0, 10).is_err());
        assert!(state.clone().with_settings(f64::NAN, 10).is_err());
        assert!(state.clone().with_settings(0.5, 0).is_err());
        assert!(state.clone().with_moved(4, 5).is_err());
        let later = state
            .with_settings(0.5, 3)
            .unwrap()
            .with_moved(3, 2)
            .unwrap();
        assert_eq!(later.turn(), DEFENSE);
        assert_eq!(later.to_string().parse::<State>().unwrap(), later);
    }
}
