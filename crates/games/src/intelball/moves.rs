//! What one text holds: one code or a whole combination, or `U` (undo).

use std::fmt;
use std::str::FromStr;

use super::code::{Code, parse_combo, write_combo};
use crate::NotationError;

/// A text a player (or the robot, or the platform on a missed deadline) sends.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    /// One or more codes, played in order; `-` passes the turn.
    Codes(Combo),
    /// `U`: take back the last code, the last round, or ask for / grant a takeback.
    Undo,
}

/// Codes with the text each was typed as (for refusals); equality and
/// `Display` look at the codes only.
#[derive(Clone, Debug)]
pub struct Combo {
    codes: Vec<Code>,
    typed: Vec<String>,
}

impl PartialEq for Combo {
    fn eq(&self, other: &Self) -> bool {
        self.codes == other.codes
    }
}

impl Combo {
    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// Code `i` as the player typed it (canonical when built from codes).
    pub fn typed(&self, i: usize) -> String {
        self.typed
            .get(i)
            .cloned()
            .unwrap_or_else(|| self.codes.get(i).map(Code::to_string).unwrap_or_default())
    }
}

impl Move {
    /// A move of these codes.
    pub fn codes(codes: Vec<Code>) -> Move {
        let typed = codes.iter().map(Code::to_string).collect();
        Move::Codes(Combo { codes, typed })
    }

    /// `-`: the turn passes (what a missed deadline plays).
    pub fn pass() -> Move {
        Move::codes(vec![Code::End])
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Undo => f.write_str("U"),
            Move::Codes(combo) => f.write_str(&write_combo(&combo.codes)),
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;

    /// `U`, or codes without separators (`B(4,6)>L(4,5)B~L(4,5)>F(1,10)`);
    /// case and spaces are free.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("u") {
            return Ok(Move::Undo);
        }
        let typed = parse_combo(s)?;
        Ok(Move::Codes(Combo {
            codes: typed.iter().map(|t| t.code).collect(),
            typed: typed.into_iter().map(|t| t.text).collect(),
        }))
    }
}
