//! `H` (the combinations so far) and `H n` (the public state after step `n`),
//! rebuilt from the match record; undone steps drop out of the line.

use super::Intelball;
use super::board::{BLUE, other};
use super::code::write_combo;
use super::moves::Move;
use super::position::Position;
use super::state::State;
use crate::{HistoryEntry, Recorded};

/// Every position of the line of play, one per step, from the opening.
pub fn line(opening: &State, entries: &[HistoryEntry<'_, Intelball>]) -> Vec<Position> {
    let mut line = vec![opening.position().clone()];
    let mut prev = opening.position().clone();
    for entry in entries {
        let after = entry.after.position();
        match &entry.what {
            Recorded::Move(Move::Codes(combo)) | Recorded::Null(Move::Codes(combo)) => {
                let mut pos = prev.clone();
                for code in combo.codes() {
                    if pos.play(code).is_err() {
                        break;
                    }
                    record(&mut line, pos.clone());
                }
                if pos != *after {
                    record(&mut line, after.clone());
                }
            }
            Recorded::Move(Move::Undo) | Recorded::Null(Move::Undo) => {
                record(&mut line, after.clone())
            }
            Recorded::Withdrawal(_) => {}
        }
        prev = after.clone();
    }
    line
}

/// Puts `pos` at its step, dropping every later one (undone steps).
fn record(line: &mut Vec<Position>, pos: Position) {
    line.retain(|p| p.step < pos.step);
    line.push(pos);
}

/// The combinations of the line, one a line: `L 1-3: B(4,6)>L(4,5)...`; a
/// combination still in progress ends with `...`.
pub fn history(line: &[Position]) -> String {
    let mut out = Vec::new();
    for pair in line.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        if before.turn != after.turn {
            out.push(entry(other(after.turn), after.step, &after.last, ""));
        }
    }
    if let Some(last) = line.last().filter(|p| p.in_progress()) {
        out.push(entry(last.turn, last.step, &last.last, "..."));
    }
    out.join("\n")
}

fn entry(side: usize, step: u32, codes: &[super::code::Code], more: &str) -> String {
    let letter = if side == BLUE { 'L' } else { 'R' };
    let first = (step + 1).saturating_sub(codes.len() as u32);
    let steps = if first == step {
        step.to_string()
    } else {
        format!("{first}-{step}")
    };
    format!("{letter} {steps}: {}{more}", write_combo(codes))
}

/// The public state string of every step of the line, step 0 first, up to
/// the first step the line lacks.
pub fn steps(line: &[Position]) -> Vec<String> {
    (0..)
        .map_while(|step| line.iter().find(|p| p.step as usize == step))
        .map(Position::to_string)
        .collect()
}
