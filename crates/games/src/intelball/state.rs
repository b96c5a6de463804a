//! The stored state: the public position plus what undo and the platform
//! need, as one line.
//!
//! ```text
//! <public state string>_M(2L)_E(90)_A(-)_Q(-)_Y(<public state string>)_Z(<combination>/<combination>)
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `_M` | `2L`/`2R` two phones (seat 0 plays Blue/Red), `BOT` seat 0 Blue against the robot, `HOT` one phone |
//! | `_E` | the time at which the match ends (the config's `T = 90`, copied at start) |
//! | `_A` | `-`, or the seat (0/1) that asked for a takeback |
//! | `_Q` | `-`; the side (`L`/`R`) that resigned; `LT`/`RT` the side that ran out of time (away); `X` one phone (`HOT`) stopped the match (no winner) |
//! | `_Y` | the base: the position at the start of the oldest turn undo can reach |
//! | `_Z` | the codes played from the base to the start of the current turn, one turn each (at most two), `/` between |
//!
//! Playing `_Z` and then the codes of the combination in progress (those
//! not already in the base) from `_Y` must give the public position exactly;
//! parsing checks that by replaying them through the rules.

use std::fmt;
use std::str::FromStr;

use super::board::{BLUE, RED, other};
use super::code::{Code, parse_codes, write_combo};
use super::position::Position;
use super::reader::{Reader, number};
use super::rules::Stepped;
use crate::{NotationError, Seat, Side};

/// How a match ended before its time: a side left it, or the one phone
/// playing both stopped it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Left {
    Resigned(Side),
    /// Away past its deadlines: the platform withdrew it.
    TimedOut(Side),
    /// One phone (`HOT`) resigned: it plays both sides, so nobody won.
    Stopped,
}

impl Left {
    /// The side that lost by leaving, if any.
    pub fn loser(self) -> Option<Side> {
        match self {
            Left::Resigned(side) | Left::TimedOut(side) => Some(side),
            Left::Stopped => None,
        }
    }
}

/// Who plays: decides what `U` does after a turn has passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Two phones; the side of seat 0 (seat 1 has the other).
    Duel { seat0: Side },
    /// Seat 0 (Blue) against the robot (seat 1, Red).
    Bot,
    /// One phone plays both sides (seat 0 Blue, seat 1 Red).
    Hot,
}

/// The default end of a match: `T = 90`.
pub const DEFAULT_LIMIT: u32 = 90;

/// A match: position, players, settings, undo history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) pos: Position,
    pub(super) mode: Mode,
    /// The match ends when `T` reaches this.
    pub(super) limit: u32,
    /// The seat that asked for a takeback (two phones only).
    pub(super) asked: Option<Seat>,
    pub(super) left: Option<Left>,
    pub(super) base: Position,
    /// The codes played from `base`, one completed turn each (at most 2).
    pub(super) done: Vec<Vec<Code>>,
}

impl State {
    /// A new match on `pos` (no undo history yet).
    pub fn new(pos: Position, mode: Mode, limit: u32) -> State {
        State {
            base: pos.clone(),
            pos,
            mode,
            limit: limit.max(1),
            asked: None,
            left: None,
            done: Vec::new(),
        }
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    pub fn asked(&self) -> Option<Seat> {
        self.asked
    }

    /// How the match ended before its time, if it did.
    pub fn left(&self) -> Option<Left> {
        self.left
    }

    /// The public state string (the seed's format).
    pub fn public(&self) -> String {
        self.pos.to_string()
    }

    pub fn finished(&self) -> bool {
        self.left.is_some() || self.pos.time >= self.limit
    }

    /// The side `seat` plays.
    pub fn side_of(&self, seat: Seat) -> Side {
        match self.mode {
            Mode::Duel { seat0 } if seat == 0 => seat0,
            Mode::Duel { seat0 } => other(seat0),
            Mode::Bot | Mode::Hot => {
                if seat == 0 {
                    BLUE
                } else {
                    RED
                }
            }
        }
    }

    /// The seat of `side`.
    pub fn seat_of(&self, side: Side) -> Seat {
        usize::from(self.side_of(0) != side)
    }

    /// The codes of the combination in progress played since the base (the
    /// ones undo can take back).
    pub fn tail(&self) -> &[Code] {
        let current = self.pos.current();
        if self.done.is_empty() {
            &current[self.base.current().len().min(current.len())..]
        } else {
            current
        }
    }

    /// The position after the base, the first `turns` turns of `done`, then `extra`.
    pub(super) fn replay(&self, turns: usize, extra: &[Code]) -> Result<Position, NotationError> {
        let mut pos = self.base.clone();
        for (t, combo) in self.done.iter().take(turns).enumerate() {
            if pos.time >= self.limit {
                return Err(NotationError::new(format!(
                    "_Z turn {} comes after the end",
                    t + 1
                )));
            }
            for (i, code) in combo.iter().enumerate() {
                let last = i + 1 == combo.len();
                match pos.play(code) {
                    Ok(Stepped::Ends(_)) if last => {}
                    Ok(Stepped::Continues) if !last => {}
                    Ok(_) => {
                        return Err(NotationError::new(format!(
                            "_Z turn {}: the turn does not end at its last code",
                            t + 1
                        )));
                    }
                    Err(why) => {
                        return Err(NotationError::new(format!(
                            "_Z turn {} code {code}: {}",
                            t + 1,
                            why.text(crate::Lang::En)
                        )));
                    }
                }
            }
        }
        for code in extra {
            match pos.play(code) {
                Ok(Stepped::Continues) => {}
                _ => {
                    return Err(NotationError::new(format!(
                        "the combination in progress does not replay at {code}"
                    )));
                }
            }
        }
        Ok(pos)
    }

    /// Every invariant of the stored fields against the position.
    fn check(&self) -> Result<(), NotationError> {
        if self.done.len() > 2 {
            return Err(NotationError::new("_Z keeps at most two turns"));
        }
        if self.pos.time > self.limit {
            return Err(NotationError::new(format!(
                "time {} is past the end {}",
                self.pos.time, self.limit
            )));
        }
        if self.done.is_empty() && !self.pos.current().starts_with(self.base.current()) {
            return Err(NotationError::new("_Y is not the start of this position"));
        }
        if self.replay(self.done.len(), self.tail())? != self.pos {
            return Err(NotationError::new("_Y and _Z do not lead to this position"));
        }
        if let Some(seat) = self.asked {
            if seat > 1 || !matches!(self.mode, Mode::Duel { .. }) {
                return Err(NotationError::new(
                    "_A: only a seat 0 or 1 of a two-phone match can ask",
                ));
            }
            if self.finished() || self.takeback_turns(seat).is_none() {
                return Err(NotationError::new(
                    "_A: there is nothing that seat could take back",
                ));
            }
        }
        Ok(())
    }

    /// How many turns a takeback asked by `seat` undoes: his last turn if the
    /// other side is on turn, else his last round (two turns); `None` when
    /// the history does not reach back that far or he is mid-combination.
    pub fn takeback_turns(&self, seat: Seat) -> Option<usize> {
        let turns = if self.side_of(seat) == self.pos.turn {
            if !self.pos.current().is_empty() {
                return None;
            }
            2
        } else {
            1
        };
        (self.done.len() >= turns).then_some(turns)
    }
}

fn write_mode(mode: Mode) -> &'static str {
    match mode {
        Mode::Duel { seat0 } if seat0 == BLUE => "2L",
        Mode::Duel { .. } => "2R",
        Mode::Bot => "BOT",
        Mode::Hot => "HOT",
    }
}

