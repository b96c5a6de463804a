//! Why a text is refused, in the words a player reads (RU transliterated, EN); steps are 1-based.

use super::field::{Dir, KEYPAD};
use super::position::Block;
use crate::{Lang, Reason};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The match is over.
    Finished,
    /// The other seat is to move.
    NotYourTurn,
    /// Step `step` (keypad direction `dir`) cannot be played.
    Blocked { step: usize, dir: Dir, why: Block },
    /// The text goes on after the turn (or the game) ended with step `after`.
    TurnEnded { after: usize },
}

impl Reason for Refusal {
    fn text(&self, lang: Lang) -> String {
        match *self {
            Refusal::Finished => lang.pick("Igra okonchena.", "The game is over.").into(),
            Refusal::NotYourTurn => lang.pick("Xod protivnika.", "Not your move.").into(),
            Refusal::Blocked { step, dir, why } => {
                let key = KEYPAD[dir as usize] as char;
                let (ru, en) = match why {
                    Block::Drawn => ("liniya uzhe narisovana", "that line is already drawn"),
                    Block::Border => (
                        "po granice polya xodit nelzya",
                        "you cannot move along the border",
                    ),
                    Block::Outside => (
                        "shtanga ili za predely polya",
                        "a goal post or out of the field",
                    ),
                };
                match lang {
                    Lang::Ru => {
                        format!("Xod {step} ({key}) nevozmozhen: {ru}. Nichego ne izmeneno.")
                    }
                    Lang::En => {
                        format!("Step {step} ({key}) is not possible: {en}. Nothing changed.")
                    }
                }
            }
            Refusal::TurnEnded { after } => match lang {
                Lang::Ru => format!(
                    "Vash xod zakonchilsya posle shaga {after}: lishnie shagi. Nichego ne izmeneno."
                ),
                Lang::En => {
                    format!("Your turn ended after step {after}: too many steps. Nothing changed.")
                }
            },
        }
    }
}
