//! A move as a player texts it: `a1r бамбук` (start cell, direction, word), `a1 бамбук`, or `-`.

use std::fmt;
use std::str::FromStr;

use super::alphabet::{self, script};
use super::board::{Cell, Dir};
use crate::{NotationError, said};

/// The longest word the parser takes: longer texts are no word of ours
/// (the rules' limit, 7, is checked when the move is played, with a reason).
const LONGEST: usize = 30;

/// A word on the board, as written: where it starts, which way (if said),
/// and the word in lower case as typed (`ё` kept).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Word {
    pub start: Cell,
    pub dir: Option<Dir>,
    pub word: String,
}

/// One text of a player.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `-`: pass (also the missed deadline's move).
    Pass,
    Word(Word),
}

impl Move {
    /// A word move with its direction.
    pub fn word(start: Cell, dir: Dir, word: &str) -> Move {
        Move::Word(Word {
            start,
            dir: Some(dir),
            word: word.chars().map(alphabet::lower).collect(),
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Pass => f.write_str("-"),
            Move::Word(w) => {
                write!(f, "{}", w.start)?;
                if let Some(d) = w.dir {
                    write!(f, "{}", d.letter())?;
                }
                write!(f, " {}", w.word)
            }
        }
    }
}

/// Column letters also accepted in Cyrillic, where a phone's Russian layout
/// has a letter that looks the same.
fn column_letter(c: char) -> char {
    match c {
        'а' => 'a',
        'с' => 'c',
        'е' => 'e',
        _ => c,
    }
}

impl FromStr for Move {
    type Err = NotationError;

    /// `-` (or `pas`, `pass`, `пас`) passes; otherwise `<cell>[dir] <word>`
    /// or `<cell> <dir> <word>`, in any case, words in one alphabet.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lowered: String = s.chars().map(alphabet::lower).collect();
        let tokens: Vec<&str> = lowered.split_whitespace().collect();
        match tokens.as_slice() {
            ["-" | "pas" | "pass" | "пас"] => Ok(Move::Pass),
            // `a1 u`: a direction and no word (a word has three letters or more).
            [_, dir]
                if dir.chars().count() == 1
                    && dir.chars().all(|c| Dir::from_letter(c).is_some()) =>
            {
                Err(NotationError::told(said!(
                    "wb-direction-no-word",
                    quoted = format!("{s:?}"),
                )))
            }
            [place, word] => parse_word(place, None, word),
            [place, dir, word] => parse_word(place, Some(dir), word),
            _ => Err(bad_move(s)),
        }
    }
}

fn parse_word(place: &str, dir_token: Option<&str>, word: &str) -> Result<Move, NotationError> {
    let place: String = place.chars().map(column_letter).collect();
    let (cell_text, dir) = match place.chars().last().and_then(Dir::from_letter) {
        Some(d) if dir_token.is_none() => (&place[..place.len() - 1], Some(d)),
        _ => (place.as_str(), None),
    };
    let dir = match dir_token {
        None => dir,
        Some(t) => {
            let mut chars = t.chars();
            match (chars.next().and_then(Dir::from_letter), chars.next()) {
                (Some(d), None) => Some(d),
                _ => {
                    return Err(NotationError::told(said!(
                        "wb-not-a-direction",
                        quoted = format!("{t:?}"),
                    )));
                }
            }
        }
    };
    let start: Cell = cell_text.parse().map_err(|()| {
        NotationError::told(said!("wb-not-a-cell", quoted = format!("{cell_text:?}")))
    })?;
    check_word(word)?;
    Ok(Move::Word(Word {
        start,
        dir,
        word: word.to_string(),
    }))
}

/// Letters only, all of one alphabet.
fn check_word(word: &str) -> Result<(), NotationError> {
    let mut scripts = word.chars().map(script);
    let first = scripts.next().flatten();
    let one_alphabet = first.is_some() && scripts.all(|s| s == first);
    // A one-letter "word" that is a direction would read back as one
    // (`a1 r d` written `a1r d`): it is the word forgotten, as in `a1 u`.
    let mut chars = word.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && Dir::from_letter(c).is_some()
    {
        return Err(NotationError::told(said!(
            "wb-word-is-direction",
            quoted = format!("{word:?}"),
        )));
    }
    if !one_alphabet || word.chars().count() > LONGEST {
        return Err(NotationError::told(said!(
            "wb-not-a-word",
            quoted = format!("{word:?}"),
        )));
    }
    Ok(())
}

fn bad_move(s: &str) -> NotationError {
    NotationError::told(said!("wb-not-a-move", quoted = format!("{s:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(start: &str, dir: Option<Dir>, w: &str) -> Move {
        Move::Word(Word {
            start: start.parse().unwrap(),
            dir,
            word: w.into(),
        })
    }

    #[test]
    fn the_notation_as_players_type_it() {
        let cases = [
            ("a1r бамбук", word("a1", Some(Dir::Right), "бамбук")),
            ("A1R БАМБУК", word("a1", Some(Dir::Right), "бамбук")),
            ("  j10l   будуар ", word("j10", Some(Dir::Left), "будуар")),
            ("j10 d бостон", word("j10", Some(Dir::Down), "бостон")),
            ("a5 окурок", word("a5", None, "окурок")),
            ("e10D НамЁк", word("e10", Some(Dir::Down), "намёк")),
            ("а1u бордо", word("a1", Some(Dir::Up), "бордо")),
            ("c3r cat", word("c3", Some(Dir::Right), "cat")),
            ("-", Move::Pass),
            ("PAS", Move::Pass),
            ("пас", Move::Pass),
        ];
        for (text, want) in cases {
            assert_eq!(text.parse::<Move>().as_ref(), Ok(&want), "{text}");
            assert_eq!(want.to_string().parse::<Move>(), Ok(want.clone()));
        }
        assert_eq!(
            word("a1", Some(Dir::Right), "бамбук").to_string(),
            "a1r бамбук"
        );
        assert_eq!(word("a5", None, "окурок").to_string(), "a5 окурок");
        assert_eq!(Move::Pass.to_string(), "-");
    }

    #[test]
    fn malformed_moves_are_refused() {
        for text in [
            "",
            "a1r",
            "бамбук",
            "a1r бам бук",
            "k1r кот",
            "a11r кот",
            "a0 кот",
            "a1x кот",
            "a1 x кот",
            "a1 rr кот",
            "a1r к0т",
            "a1r кoт",
            "a1r кот-ёж",
            "a1r -",
            "- -",
            "1ar кот",
            "a1r ДлинноеДлинноеДлинноеСловоОчень",
        ] {
            assert!(text.parse::<Move>().is_err(), "{text:?} parsed");
        }
    }
}
