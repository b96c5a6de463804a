//! Replaying a match from its seed and its recorded moves, to audit what is
//! stored: no search and no clock, since robots' moves are recorded like
//! any other.

use rand::SeedableRng;

use super::record::parse_withdrawal;
use crate::games::MatchRng;
use crate::games::any::AnyGame;
use crate::store::{MatchRow, MoveKind, MoveRow};

/// Where a replay parted from the record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the opening state does not follow from the seed")]
    Opening,
    #[error("the opening state holds {held} seats, not the {given} given")]
    Seats { held: usize, given: usize },
    #[error("move {ply} ({notation}) does not replay: {reason}")]
    Move {
        ply: u32,
        notation: String,
        reason: String,
    },
    #[error("after move {ply} the state differs from the recorded one")]
    Diverged { ply: u32 },
    #[error("after move {ply} the generator is not where the record says")]
    Generator { ply: u32 },
}

/// Where a match opened from: its seed and options, and the state before
/// its first move; for a rematch, the final state of the match it replays.
#[derive(Clone, Copy, Debug)]
pub struct Opening<'a> {
    pub seed: u64,
    pub options: &'a str,
    pub initial_state: &'a str,
    pub rematch_of_state: Option<&'a str>,
}

impl<'a> Opening<'a> {
    /// A stored match's opening (`previous`, the match it is a rematch of).
    pub fn of(record: &'a MatchRow, previous: Option<&'a MatchRow>) -> Opening<'a> {
        Opening {
            seed: record.seed,
            options: &record.options,
            initial_state: &record.initial_state,
            rematch_of_state: previous.map(|p| p.state.as_str()),
        }
    }
}

/// Replays `record` (a match, or a rematch of `previous`) from its seed
/// through `moves`, checking every recorded state and generator position on
/// the way; returns the final state. `seats` is the match's seat count.
pub fn replay(
    game: &dyn AnyGame,
    record: &MatchRow,
    previous: Option<&MatchRow>,
    moves: &[MoveRow],
    seats: usize,
) -> Result<String, ReplayError> {
    replay_from(game, Opening::of(record, previous), moves, seats)
}

/// [`replay`] from an opening however it is held (a stored match, an export).
pub fn replay_from(
    game: &dyn AnyGame,
    opening: Opening<'_>,
    moves: &[MoveRow],
    seats: usize,
) -> Result<String, ReplayError> {
    let mut rng = MatchRng::seed_from_u64(opening.seed);
    let mut state = match opening.rematch_of_state {
        Some(previous) => game
            .load(previous)
            .and_then(|p| p.rematch(opening.options, &mut rng))
            .map_err(|_| ReplayError::Opening)?,
        None => game
            .options(opening.options)
            .map_err(|_| ReplayError::Opening)?
            .start(&mut rng),
    };
    if state.state() != opening.initial_state {
        return Err(ReplayError::Opening);
    }
    // Moves and withdrawals index the seats: a count that disagrees is
    // refused here, before a game reads one past its own.
    if state.seats() != seats {
        return Err(ReplayError::Seats {
            held: state.seats(),
            given: seats,
        });
    }
    for m in moves {
        let fail = |reason: String| ReplayError::Move {
            ply: m.ply,
            notation: m.notation.clone(),
            reason,
        };
        match m.kind {
            MoveKind::Withdrawal => {
                let (why, absent) = parse_withdrawal(&m.notation, seats)
                    .ok_or_else(|| fail("not a withdrawal".into()))?;
                state.withdraw(m.seat, why, &absent);
            }
            MoveKind::Move | MoveKind::Null => {
                state
                    .play(m.seat, &m.notation, &mut rng)
                    .map_err(|e| fail(format!("{e:?}")))?;
            }
        }
        if state.state() != m.state_after {
            return Err(ReplayError::Diverged { ply: m.ply });
        }
        if m.rng_pos.is_some_and(|pos| pos != rng.get_word_pos()) {
            return Err(ReplayError::Generator { ply: m.ply });
        }
    }
    Ok(state.state())
}
