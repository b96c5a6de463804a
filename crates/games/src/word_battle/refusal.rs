//! Why a move is refused, in the words a player reads (RU transliterated, EN).
//!
//! Cells are named (`e5`) and letters quoted in upper case as they stand on
//! the board, so a Cyrillic letter makes that one reply UCS-2.

use super::alphabet::Variant;
use super::board::{Cell, Colour, Dir};
use crate::{Lang, Reason};

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

fn side_name(side: Colour, lang: Lang) -> &'static str {
    match side {
        Colour::Red => lang.pick("krasnye", "Red"),
        Colour::Blue => lang.pick("sinie", "Blue"),
    }
}

fn dir_name(dir: Dir, lang: Lang) -> &'static str {
    match dir {
        Dir::Right => lang.pick("vpravo", "right"),
        Dir::Up => lang.pick("vverx", "up"),
        Dir::Left => lang.pick("vlevo", "left"),
        Dir::Down => lang.pick("vniz", "down"),
    }
}

impl Reason for Refusal {
    fn text(&self, lang: Lang) -> String {
        let ru = lang == Lang::Ru;
        match self {
            Refusal::Finished => lang.pick("Igra okonchena.", "The match is over.").into(),
            Refusal::NotYourTurn => lang
                .pick("Seichas xod protivnika.", "It is not your turn.")
                .into(),
            Refusal::WrongDirection { side, dir } => {
                let [a, b] = side.dirs();
                if ru {
                    format!(
                        "Napravlenie {} ({}) ne vashe: {} pishut {} ({}) ili {} ({}).",
                        dir.letter(),
                        dir_name(*dir, lang),
                        side_name(*side, lang),
                        a.letter(),
                        dir_name(a, lang),
                        b.letter(),
                        dir_name(b, lang)
                    )
                } else {
                    format!(
                        "{} ({}) is not your direction: {} writes {} ({}) or {} ({}).",
                        dir.letter(),
                        dir_name(*dir, lang),
                        side_name(*side, lang),
                        a.letter(),
                        dir_name(a, lang),
                        b.letter(),
                        dir_name(b, lang)
                    )
                }
            }
            Refusal::WrongAlphabet { variant } => match variant {
                Variant::Ru => lang.pick(
                    "Slovo nuzhno pisat russkimi bukvami.",
                    "Write the word in Russian letters.",
                ),
                Variant::En => lang.pick(
                    "Slovo nuzhno pisat latinskimi bukvami (angliiskoe).",
                    "Write the word in English letters.",
                ),
            }
            .into(),
            Refusal::TooShort { len } => {
                if ru {
                    format!("Slovo iz {len} bukv: nuzhno ne menee 3.")
                } else {
                    format!("The word has {len} letters: at least 3 are needed.")
                }
            }
            Refusal::TooLong { len, max } => {
                if ru {
                    format!("Slovo iz {len} bukv: v etoi igre ne bolee {max}.")
                } else {
                    format!("The word has {len} letters: at most {max} in this match.")
                }
            }
            Refusal::NotYourLetter { cell, enemy } => match (ru, enemy) {
                (true, false) => format!("Kletka {cell} pusta: slovo nachinayut s vashei bukvy."),
                (true, true) => {
                    format!("V kletke {cell} bukva protivnika: slovo nachinayut s vashei bukvy.")
                }
                (false, false) => {
                    format!("{cell} is empty: a word starts on one of your letters.")
                }
                (false, true) => {
                    format!("{cell} holds an enemy letter: a word starts on one of your letters.")
                }
            },
            Refusal::NotInDictionary { word } => {
                let w = word.to_uppercase();
                if ru {
                    format!("Slova {w} net v slovare (sushchestvitelnye v ed. ch., im. p.).")
                } else {
                    format!("{w} is not in the dictionary (common nouns, singular).")
                }
            }
            Refusal::AlreadyPlayed { word } => {
                let w = word.to_uppercase();
                if ru {
                    format!("Slovo {w} uzhe bylo v etoi igre.")
                } else {
                    format!("{w} has already been played in this match.")
                }
            }
            Refusal::OffBoard { cell, dir, len } => {
                if ru {
                    format!(
                        "Slovo iz {len} bukv ot {cell} {} vyxodit za krai polya.",
                        dir_name(*dir, lang)
                    )
                } else {
                    format!(
                        "A word of {len} letters from {cell} {} runs off the board.",
                        dir_name(*dir, lang)
                    )
                }
            }
            Refusal::Clash { cell, board, word } => {
                if ru {
                    format!("V kletke {cell} stoit {board}, a v slove tam {word}.")
                } else {
                    format!("{cell} holds {board}, but your word has {word} there.")
                }
            }
            Refusal::BothFit { cell, dirs: [a, b] } => {
                if ru {
                    format!(
                        "Slovo vstaet ot {cell} i {}, i {}: napishite {cell}{} ili {cell}{}.",
                        dir_name(*a, lang),
                        dir_name(*b, lang),
                        a.letter(),
                        b.letter()
                    )
                } else {
                    format!(
                        "The word fits from {cell} both {} and {}: send {cell}{} or {cell}{}.",
                        dir_name(*a, lang),
                        dir_name(*b, lang),
                        a.letter(),
                        b.letter()
                    )
                }
            }
            Refusal::NeitherFits(both) => both
                .iter()
                .map(|(dir, why)| format!("{}: {}", dir.letter(), why.text(lang)))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}
