//! Why a move is refused, in words a player reads: which step, which cell, why.

use super::moves::{Move, Step};
use crate::{Lang, Reason};

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
        let ru = lang == Lang::Ru;
        let at = |step: usize, mv: Step| {
            if ru {
                format!("Shag {step} ({}): ", mv.letter())
            } else {
                format!("Step {step} ({}): ", mv.letter())
            }
        };
        match *self {
            Refusal::Over => lang
                .pick("Gonka uzhe okonchena.", "The race is over.")
                .into(),
            Refusal::NotInRace => lang
                .pick(
                    "Vy ne uchastvuete v etoi gonke.",
                    "You are not in this race.",
                )
                .into(),
            Refusal::NotYourTurn { car } if ru => {
                format!("Seichas ne vash xod: edet mashina {car}.")
            }
            Refusal::NotYourTurn { car } => format!("It is not your turn: car {car} moves now."),
            Refusal::Backwards { step } if ru => format!("Shag {step}: nazad ezdit nelzya."),
            Refusal::Backwards { step } => format!("Step {step}: cars may not drive backwards."),
            Refusal::OffTrack { step, mv, lane } => {
                let inward = mv == Step::Inner;
                let text = if ru {
                    let way = if inward { "vnutr" } else { "naruzhu" };
                    format!("mashina uzhe na polose {lane}, dalshe {way} polos net.")
                } else {
                    let way = if inward { "in" } else { "out" };
                    format!("the car is on lane {lane} already, no lane is further {way}.")
                };
                format!("{}{text}", at(step, mv))
            }
            Refusal::LaneEnds { step, lane } if ru => format!(
                "Shag {step} (F): polosa {lane} tut konchaetsya, trassa uzhe. Snachala smenite polosu."
            ),
            Refusal::LaneEnds { step, lane } => format!(
                "Step {step} (F): lane {lane} ends here, the track narrows. Change lanes first."
            ),
            Refusal::TooLong {
                step,
                mv,
                length,
                allow,
                bonus,
            } => {
                let text = if ru {
                    format!(
                        "dlina xoda stala by {length}, a mozhno ot 1 do {allow}, bonus {bonus}."
                    )
                } else {
                    format!("the move would be {length} long; allowed 1 to {allow}, bonus {bonus}.")
                };
                format!("{}{text}", at(step, mv))
            }
            Refusal::CellTwice { step, mv } => {
                let text = lang.pick(
                    "v etoi kletke mashina v etom xode uzhe byla.",
                    "the path was on that cell already; no cell twice in a move.",
                );
                format!("{}{text}", at(step, mv))
            }
            Refusal::Occupied {
                step,
                mv,
                by,
                lane,
                ahead,
                line,
            } => {
                let text = match (ru, line) {
                    (true, false) => format!(
                        "Kletka na kotoruyu vy hoteli vstat zanyata: polosa {lane}, {ahead} vperedi, mashina {by}."
                    ),
                    (true, true) => {
                        format!("finishnaya liniya na polose {lane} zanyata mashinoi {by}.")
                    }
                    (false, false) => {
                        format!("the cell on lane {lane}, {ahead} ahead, is taken by car {by}.")
                    }
                    (false, true) => {
                        format!("the finish line on lane {lane} is taken by car {by}.")
                    }
                };
                format!("{}{text}", at(step, mv))
            }
            Refusal::CanMove { ref example } if ru => {
                format!("Xod 0 - tolko esli ekhat nekuda. Mozhno, naprimer, {example}.")
            }
            Refusal::CanMove { ref example } => {
                format!("0 is only for a car that cannot move. You can, e.g. {example}.")
            }
        }
    }
}
