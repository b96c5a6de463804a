//! A match's record as stored and as games read it: the moves with the
//! state after each, and how a withdrawal is written (with the seats away
//! at the time, so that a replay decides the same).

use crate::games::any::StoredEntry;
use crate::games::{Recorded, Withdrawal};
use crate::store::{MoveKind, MoveRecord};

/// A match's whole record in its game's notation (paper soccer: the
/// kurnik digits with their header), not cut to one SMS, for operators: a
/// record that does not read, or game code that panics on it, is said in
/// the text instead.
pub fn history_text(
    game: &dyn crate::games::any::AnyGame,
    initial_state: &str,
    moves: &[MoveRecord],
    seats: usize,
) -> String {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game.history(
            initial_state,
            &stored_entries(moves, seats),
            crate::lang::Lang::En,
        )
        .map_err(|e| e.to_string())
    }))
    .unwrap_or_else(|_| Err("the game's code panicked".to_string()))
    .unwrap_or_else(|e| format!("the record does not read: {e}"))
}

/// A match's stored moves as the games read their record.
pub(crate) fn stored_entries(moves: &[MoveRecord], seats: usize) -> Vec<StoredEntry<'_>> {
    moves
        .iter()
        .map(|m| StoredEntry {
            seat: m.seat,
            what: match m.kind {
                MoveKind::Move => Recorded::Move(m.notation.as_str()),
                MoveKind::Null => Recorded::Null(m.notation.as_str()),
                MoveKind::Withdrawal => Recorded::Withdrawal(
                    parse_withdrawal(&m.notation, seats)
                        .map(|(why, _)| why)
                        .unwrap_or(Withdrawal::Resigned),
                ),
            },
            state_after: &m.state_after,
        })
        .collect()
}

/// How a withdrawal is written in the record: `resigned`, or `absent` with
/// the seats away at the time (`absent 0,2`).
pub(crate) fn withdrawal_notation(why: Withdrawal, absent: &[bool]) -> String {
    match why {
        Withdrawal::Resigned => "resigned".into(),
        Withdrawal::Absent => {
            let seats: Vec<String> = absent
                .iter()
                .enumerate()
                .filter(|(_, a)| **a)
                .map(|(s, _)| s.to_string())
                .collect();
            format!("absent {}", seats.join(","))
        }
    }
}

/// Reads what [`withdrawal_notation`] wrote, for `seats` seats.
pub(crate) fn parse_withdrawal(notation: &str, seats: usize) -> Option<(Withdrawal, Vec<bool>)> {
    if notation == "resigned" {
        return Some((Withdrawal::Resigned, vec![false; seats]));
    }
    let list = notation.strip_prefix("absent")?.trim();
    let mut absent = vec![false; seats];
    for seat in list.split(',').filter(|s| !s.is_empty()) {
        *absent.get_mut(seat.parse::<usize>().ok()?)? = true;
    }
    Some((Withdrawal::Absent, absent))
}
