//! A match's record as stored and as games read it: the moves with the
//! state after each, and how a withdrawal is written (with the seats away
//! at the time, so that a replay decides the same).

use crate::games::any::{AnyGame, StoredEntry};
use crate::games::{NotationError, Recorded, Withdrawal};
use crate::store::{Holder, MoveKind, MoveRow, SeatRow};

/// How a record names each seat's holder, by seat: his nick, `bot<level>`
/// for a robot.
pub fn seat_names(seats: &[SeatRow]) -> Vec<String> {
    let mut names = vec![String::new(); seats.iter().map(|s| s.seat + 1).max().unwrap_or(0)];
    for s in seats {
        names[s.seat] = match &s.holder {
            Holder::Player(p) => p.nick.clone().unwrap_or_default(),
            Holder::Robot(level) => format!("bot{level}"),
        };
    }
    names
}

/// A match's whole record in its game's notation (paper soccer: the
/// kurnik digits with their header; football: its turns with the players'
/// names), not cut to one SMS, for operators: a record that does not read,
/// or game code that panics on it, is said in the text instead.
pub fn history_text(
    game: &dyn AnyGame,
    initial_state: &str,
    moves: &[MoveRow],
    names: &[String],
) -> String {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        stored_entries(moves, names.len())
            .and_then(|entries| game.history(initial_state, &entries, names, crate::lang::Lang::En))
            .map_err(|e| e.to_string())
    }))
    .unwrap_or_else(|_| Err("the game's code panicked".to_string()))
    .unwrap_or_else(|e| format!("the record does not read: {e}"))
}

/// The record in the game's former notation, where it changed (an export
/// made before still replays); none where it did not, or does not read.
pub fn former_history_text(
    game: &dyn AnyGame,
    initial_state: &str,
    moves: &[MoveRow],
    names: &[String],
) -> Option<String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        stored_entries(moves, names.len())
            .and_then(|entries| {
                game.former_history(initial_state, &entries, names, crate::lang::Lang::En)
            })
            .ok()
            .flatten()
    }))
    .ok()
    .flatten()
}

/// A match's stored moves as the games read their record. A withdrawal
/// that does not read is an error naming it, not taken for a resignation:
/// an absence read as one would replay to another standing.
pub(crate) fn stored_entries(
    moves: &[MoveRow],
    seats: usize,
) -> Result<Vec<StoredEntry<'_>>, NotationError> {
    moves
        .iter()
        .map(|m| {
            let what = match m.kind {
                MoveKind::Move => Recorded::Move(m.notation.as_str()),
                MoveKind::Null => Recorded::Null(m.notation.as_str()),
                MoveKind::Withdrawal => match parse_withdrawal(&m.notation, seats) {
                    Some((why, _)) => Recorded::Withdrawal(why),
                    None => {
                        return Err(NotationError::new(format!(
                            "ply {} of seat {}: the withdrawal {:?} does not read",
                            m.ply, m.seat, m.notation
                        )));
                    }
                },
            };
            Ok(StoredEntry {
                seat: m.seat,
                what,
                state_after: &m.state_after,
            })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn withdrawal(notation: &str) -> MoveRow {
        MoveRow {
            ply: 3,
            seat: 1,
            kind: MoveKind::Withdrawal,
            notation: notation.into(),
            automatic: false,
            state_after: String::new(),
            rng_pos: None,
        }
    }

    #[test]
    fn a_withdrawal_that_does_not_read_is_an_error_not_a_resignation() {
        let read = |notation: &str| {
            stored_entries(&[withdrawal(notation)], 3)
                .map(|entries| matches!(entries[0].what, Recorded::Withdrawal(Withdrawal::Absent)))
                .map_err(|e| e.to_string())
        };
        assert_eq!(read("resigned"), Ok(false));
        assert_eq!(read("absent 0,2"), Ok(true));
        let broken = read("absent 7").unwrap_err();
        assert!(
            broken.contains("ply 3 of seat 1") && broken.contains("absent 7"),
            "{broken}"
        );
        assert!(read("gone fishing").is_err());
    }
}
