//! A move as a player texts it: `1`-`4`/`6`-`9` step or kick, `5` stand, `0d` push.

use std::fmt;
use std::str::FromStr;

use super::board::Dir;
use crate::{NotationError, said};

/// A keypad digit `1..=9`, as written after the `0` of a push. Any digit
/// parses; whether the push can be played is decided at validation (the
/// rules give pushes in 1/3/5/7/9 the "cannot move the ball" error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(u8);

impl Key {
    /// The key for digit `d`, if `d` is 1-9.
    pub fn new(d: u8) -> Option<Key> {
        (1..=9).contains(&d).then_some(Key(d))
    }

    pub fn digit(self) -> u8 {
        self.0
    }

    /// The direction of this key; `5` has none.
    pub fn dir(self) -> Option<Dir> {
        Dir::from_key(self.0)
    }
}

/// One player's move for a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `d`: step to the neighbouring cell; onto the ball's cell it is a kick.
    Step(Dir),
    /// `5`: stay (the null move).
    Stand,
    /// `0d`: stay and put the ball on the neighbouring cell in direction `d`.
    Push(Key),
}

impl Move {
    /// Every move notation that parses, in a fixed order (8 steps, stand,
    /// 9 pushes): handy to enumerate candidates.
    pub fn all() -> impl Iterator<Item = Move> {
        let steps = Dir::ALL.into_iter().map(Move::Step);
        let pushes = (1..=9).filter_map(Key::new).map(Move::Push);
        steps.chain(std::iter::once(Move::Stand)).chain(pushes)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Step(dir) => write!(f, "{}", dir.key()),
            Move::Stand => f.write_str("5"),
            Move::Push(key) => write!(f, "0{}", key.digit()),
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;

    /// Exactly `d` or `0d` with `d` in 1-9. No trimming: the platform trims.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digit = |b: u8| Key::new(b.wrapping_sub(b'0'));
        match s.as_bytes() {
            [b'5'] => Ok(Move::Stand),
            &[b] => digit(b)
                .and_then(Key::dir)
                .map(Move::Step)
                .ok_or_else(|| bad_move(s)),
            &[b'0', b] => digit(b).map(Move::Push).ok_or_else(|| bad_move(s)),
            _ => Err(bad_move(s)),
        }
    }
}

/// Why `s` is no move, in both languages: a player reads it after "Cannot
/// read that move:", so it says what a move is rather than quote his text.
fn bad_move(s: &str) -> NotationError {
    if s.starts_with('0') {
        // `0`, `00`, `0x`: a push whose direction is missing.
        NotationError::told(said!("fb-bad-push"))
    } else {
        NotationError::told(said!("fb-bad-move"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_round_trips() {
        let all: Vec<Move> = Move::all().collect();
        assert_eq!(all.len(), 18);
        for mv in all {
            let text = mv.to_string();
            assert_eq!(text.parse::<Move>(), Ok(mv), "{text}");
        }
    }

    #[test]
    fn a_push_without_its_direction_says_so_in_each_language() {
        for text in ["0", "00", "0a"] {
            let why = text.parse::<Move>().unwrap_err();
            assert_eq!(
                why.for_player(crate::Lang::Ru).as_deref(),
                Some("posle 0 (tolchok) nuzhna tsifra napravleniya 1-9")
            );
            assert_eq!(
                why.for_player(crate::Lang::En).as_deref(),
                Some("a push is 0 and a direction 1-9")
            );
        }
        let why = "33".parse::<Move>().unwrap_err();
        assert_eq!(
            why.for_player(crate::Lang::Ru).as_deref(),
            Some("xod - tsifra 1-9 ili 0 i tsifra 1-9")
        );
    }

    #[test]
    fn notation_examples() {
        assert_eq!("3".parse(), Ok(Move::Step(Dir::UpRight)));
        assert_eq!("5".parse(), Ok(Move::Stand));
        assert_eq!("06".parse(), Ok(Move::Push(Key::new(6).unwrap())));
        assert_eq!("05".parse(), Ok(Move::Push(Key::new(5).unwrap())));
        assert_eq!("01".parse::<Move>().unwrap().to_string(), "01");
        assert_eq!(Move::Step(Dir::Down).to_string(), "8");
        assert_eq!(Move::Stand.to_string(), "5");
    }

    #[test]
    fn malformed_moves_are_refused() {
        for text in [
            "", "0", "00", "10", "33", "a", " 3", "3 ", "06 ", "006", "60", "-1", "+3", "3\n",
            "\u{0663}", "\u{ff13}", "0a", "x6",
        ] {
            assert!(text.parse::<Move>().is_err(), "{text:?} parsed");
        }
    }

    #[test]
    fn keys_are_one_to_nine() {
        assert!(Key::new(0).is_none());
        assert!(Key::new(10).is_none());
        assert_eq!(Key::new(5).unwrap().dir(), None);
        assert_eq!(Key::new(8).unwrap().dir(), Some(Dir::Down));
    }
}
