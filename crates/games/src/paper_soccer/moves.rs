//! The move a text holds: keypad digits (`2`, `3214`), and the kurnik digit form (`0`-`7`).

use std::fmt;
use std::str::FromStr;

use super::field::{Dir, KEYPAD, dir_of_keypad};
use crate::{NotationError, said};

/// One or more steps, in order. `Display` writes keypad digits; `FromStr`
/// reads keypad digits `1-4`, `6-9`, ignoring spaces, and refuses anything
/// else (`5`, `0`, letters, the empty text).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move(pub Vec<Dir>);

impl Move {
    /// The steps as kurnik digits (`0` up, clockwise).
    pub fn kurnik(&self) -> String {
        kurnik_string(&self.0)
    }

    /// Reads kurnik digits `0`-`7` (no spaces), at least one.
    pub fn from_kurnik(s: &str) -> Result<Move, NotationError> {
        parse_kurnik(s).map(Move)
    }
}

/// Directions as kurnik digits.
pub fn kurnik_string(dirs: &[Dir]) -> String {
    dirs.iter().map(|&d| (b'0' + d) as char).collect()
}

/// Kurnik digits `0`-`7` to directions; at least one.
pub fn parse_kurnik(s: &str) -> Result<Vec<Dir>, NotationError> {
    if s.is_empty() {
        return Err(NotationError::new("empty turn"));
    }
    s.bytes()
        .map(|c| match c {
            b'0'..=b'7' => Ok(c - b'0'),
            _ => Err(NotationError::new(format!(
                "not a direction digit 0-7: {:?}",
                c as char
            ))),
        })
        .collect()
}

/// Directions as keypad digits.
pub fn keypad_string(dirs: &[Dir]) -> String {
    dirs.iter().map(|&d| KEYPAD[d as usize] as char).collect()
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&keypad_string(&self.0))
    }
}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut dirs = Vec::new();
        for c in s.chars() {
            if c == ' ' {
                continue;
            }
            let d = u8::try_from(c)
                .ok()
                .and_then(dir_of_keypad)
                .ok_or_else(|| {
                    NotationError::told(said!("ps-not-a-direction", typed = format!("{c:?}")))
                })?;
            dirs.push(d);
        }
        if dirs.is_empty() {
            return Err(NotationError::told(said!("ps-no-direction")));
        }
        Ok(Move(dirs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keypad_digits_map_to_kurnik_directions() {
        let m: Move = "2 3 6 9 8 7 4 1".parse().unwrap();
        assert_eq!(m.0, vec![0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(m.to_string(), "23698741");
        assert_eq!(m.kurnik(), "01234567");
        assert_eq!(Move::from_kurnik("01234567").unwrap(), m);
        for bad in ["", " ", "5", "0", "2a", "22-", "2\n"] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
        for bad in ["", "8", "0 1", "a"] {
            assert!(Move::from_kurnik(bad).is_err(), "{bad:?}");
        }
    }
}
