//! Why a text is refused, in the words a player reads (RU transliterated, EN); steps are 1-based.

use super::field::{Dir, KEYPAD};
use super::position::Block;
use crate::{Lang, Reason, tr};

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
            Refusal::Finished => tr!(lang, "ps-finished"),
            Refusal::NotYourTurn => tr!(lang, "ps-not-your-turn"),
            Refusal::Blocked { step, dir, why } => {
                let key = KEYPAD[dir as usize] as char;
                let why = match why {
                    Block::Drawn => "drawn",
                    Block::Border => "border",
                    Block::Outside => "outside",
                };
                tr!(lang, "ps-blocked", step = step, key = key, why = why)
            }
            Refusal::TurnEnded { after } => tr!(lang, "ps-turn-ended", after = after),
        }
    }
}
