//! Why a move is refused, as the catalog words it (the `wb-` messages of
//! `locales/*/word-battle.ftl`).
//!
//! Cells are named (`e5`) and letters quoted in upper case as they stand on
//! the board, so a Cyrillic letter makes that one reply UCS-2.

use super::alphabet::Variant;
use super::board::{Cell, Colour, Dir};
use crate::{Lang, Reason, tr};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The match is over.
    Finished,
    /// The other side is to move.
    NotYourTurn,
    /// A direction of the other side (`l`/`d` for Red, `r`/`u` for Blue).
    WrongDirection {
        side: Colour,
        dir: Dir,
    },
    /// The word is not in the match's alphabet.
    WrongAlphabet {
        variant: Variant,
    },
    TooShort {
        len: usize,
    },
    TooLong {
        len: usize,
        max: usize,
    },
    /// The start cell is empty or holds an enemy letter.
    NotYourLetter {
        cell: Cell,
        enemy: bool,
    },
    NotInDictionary {
        word: String,
    },
    AlreadyPlayed {
        word: String,
    },
    /// The word would run past the edge of the board.
    OffBoard {
        cell: Cell,
        dir: Dir,
        len: usize,
    },
    /// The board holds `board` where the word has `word`.
    Clash {
        cell: Cell,
        board: char,
        word: char,
    },
    /// No direction given and the word fits both ways.
    BothFit {
        cell: Cell,
        dirs: [Dir; 2],
    },
    /// No direction given and neither fits: why, for each.
    NeitherFits(Box<[(Dir, Refusal); 2]>),
}

/// A side as the messages select on it (`red`, `blue`).
pub(super) fn side_key(side: Colour) -> &'static str {
    match side {
        Colour::Red => "red",
        Colour::Blue => "blue",
    }
}

impl Reason for Refusal {
    fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::Finished => tr!(lang, "wb-match-over"),
            Refusal::NotYourTurn => tr!(lang, "wb-not-your-turn"),
            Refusal::WrongDirection { side, dir } => tr!(
                lang,
                "wb-wrong-direction",
                dir = dir.letter(),
                side = side_key(*side),
            ),
            Refusal::WrongAlphabet {
                variant: Variant::Ru,
            } => tr!(lang, "wb-russian-letters"),
            Refusal::WrongAlphabet {
                variant: Variant::En,
            } => tr!(lang, "wb-english-letters"),
            Refusal::TooShort { len } => tr!(lang, "wb-too-short", letters = *len),
            Refusal::TooLong { len, max } => {
                tr!(lang, "wb-too-long", letters = *len, max = *max)
            }
            Refusal::NotYourLetter { cell, enemy: false } => {
                tr!(lang, "wb-start-empty", square = cell.to_string())
            }
            Refusal::NotYourLetter { cell, enemy: true } => {
                tr!(lang, "wb-start-enemy", square = cell.to_string())
            }
            Refusal::NotInDictionary { word } => {
                tr!(lang, "wb-not-in-dictionary", capitals = word.to_uppercase())
            }
            Refusal::AlreadyPlayed { word } => {
                tr!(lang, "wb-already-played", capitals = word.to_uppercase())
            }
            Refusal::OffBoard { cell, dir, len } => tr!(
                lang,
                "wb-off-board",
                letters = *len,
                square = cell.to_string(),
                dir = dir.letter(),
            ),
            Refusal::Clash { cell, board, word } => tr!(
                lang,
                "wb-clash",
                square = cell.to_string(),
                on_board = *board,
                in_word = *word,
            ),
            Refusal::BothFit { cell, dirs: [a, b] } => tr!(
                lang,
                "wb-both-fit",
                square = cell.to_string(),
                first = a.letter(),
                second = b.letter(),
            ),
            // Each direction's letter and its own reason: no words of its own.
            Refusal::NeitherFits(both) => both
                .iter()
                .map(|(dir, why)| format!("{}: {}", dir.letter(), why.text(lang)))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}
