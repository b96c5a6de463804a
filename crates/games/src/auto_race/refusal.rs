//! Why a move is refused, as the catalog words it (the `ar-` messages of
//! `locales/*/auto-race.ftl`): which step, which cell, why.

use super::moves::{Move, Step};
use crate::{Lang, Reason, tr};

/// A refused move; the state is left as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The race is over.
    Over,
    /// The seat is not in this race.
    NotInRace,
    /// Another car moves now (its letter).
    NotYourTurn { car: char },
    /// Step `step` drives backwards.
    Backwards { step: usize },
    /// Step `step` (`I` or `O`) leaves the track from the rules' lane `lane`:
    /// lane 1 is the innermost, the sector's width the outermost.
    OffTrack { step: usize, mv: Step, lane: u8 },
    /// Step `step` drives forward on the rules' lane `lane`, which ends there
    /// (the track narrows).
    LaneEnds { step: usize, lane: u8 },
    /// Step `step` makes the move `length` long, beyond `allow` plus `bonus`.
    TooLong {
        step: usize,
        mv: Step,
        length: u32,
        allow: u8,
        bonus: u8,
    },
    /// Step `step` enters a cell the path used already.
    CellTwice { step: usize, mv: Step },
    /// Step `step` enters a cell taken by car `by`: lane `lane`, `ahead`
    /// sectors in front of where the car started; `line`: on the finish line.
    Occupied {
        step: usize,
        mv: Step,
        by: char,
        lane: u8,
        ahead: i32,
        line: bool,
    },
    /// The zero move while the car can still move, e.g. by `example`.
    CanMove { example: Move },
}

impl Reason for Refusal {
    fn text(&self, lang: Lang) -> String {
        match *self {
            Refusal::Over => tr!(lang, "ar-over"),
            Refusal::NotInRace => tr!(lang, "ar-not-in-race"),
            Refusal::NotYourTurn { car } => tr!(lang, "ar-not-your-turn", car = car),
            Refusal::Backwards { step } => tr!(lang, "ar-backwards", step = step),
            Refusal::OffTrack { step, mv, lane } => tr!(
                lang,
                "ar-off-track",
                step = step,
                step_letter = mv.letter(),
                lane = lane,
                way = if mv == Step::Inner { "in" } else { "out" },
            ),
            Refusal::LaneEnds { step, lane } => {
                tr!(lang, "ar-lane-ends", step = step, lane = lane)
            }
            Refusal::TooLong {
                step,
                mv,
                length,
                allow,
                bonus,
            } => tr!(
                lang,
                "ar-too-long",
                step = step,
                step_letter = mv.letter(),
                move_length = length,
                allow = allow,
                bonus = bonus,
            ),
            Refusal::CellTwice { step, mv } => tr!(
                lang,
                "ar-cell-twice",
                step = step,
                step_letter = mv.letter(),
            ),
            Refusal::Occupied {
                step,
                mv,
                by,
                lane,
                ahead: _,
                line: true,
            } => tr!(
                lang,
                "ar-line-taken",
                step = step,
                step_letter = mv.letter(),
                lane = lane,
                car = by,
            ),
            Refusal::Occupied {
                step,
                mv,
                by,
                lane,
                ahead,
                line: false,
            } => tr!(
                lang,
                "ar-cell-taken",
                step = step,
                step_letter = mv.letter(),
                lane = lane,
                ahead = ahead,
                car = by,
            ),
            Refusal::CanMove { ref example } => {
                tr!(lang, "ar-can-move", example = example.to_string())
            }
        }
    }
}
