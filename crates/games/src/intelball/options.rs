//! What `P IB ...` may say: nothing (two phones), `BOT [1-3]`, `HOT`, and a
//! state string to start from (`BOT 2 _S(0)_X()_L(...)...`).

use std::fmt;
use std::str::FromStr;

use super::position::Position;
use crate::{GameOptions, Level, Lineup, Occupant, OptionsError, said};

/// The robot's level when `BOT` names none.
pub const DEFAULT_LEVEL: Level = 2;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Two phones, drawn at random to Blue and Red.
    Duel,
    /// The phone (Blue, seat 0) against the robot of this level.
    Bot(Level),
    /// One phone plays both sides.
    Hot,
}

/// Parsed options: who plays, and the position to start from (the opening if none).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub kind: Kind,
    pub start: Option<Position>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            kind: Kind::Duel,
            start: None,
        }
    }
}

impl GameOptions for Options {
    fn lineup(&self) -> Lineup {
        match self.kind {
            Kind::Duel => Lineup::phones(2),
            Kind::Bot(level) => Lineup(vec![Occupant::Phone(0), Occupant::Robot(level)]),
            Kind::Hot => Lineup(vec![Occupant::Phone(0), Occupant::Phone(0)]),
        }
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.kind {
            Kind::Duel => String::new(),
            Kind::Bot(level) => format!("BOT {level}"),
            Kind::Hot => "HOT".to_string(),
        };
        match (&self.start, kind.is_empty()) {
            (None, _) => f.write_str(&kind),
            (Some(pos), true) => write!(f, "{pos}"),
            (Some(pos), false) => write!(f, "{kind} {pos}"),
        }
    }
}

impl FromStr for Options {
    type Err = OptionsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let mut rest = &words[..];
        let mut kind = Kind::Duel;
        if let Some(first) = rest.first() {
            if first.eq_ignore_ascii_case("BOT") {
                kind = Kind::Bot(DEFAULT_LEVEL);
                rest = &rest[1..];
                if let Some(word) = rest
                    .first()
                    .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
                {
                    match word.parse::<Level>() {
                        Ok(level @ 1..=3) => kind = Kind::Bot(level),
                        _ => {
                            return Err(OptionsError::told(said!("ib-robot-level", word = *word)));
                        }
                    }
                    rest = &rest[1..];
                }
            } else if first.eq_ignore_ascii_case("HOT") {
                kind = Kind::Hot;
                rest = &rest[1..];
            }
        }
        let start = match rest.first() {
            None => None,
            Some(word) if word.starts_with('_') => {
                let text = without_stray_close(&rest.concat());
                // The state reader's reasons are English, for operators: the
                // English text gives them, the Russian one only says the
                // string is wrong rather than mix the languages.
                let pos: Position = text.parse().map_err(|e: crate::NotationError| {
                    OptionsError::told(said!("ib-bad-state", reason = e.to_string()))
                })?;
                Some(pos)
            }
            Some(word) => return Err(OptionsError::unknown_word(word)),
        };
        Ok(Options { kind, start })
    }
}

/// The original prints its opening line with one `)` too many at the end;
/// a player pastes it as printed. A state string whose only fault is closing
/// parentheses that close nothing at its very end is read without them
/// (stored states are never written so, and are read strictly).
fn without_stray_close(text: &str) -> String {
    let opened = text.matches('(').count();
    let mut text = text.to_string();
    while text.ends_with(')') && text.matches(')').count() > opened {
        text.pop();
    }
    text
}
