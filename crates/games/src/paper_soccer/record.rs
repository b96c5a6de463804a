//! Records in the kurnik/PlayOK digit notation: a PGN-like header, then one token of `0`-`7` digits per turn.
//!
//! ```text
//! [Event "SMS paper soccer"]
//! [White "ann"]
//! [Black "bob"]
//! [Field "8x10"]
//! [Result "1-0"]
//! [Termination "goal"]
//!
//! 4 0 13 ... 1-0
//! ```
//!
//! `White` moves first and attacks the top goal; `Result` is `1-0` when
//! White won, `0-1` when Black won, `*` while the game runs. The module has
//! no clock: a `Date` tag comes from the caller like any other tag.

use std::fmt;
use std::str::FromStr;

use super::field::Dir;
use super::moves::{Move, kurnik_string, parse_kurnik};
use super::state::{End, How, State};
use crate::{NotationError, Seat};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Header tags in order (`Event`, `Date`, `White`, `Black`, `Field`, `Result`, ...).
    pub tags: Vec<(String, String)>,
    /// The turns, in kurnik directions (the last may be a chain in progress).
    pub turns: Vec<Vec<Dir>>,
    /// `1-0`, `0-1` or `*`.
    pub result: String,
}

fn how_word(how: How) -> &'static str {
    match how {
        How::Goal => "goal",
        How::OwnGoal => "own goal",
        How::DeadEnd => "dead end",
        How::Resigned => "resigned",
        How::Absent => "absent",
    }
}

impl Record {
    /// The record of `state`. `tags` come first (`Event`, `Date`, `White`,
    /// `Black`: whatever the caller knows); `Field`, `Result` and
    /// `Termination` are added from the state, and `Event` when missing.
    pub fn of_state(state: &State, tags: &[(&str, &str)]) -> Record {
        let mut out: Vec<(String, String)> = Vec::new();
        if !tags.iter().any(|(k, _)| *k == "Event") {
            out.push(("Event".into(), "SMS paper soccer".into()));
        }
        for (k, v) in tags {
            if !matches!(*k, "Field" | "Result" | "Termination") {
                out.push((k.to_string(), v.to_string()));
            }
        }
        out.push(("Field".into(), format!("{}x{}", state.width, state.length)));
        let result = match state.end {
            None => "*".to_string(),
            Some(End { winner, .. }) => if state.side_of(winner) == 0 {
                "1-0"
            } else {
                "0-1"
            }
            .to_string(),
        };
        out.push(("Result".into(), result.clone()));
        if let Some(end) = state.end {
            out.push(("Termination".into(), how_word(end.how).into()));
        }
        Record {
            tags: out,
            turns: state.tokens().iter().map(|t| t.to_vec()).collect(),
            result,
        }
    }

    /// The record of a match from its opening and its turns (each a seat's
    /// whole or partial turn as texted); an illegal turn is an error.
    pub fn of_turns(
        opening: &State,
        turns: &[(Seat, Move)],
        tags: &[(&str, &str)],
    ) -> Result<Record, NotationError> {
        let state = replay(opening, turns)?;
        Ok(Record::of_state(&state, tags))
    }

    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The game the record describes, replayed (the field from its `Field`
    /// tag, 8x10 without one; White on seat 0). A `Termination` of
    /// `resigned`/`absent` ends it as the result says.
    pub fn replay(&self) -> Result<State, NotationError> {
        let (w, l) = match self.tag("Field") {
            Some(size) => {
                let (w, l) = size
                    .split_once('x')
                    .ok_or_else(|| NotationError::new("bad Field tag"))?;
                (
                    w.parse()
                        .map_err(|_| NotationError::new("bad Field width"))?,
                    l.parse()
                        .map_err(|_| NotationError::new("bad Field length"))?,
                )
            }
            None => (8, 10),
        };
        super::field::check_size(w, l).map_err(NotationError::new)?;
        let moves = if self.turns.is_empty() {
            ".".to_string()
        } else {
            self.turns
                .iter()
                .map(|t| kurnik_string(t))
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut state: State = format!("{w}x{l} 0 {moves} -").parse()?;
        if state.end.is_none() && self.result != "*" {
            let winner = if self.result == "1-0" { 0 } else { 1 };
            let how = match self.tag("Termination") {
                Some("absent") => How::Absent,
                _ => How::Resigned,
            };
            state.end = Some(End { winner, how });
        }
        Ok(state)
    }
}

/// Plays `turns` from `opening`.
pub fn replay(opening: &State, turns: &[(Seat, Move)]) -> Result<State, NotationError> {
    let mut state = opening.clone();
    for (i, (seat, mv)) in turns.iter().enumerate() {
        if state.end.is_some() || state.to_move() != *seat {
            return Err(NotationError::new(format!(
                "turn {}: not this seat's move",
                i + 1
            )));
        }
        let before = state.turns.len();
        for &d in &mv.0 {
            if state.end.is_some() || state.turns.len() != before {
                return Err(NotationError::new(format!(
                    "turn {}: goes on after its end",
                    i + 1
                )));
            }
            state
                .step(d)
                .map_err(|_| NotationError::new(format!("turn {}: illegal step", i + 1)))?;
        }
    }
    Ok(state)
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{k} \"{v}\"]")?;
        }
        writeln!(f)?;
        for t in &self.turns {
            write!(f, "{} ", kurnik_string(t))?;
        }
        write!(f, "{}", self.result)
    }
}

impl FromStr for Record {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut tags = Vec::new();
        let mut body = Vec::new();
        for line in s.lines() {
            let line = line.trim();
            if let Some(inner) = line.strip_prefix('[') {
                let inner = inner
                    .strip_suffix(']')
                    .ok_or_else(|| NotationError::new("tag without ]"))?;
                let (k, v) = inner
                    .split_once(' ')
                    .ok_or_else(|| NotationError::new("tag without value"))?;
                let v = v
                    .trim()
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| NotationError::new("tag value not quoted"))?;
                tags.push((k.to_string(), v.to_string()));
            } else {
                body.extend(line.split_whitespace().map(str::to_string));
            }
        }
        let result = body.pop().ok_or_else(|| NotationError::new("no result"))?;
        if !matches!(result.as_str(), "1-0" | "0-1" | "*") {
            return Err(NotationError::new(format!("bad result {result:?}")));
        }
        let turns = body
            .iter()
            .map(|t| parse_kurnik(t))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Record {
            tags,
            turns,
            result,
        })
    }
}
