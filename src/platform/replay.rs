//! Replaying a match from its seed and its recorded moves, to audit what is
//! stored: no search and no clock, since robots' moves are recorded like
//! any other.

use rand::SeedableRng;

use super::record::parse_withdrawal;
use crate::games::MatchRng;
use crate::games::any::AnyGame;
use crate::store::{MatchRecord, MoveKind, MoveRecord};

/// Where a replay parted from the record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("the opening state does not follow from the seed")]
    Opening,
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

/// Replays `record` (a match, or a rematch of `previous`) from its seed
/// through `moves`, checking every recorded state and generator position on
/// the way; returns the final state. `seats` is the match's seat count.
pub fn replay(
    game: &dyn AnyGame,
    record: &MatchRecord,
    previous: Option<&MatchRecord>,
    moves: &[MoveRecord],
    seats: usize,
) -> Result<String, ReplayError> {
    let mut rng = MatchRng::seed_from_u64(record.seed);
    let mut state = match previous {
        Some(prev) => game
            .load(&prev.state)
            .and_then(|p| p.rematch(&record.options, &mut rng))
            .map_err(|_| ReplayError::Opening)?,
        None => game
            .options(&record.options)
            .map_err(|_| ReplayError::Opening)?
            .start(&mut rng),
    };
    if state.state() != record.initial_state {
        return Err(ReplayError::Opening);
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
