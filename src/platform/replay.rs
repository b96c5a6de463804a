//! Replaying a match from its seed and its recorded moves, to audit what is stored.

use rand::SeedableRng;

use crate::games::MatchRng;
use crate::games::any::AnyGame;
use crate::store::{MatchRecord, MoveRecord};

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
}

/// Replays `record` (a match or a rematch) from its seed through `moves`, checking every
/// recorded state on the way; returns the final state.
pub fn replay(
    game: &dyn AnyGame,
    record: &MatchRecord,
    previous: Option<&MatchRecord>,
    moves: &[MoveRecord],
) -> Result<String, ReplayError> {
    let mut rng = MatchRng::seed_from_u64(record.seed);
    let opening = match previous {
        Some(prev) => game
            .rematch(&prev.state, &mut rng)
            .map_err(|_| ReplayError::Opening)?,
        None => game.start(seats(game, &record.initial_state), &mut rng),
    };
    if opening != record.initial_state {
        return Err(ReplayError::Opening);
    }
    let mut state = opening;
    for m in moves {
        let fail = |reason: String| ReplayError::Move {
            ply: m.ply,
            notation: m.notation.clone(),
            reason,
        };
        state = match m.notation.as_str() {
            // Resignations and forfeits are recorded as words, not moves.
            "resign" | "forfeit" => game
                .resign(&state, m.seat)
                .map_err(|e| fail(e.to_string()))?,
            notation => {
                game.play(&state, m.seat, notation, &mut rng)
                    .map_err(|e| fail(format!("{e:?}")))?
                    .state
            }
        };
        if state != m.state_after {
            return Err(ReplayError::Diverged { ply: m.ply });
        }
    }
    Ok(state)
}

/// How many seats the opening state has: the smallest seat count the game accepts
/// whose seats all render (games with a fixed count answer at once).
fn seats(game: &dyn AnyGame, state: &str) -> usize {
    let range = game.seat_range();
    if range.start() == range.end() {
        return *range.start();
    }
    range
        .clone()
        .rev()
        .find(|&n| game.side_of(state, n - 1).is_ok())
        .unwrap_or(*range.start())
}