fn write_left(left: Option<Left>) -> &'static str {
    let letter = |s: Side| s == BLUE;
    match left {
        None => "-",
        Some(Left::Resigned(s)) if letter(s) => "L",
        Some(Left::Resigned(_)) => "R",
        Some(Left::TimedOut(s)) if letter(s) => "LT",
        Some(Left::TimedOut(_)) => "RT",
        Some(Left::Stopped) => "X",
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let asked = self.asked.map_or("-".to_string(), |s| s.to_string());
        let done: Vec<String> = self.done.iter().map(|c| write_combo(c)).collect();
        write!(
            f,
            "{}_M({})_E({})_A({asked})_Q({})_Y({})_Z({})",
            self.pos,
            write_mode(self.mode),
            self.limit,
            write_left(self.left),
            self.base,
            done.join("/")
        )
    }
}

fn read_left(text: &str) -> Result<Option<Left>, NotationError> {
    Ok(Some(match text {
        "-" => return Ok(None),
        "L" => Left::Resigned(BLUE),
        "R" => Left::Resigned(RED),
        "LT" => Left::TimedOut(BLUE),
        "RT" => Left::TimedOut(RED),
        "X" => Left::Stopped,
        _ => {
            return Err(NotationError::new(format!(
                "_Q must be -, L, R, LT, RT or X, not {text:?}"
            )));
        }
    }))
}

impl FromStr for State {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut reader = Reader::new(s);
        let pos = Position::read(&mut reader)?;
        let mode = match reader.field("M")?.as_str() {
            "2L" => Mode::Duel { seat0: BLUE },
            "2R" => Mode::Duel { seat0: RED },
            "BOT" => Mode::Bot,
            "HOT" => Mode::Hot,
            other => {
                return Err(NotationError::new(format!(
                    "_M must be 2L, 2R, BOT or HOT, not {other:?}"
                )));
            }
        };
        let limit = number(&reader.field("E")?, "_E")?;
        if limit == 0 {
            return Err(NotationError::new("_E must be at least 1"));
        }
        let asked = match reader.field("A")?.as_str() {
            "-" => None,
            "0" => Some(0),
            "1" => Some(1),
            other => {
                return Err(NotationError::new(format!(
                    "_A must be -, 0 or 1, not {other:?}"
                )));
            }
        };
        let left = read_left(&reader.field("Q")?)?;
        if left == Some(Left::Stopped) && mode != Mode::Hot {
            return Err(NotationError::new(
                "_Q(X), a match one phone stopped, needs _M(HOT)",
            ));
        }
        let base: Position = reader
            .field("Y")?
            .parse()
            .map_err(|e: NotationError| NotationError::new(format!("_Y: {e}")))?;
        let z = reader.field("Z")?;
        let done = if z.is_empty() {
            Vec::new()
        } else {
            z.split('/')
                .map(parse_codes)
                .collect::<Result<Vec<_>, _>>()?
        };
        reader.end()?;
        let state = State {
            pos,
            mode,
            limit,
            asked,
            left,
            base,
            done,
        };
        state.check()?;
        Ok(state)
    }
}
