//! The match state (position, who attacks which goal, the turns so far, the end) and its state string.
//!
//! State string: `<W>x<L> <top seat> <turns> <mark>`: `turns` are the turns
//! in kurnik digits separated by `,` (the last one may be a bounce chain in
//! progress), `.` when none; `mark` is `-`, or `Q<seat>` / `A<seat>` when a
//! seat resigned / went away. Goals and dead ends follow from the turns.
//! Example: `8x10 0 4,0,13 -`.

use std::fmt;
use std::str::FromStr;

use super::field::{Dir, Field};
use super::moves::{kurnik_string, parse_kurnik};
use super::position::{Block, Position, Side, Step};
use crate::{NotationError, Seat};

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum How {
    Goal,
    OwnGoal,
    DeadEnd,
    Resigned,
    Absent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct End {
    pub winner: Seat,
    pub how: How,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub width: u8,
    pub length: u8,
    /// The seat attacking the top goal (side 0, which moves first).
    pub top: Seat,
    pub pos: Position,
    /// Completed turns, in kurnik directions.
    pub turns: Vec<Vec<Dir>>,
    /// Steps of the turn in progress (a bounce chain).
    pub current: Vec<Dir>,
    pub end: Option<End>,
}

/// A step that could not be played, while replaying.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// The game (or this turn, when `turn_only`) was already over.
    After,
    Blocked(Block),
}

impl State {
    /// The opening on a field of this size (supported, see `field::check_size`).
    pub fn new(width: u8, length: u8, top: Seat) -> State {
        let f = Field::get(width, length).expect("supported field size");
        State {
            width,
            length,
            top,
            pos: Position::start(f),
            turns: Vec::new(),
            current: Vec::new(),
            end: None,
        }
    }

    pub fn field(&self) -> &'static Field {
        Field::get(self.width, self.length).expect("supported field size")
    }

    pub fn seat_of(&self, side: Side) -> Seat {
        if side == 0 { self.top } else { 1 - self.top }
    }

    pub fn side_of(&self, seat: Seat) -> Side {
        if seat == self.top { 0 } else { 1 }
    }

    /// The seat to move (meaningless once the match is over).
    pub fn to_move(&self) -> Seat {
        self.seat_of(self.pos.side)
    }

    /// Whether a bounce chain is in progress.
    pub fn in_chain(&self) -> bool {
        !self.current.is_empty() && self.end.is_none()
    }

    /// Plays one step for the side to move.
    pub fn step(&mut self, d: Dir) -> Result<Step, StepError> {
        if self.end.is_some() {
            return Err(StepError::After);
        }
        let f = self.field();
        if let Some(b) = self.pos.blocked(f, d) {
            return Err(StepError::Blocked(b));
        }
        let mover = self.pos.side;
        let step = self.pos.step(f, d);
        self.current.push(d);
        match step {
            Step::Bounce => {}
            Step::Pass => self.turns.push(std::mem::take(&mut self.current)),
            Step::Goal { winner } => {
                self.turns.push(std::mem::take(&mut self.current));
                self.end = Some(End {
                    winner: self.seat_of(winner),
                    how: if winner == mover {
                        How::Goal
                    } else {
                        How::OwnGoal
                    },
                });
            }
            Step::Stuck => {
                if !self.current.is_empty() {
                    self.turns.push(std::mem::take(&mut self.current));
                }
                self.end = Some(End {
                    winner: self.seat_of(self.pos.side ^ 1),
                    how: How::DeadEnd,
                });
            }
        }
        Ok(step)
    }

    /// Every turn played so far, the one in progress last.
    pub fn tokens(&self) -> Vec<&[Dir]> {
        let mut v: Vec<&[Dir]> = self.turns.iter().map(Vec::as_slice).collect();
        if !self.current.is_empty() {
            v.push(&self.current);
        }
        v
    }

    /// How many steps have been played.
    pub fn steps(&self) -> usize {
        self.turns.iter().map(Vec::len).sum::<usize>() + self.current.len()
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tokens: Vec<String> = self.tokens().iter().map(|t| kurnik_string(t)).collect();
        let moves = if tokens.is_empty() {
            ".".to_string()
        } else {
            tokens.join(",")
        };
        let mark = match self.end {
            Some(End {
                winner,
                how: How::Resigned,
            }) => format!("Q{}", 1 - winner),
            Some(End {
                winner,
                how: How::Absent,
            }) => format!("A{}", 1 - winner),
            _ => "-".into(),
        };
        write!(
            f,
            "{}x{} {} {} {}",
            self.width, self.length, self.top, moves, mark
        )
    }
}

impl FromStr for State {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |m: &str| NotationError::new(format!("bad paper soccer state {s:?}: {m}"));
        let parts: Vec<&str> = s.split(' ').collect();
        let [size, top, moves, mark] = parts[..] else {
            return Err(err("expected 4 fields"));
        };
        let (w, l) = size.split_once('x').ok_or_else(|| err("size"))?;
        let (w, l): (u8, u8) = (
            w.parse().map_err(|_| err("width"))?,
            l.parse().map_err(|_| err("length"))?,
        );
        super::field::check_size(w, l).map_err(|e| err(&e))?;
        let top: Seat = match top {
            "0" => 0,
            "1" => 1,
            _ => return Err(err("top seat")),
        };
        let mut state = State::new(w, l, top);
        if moves != "." {
            let tokens: Vec<&str> = moves.split(',').collect();
            for (i, token) in tokens.iter().enumerate() {
                let dirs = parse_kurnik(token).map_err(|e| err(&e.to_string()))?;
                let before = state.turns.len();
                for d in dirs {
                    if state.turns.len() != before || state.end.is_some() {
                        return Err(err("a turn goes on after its end"));
                    }
                    state.step(d).map_err(|_| err("illegal step"))?;
                }
                if i + 1 < tokens.len() && state.turns.len() == before {
                    return Err(err("a turn stops while the ball must bounce on"));
                }
            }
        }
        match mark {
            "-" => {}
            _ => {
                let (how, seat) = if let Some(rest) = mark.strip_prefix('Q') {
                    (How::Resigned, rest)
                } else if let Some(rest) = mark.strip_prefix('A') {
                    (How::Absent, rest)
                } else {
                    return Err(err("mark"));
                };
                let seat: Seat = match seat {
                    "0" => 0,
                    "1" => 1,
                    _ => return Err(err("mark seat")),
                };
                if state.end.is_some() {
                    return Err(err("withdrawal after the end"));
                }
                state.end = Some(End {
                    winner: 1 - seat,
                    how,
                });
            }
        }
        Ok(state)
    }
}
