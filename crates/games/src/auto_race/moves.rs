//! A car's move as a player texts it: a path `FFIF`, a number `4`, or `0`.

use std::fmt;
use std::str::FromStr;

use crate::{NotationError, said};

/// Longest path the parser reads; no allowance comes near it.
pub const MAX_PATH: usize = 64;

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `F`: to the next sector, same lane (length 1).
    Forward,
    /// `I`: sideways to the next lane inwards (length 1, rule 7).
    Inner,
    /// `O`: sideways to the next lane outwards (length 3, rule 7).
    Outer,
    /// `N` (nazad) or `B`: backwards. It parses so that the refusal can say
    /// which step it is and why it is not allowed.
    Back,
}

impl Step {
    pub fn letter(self) -> char {
        match self {
            Step::Forward => 'F',
            Step::Inner => 'I',
            Step::Outer => 'O',
            Step::Back => 'N',
        }
    }

    /// What the step adds to the move's length (rule 7).
    pub fn length(self) -> u32 {
        match self {
            Step::Outer => 3,
            _ => 1,
        }
    }

    /// A step letter, in either case; the Cyrillic look-alikes and initials
    /// (Ф F, И I, О O, Н N) count too, since phones switch keyboards.
    fn parse(c: char) -> Option<Step> {
        match c {
            'F' | 'f' | 'Ф' | 'ф' => Some(Step::Forward),
            'I' | 'i' | 'И' | 'и' => Some(Step::Inner),
            'O' | 'o' | 'О' | 'о' => Some(Step::Outer),
            'N' | 'n' | 'Н' | 'н' | 'B' | 'b' => Some(Step::Back),
            _ => None,
        }
    }
}

/// What one text holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Steps in order, 1 to [`MAX_PATH`].
    Path(Vec<Step>),
    /// `n`: `n` steps straight forward (1-99).
    Straight(u8),
    /// `0`: the zero move of rule 8, allowed only when the car cannot move.
    Zero,
}

impl Move {
    /// The steps this move drives (none for the zero move).
    pub fn steps(&self) -> Vec<Step> {
        match self {
            Move::Path(steps) => steps.clone(),
            Move::Straight(n) => vec![Step::Forward; usize::from(*n)],
            Move::Zero => Vec::new(),
        }
    }

    /// A path move from its letters; `None` unless every letter is F, I, O or N.
    pub fn path(letters: &str) -> Option<Move> {
        letters.parse().ok().filter(|m| matches!(m, Move::Path(_)))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Path(steps) => steps.iter().try_for_each(|s| write!(f, "{}", s.letter())),
            Move::Straight(n) => write!(f, "{n}"),
            Move::Zero => f.write_str("0"),
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;

    /// Case and spaces do not matter (`ff if` is `FFIF`); digits are a number
    /// of straight steps, leading zeros allowed; `0` alone is the zero move.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
        if text.is_empty() {
            return Err(NotationError::told(said!("ar-empty-move")));
        }
        if text.iter().all(|c| c.is_ascii_digit()) {
            let digits: String = text.iter().collect();
            let trimmed = digits.trim_start_matches('0');
            return match trimmed.parse::<u8>() {
                _ if trimmed.is_empty() => Ok(Move::Zero),
                Ok(n) if n <= 99 => Ok(Move::Straight(n)),
                _ => Err(NotationError::told(said!(
                    "ar-number-too-big",
                    digits = digits
                ))),
            };
        }
        if text.len() > MAX_PATH {
            return Err(NotationError::told(said!(
                "ar-path-too-long",
                max = MAX_PATH
            )));
        }
        text.iter()
            .enumerate()
            .map(|(i, &c)| {
                Step::parse(c).ok_or_else(|| {
                    NotationError::told(said!("ar-not-a-step", character = c, position = i + 1))
                })
            })
            .collect::<Result<Vec<Step>, _>>()
            .map(Move::Path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_examples() {
        use Step::*;
        assert_eq!(
            "FFIF".parse(),
            Ok(Move::Path(vec![Forward, Forward, Inner, Forward]))
        );
        assert_eq!("ff if".parse(), Ok(Move::path("FFIF").unwrap()));
        assert_eq!("фои".parse(), Ok(Move::path("FOI").unwrap()));
        assert_eq!("4".parse(), Ok(Move::Straight(4)));
        assert_eq!("04".parse(), Ok(Move::Straight(4)));
        assert_eq!("0".parse(), Ok(Move::Zero));
        assert_eq!("00".parse(), Ok(Move::Zero));
        assert_eq!("fn".parse(), Ok(Move::Path(vec![Forward, Back])));
        assert_eq!(Move::Straight(12).to_string(), "12");
        assert_eq!(Move::path("fio").unwrap().to_string(), "FIO");
        assert_eq!(Move::Zero.to_string(), "0");
    }

    #[test]
    fn malformed_moves_are_refused() {
        for text in ["", "  ", "100", "F4", "4F", "FX", "-1", "+2", "F.F", "٣"] {
            assert!(text.parse::<Move>().is_err(), "{text:?} parsed");
        }
        assert!("F".repeat(MAX_PATH).parse::<Move>().is_ok());
        assert!("F".repeat(MAX_PATH + 1).parse::<Move>().is_err());
    }

    #[test]
    fn display_round_trips() {
        for text in ["F", "FFIF", "OOFN", "1", "99", "0", "IIIIO"] {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
    }

    #[test]
    fn steps_and_lengths() {
        assert_eq!(Move::Straight(3).steps(), vec![Step::Forward; 3]);
        assert!(Move::Zero.steps().is_empty());
        let len: u32 = Move::path("FOI")
            .unwrap()
            .steps()
            .iter()
            .map(|s| s.length())
            .sum();
        assert_eq!(len, 5);
    }
}
